import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { CONTENT_FIELDS } from '../activity';
import { usersChanged } from '../db/changes';
import { rows, type Db } from '../db/client';
import { col, cols, selected } from '../db/names';
import { heartbeats, serverSecrets } from '../db/schema';
import { keptFor } from '../db/services';
import type { DesktopRow, IdeRow } from '../ingest/buckets';
import { takeBackRows, writeRows } from '../ingest/store';
import { localDateHour } from '../local-time';
import { checkedText, nameProblem, textProblem, textRule } from '../text';
import { parseUserAgent } from './user-agent';

// Heartbeats to time, by WakaTime's rule: for each user, heartbeats ordered by time; the gap to
// the next one counts when it is at most 15 minutes, credited to the earlier heartbeat's
// language, project, editor and category, in the date-hours the gap covers in the user's
// timezone. A heartbeat arriving late changes at most two credits: its own (up to its successor)
// and its predecessor's (now up to it). Each heartbeat row keeps its current credit, so storing a
// batch recomputes exactly those credits and sends the differences to the same buckets the seed's
// routes write (lib/ingest/store.ts): any arrival order, batching or repetition ends at the totals
// of the stream in order. Rows older than the 14 days a heartbeat may be late are deleted; their
// credits can no longer change.

export const MAX_HEARTBEATS = 1000;
/** How late a heartbeat may arrive. */
export const LATE_LIMIT_MS = 14 * 86_400_000;
/** How far ahead of the server's clock a heartbeat may be. */
const AHEAD_LIMIT_MS = 3_600_000;
/** The longest gap between two heartbeats that counts as time spent. */
export const GAP_MS = 15 * 60_000;
/** Local hours never change inside a quarter of a UTC hour (every timezone's offset is a multiple of 15 minutes). */
const QUARTER_MS = 15 * 60_000;

export const heartbeatTypes = ['file', 'app', 'domain', 'url', 'event'] as const;

const name = (field: string, max: number) =>
  checkedText(z.string({ error: `${field} must be a string` }).trim().max(max, { error: `${field} must be at most ${max} characters` }), field, nameProblem);

/** One heartbeat as wakatime-cli sends it. Fields not named here are ignored; none is stored unless named. */
export const heartbeatSchema = z
  .object({
    entity: checkedText(z.string({ error: 'entity must be a string' }).min(1, { error: 'entity must not be empty' }).max(4096), 'entity', textProblem),
    type: z.enum(heartbeatTypes, { error: `type must be one of ${heartbeatTypes.join(', ')}` }).default('file'),
    time: z.number({ error: 'time must be a number (epoch seconds)' }).finite(),
    category: name('category', 64).nullish(),
    project: name('project', 255).nullish(),
    language: name('language', 64).nullish(),
    user_agent: z.string().max(512).nullish(),
    branch: z.unknown().optional(),
    lines: z.unknown().optional(),
    lineno: z.unknown().optional(),
    cursorpos: z.unknown().optional(),
    is_write: z.unknown().optional(),
    dependencies: z.unknown().optional(),
  })
  .meta({ id: 'WakaTimeHeartbeat' });

/** A heartbeat as it is kept: no entity (a keyed digest), nothing of the file but its language and project. */
export interface Heartbeat {
  at: number;
  type: (typeof heartbeatTypes)[number];
  digest: number;
  category: string;
  language: string;
  project: string;
  editor: string;
  os: string;
  app: string;
}

/** The answer for one heartbeat: what WakaTime answers, without the entity. */
export type ItemResult = [{ data: Record<string, unknown> }, 201] | [{ error: string }, 400];

/** The key of the entity digests (server_secrets), read once per database. */
function digestKey(db: Db): Promise<string> {
  const read = async () => {
    const [row] = await rows<{ value: string }>(db, sql`SELECT ${serverSecrets.value} AS value FROM ${serverSecrets} WHERE ${serverSecrets.name} = 'entity_digest'`);
    if (!row) throw new Error('the entity digest key is missing: run the migrations');
    return row.value;
  };
  return keptFor(db, 'entityDigestKey', read) ?? read();
}

/** 52 bits of an HMAC of the type and entity: tells duplicates apart without keeping the entity. */
function entityDigest(key: string, type: string, entity: string): number {
  return parseInt(createHmac('sha256', key).update(`${type}\u0000${entity}`).digest('hex').slice(0, 13), 16);
}

/** What is wrong with an application's name (the entity of an app heartbeat), if anything. */
function appNameProblem(name: string): string | null {
  if (name.length > 255) return 'must be at most 255 characters';
  const problem = nameProblem(name);
  return problem && textRule(problem);
}

/**
 * Validates heartbeats one by one. Returns the valid ones (duplicates within the request once)
 * and an answer per item, in order. `userAgent` is the request's, for heartbeats without their own.
 */
export async function readHeartbeats(db: Db, items: readonly unknown[], userAgent: string | null, now = Date.now()): Promise<{ valid: Heartbeat[]; results: ItemResult[] }> {
  const key = await digestKey(db);
  const valid = new Map<string, Heartbeat>();
  const results = items.map((item): ItemResult => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return [{ error: 'a heartbeat must be a JSON object' }, 400];
    const content = Object.keys(item).find((field) => CONTENT_FIELDS.has(field.toLowerCase()));
    if (content) return [{ error: `${content}: file bodies, diffs and clipboard data are never accepted` }, 400];
    const parsed = heartbeatSchema.safeParse(item);
    if (!parsed.success) return [{ error: parsed.error.issues.map((i) => i.message).join('; ') }, 400];
    const h = parsed.data;
    const at = Math.round(h.time * 1000);
    if (at < now - LATE_LIMIT_MS || at > now + AHEAD_LIMIT_MS) return [{ error: 'time must be within the last 14 days and at most one hour ahead' }, 400];
    // For `type: app` the entity is the application's name, kept as desktop time's app.
    const appName = h.type === 'app' ? h.entity.trim() : '';
    const appProblem = appNameProblem(appName);
    if (appProblem) return [{ error: `entity of an app heartbeat is the application's name, which ${appProblem}` }, 400];
    const origin = parseUserAgent(h.user_agent ?? userAgent);
    const heartbeat: Heartbeat = {
      at,
      type: h.type,
      digest: entityDigest(key, h.type, h.entity),
      category: h.category || 'coding',
      language: h.language || 'Other',
      project: h.project ?? '',
      editor: origin.editor,
      os: origin.os || 'Unknown',
      app: appName || (h.type === 'app' ? 'Unknown' : ''),
    };
    valid.set(`${at}/${h.type}/${heartbeat.digest}`, heartbeat);
    const id = `${at}-${h.type}-${heartbeat.digest.toString(16)}`;
    return [{ data: { id, type: h.type, time: h.time, category: heartbeat.category, language: heartbeat.language, project: heartbeat.project || null } }, 201];
  });
  return { valid: [...valid.values()], results };
}

interface Piece {
  date: string;
  hour: number;
  millis: number;
}

/** [start, end) cut into the local date-hours of `zone`. */
export function hoursOf(start: number, end: number, zone: string): Piece[] {
  const pieces: Piece[] = [];
  for (let t = start; t < end; ) {
    const next = Math.min(end, (Math.floor(t / QUARTER_MS) + 1) * QUARTER_MS);
    const { date, hour } = localDateHour(zone, new Date(t));
    const last = pieces.at(-1);
    if (last && last.date === date && last.hour === hour) last.millis += next - t;
    else pieces.push({ date, hour, millis: next - t });
    t = next;
  }
  return pieces;
}

/** A stored heartbeat as a recomputation reads it back: its fields and its current credit. */
interface StoredRow extends Omit<Heartbeat, 'type' | 'digest'> {
  type: string;
  entity_digest: number;
  credited_until: number;
  zone: string;
}

const keyOf = (r: { at: number; type: string; entity_digest: number }) => `${r.at}/${r.type}/${r.entity_digest}`;

/** Sums of credit changes per bucket, for the write statement (which adds them to what is stored). */
class Deltas {
  readonly ide = new Map<string, IdeRow>();
  readonly desktop = new Map<string, DesktopRow>();

  add(row: StoredRow, start: number, end: number, zone: string, sign: 1 | -1): void {
    for (const p of hoursOf(start, end, zone)) {
      const millis = sign * p.millis;
      if (row.type === 'app') {
        const key = JSON.stringify([p.date, p.hour, row.os, row.app]);
        const found = this.desktop.get(key);
        if (found) found.millis += millis;
        else this.desktop.set(key, { date: p.date, hour: p.hour, platform: row.os, app: row.app, millis });
      } else {
        const key = JSON.stringify([p.date, p.hour, row.language, row.project, row.editor]);
        const found = this.ide.get(key);
        if (found) found.millis += millis;
        else this.ide.set(key, { date: p.date, hour: p.hour, language: row.language, project: row.project, editor: row.editor, millis, lines: 0 });
      }
    }
  }
}

/** The net changes: what is added, and what is taken back (an upsert's candidate row may not be below zero). */
function split<R extends { millis: number }>(m: Map<string, R>): { added: R[]; taken: R[] } {
  const rows = [...m.values()];
  return { added: rows.filter((r) => r.millis > 0), taken: rows.filter((r) => r.millis < 0) };
}

/**
 * Stores heartbeats and brings every credit they change up to date, in one transaction per
 * user at a time (an advisory lock): a heartbeat already stored counts once.
 */
export async function storeHeartbeats(db: Db, user: { id: string; timezone: string }, batch: Heartbeat[]): Promise<void> {
  if (batch.length === 0) return;
  const h = heartbeats;
  const changed = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`codetally:heartbeats:${user.id}`}, 0))`);
    const tuples = batch.map((b) => [b.at, b.type, b.digest, b.category, b.language, b.project, b.editor, b.os, b.app]);
    const inserted = await rows<{ at: number; type: string; entity_digest: number }>(
      tx,
      sql`INSERT INTO ${h} (${cols(h.userId, h.at, h.type, h.entityDigest, h.category, h.language, h.project, h.editor, h.os, h.app, h.creditedUntil, h.zone)})
          SELECT ${user.id}::uuid, (e->>0)::bigint, e->>1, (e->>2)::bigint, e->>3, e->>4, e->>5, e->>6, e->>7, e->>8, (e->>0)::bigint, ${user.timezone}
          FROM jsonb_array_elements(${JSON.stringify(tuples)}::text::jsonb) AS e ORDER BY 2, 3, 4
          ON CONFLICT DO NOTHING
          RETURNING ${h.at}::float8 AS at, ${h.type} AS type, ${h.entityDigest}::float8 AS entity_digest`,
    );
    if (inserted.length === 0) return false;
    const times = inserted.map((r) => r.at);
    // Only heartbeats within the longest counted gap of a new one can have their credit changed.
    const near = await rows<StoredRow>(
      tx,
      sql`SELECT ${h.at}::float8 AS at, ${h.type} AS type, ${h.entityDigest}::float8 AS entity_digest,
                 ${selected(h.category, h.language, h.project, h.editor, h.os, h.app, h.zone)}, ${h.creditedUntil}::float8 AS credited_until
          FROM ${h} WHERE ${h.userId} = ${user.id}::uuid AND ${h.at} BETWEEN ${Math.min(...times) - GAP_MS} AND ${Math.max(...times) + GAP_MS}
          ORDER BY ${h.at}, ${h.type}, ${h.entityDigest}`,
    );
    const isNew = new Set(inserted.map(keyOf));
    const affected = new Set<number>();
    near.forEach((row, i) => {
      if (!isNew.has(keyOf(row))) return;
      affected.add(i);
      if (i > 0) affected.add(i - 1);
    });
    const deltas = new Deltas();
    const credits: [number, string, number, number][] = [];
    for (const i of [...affected].sort((a, b) => a - b)) {
      const row = near[i];
      const next = near[i + 1];
      const until = next && next.at - row.at <= GAP_MS ? next.at : row.at;
      if (until === row.credited_until && row.zone === user.timezone) continue;
      deltas.add(row, row.at, row.credited_until, row.zone, -1);
      deltas.add(row, row.at, until, user.timezone, 1);
      credits.push([row.at, row.type, row.entity_digest, until]);
    }
    if (credits.length > 0) {
      await tx.execute(
        sql`UPDATE ${h} SET ${col(h.creditedUntil)} = (c->>3)::bigint, ${col(h.zone)} = ${user.timezone}
            FROM jsonb_array_elements(${JSON.stringify(credits)}::text::jsonb) AS c
            WHERE ${h.userId} = ${user.id}::uuid AND ${h.at} = (c->>0)::bigint AND ${h.type} = c->>1 AND ${h.entityDigest} = (c->>2)::bigint`,
      );
    }
    const ide = split(deltas.ide);
    const desktop = split(deltas.desktop);
    if (ide.added.length > 0) await writeRows(tx, 'ide', user.id, ide.added);
    if (ide.taken.length > 0) await takeBackRows(tx, 'ide', user.id, ide.taken);
    if (desktop.added.length > 0) await writeRows(tx, 'desktop', user.id, desktop.added);
    if (desktop.taken.length > 0) await takeBackRows(tx, 'desktop', user.id, desktop.taken);
    return ide.added.length + ide.taken.length > 0;
  });
  purgeOldHeartbeats(db);
  if (changed) await usersChanged(db, [user.id]).catch((err) => console.error('[codetally] change announcement failed:', (err as Error)?.message));
}

let lastPurge = 0;

/** Deletes heartbeats no late one can reach any more, at most every ten minutes per process. */
function purgeOldHeartbeats(db: Db, now = Date.now()): void {
  if (now - lastPurge < 600_000) return;
  lastPurge = now;
  const before = now - LATE_LIMIT_MS - AHEAD_LIMIT_MS - GAP_MS;
  db.execute(sql`DELETE FROM ${heartbeats} WHERE ${heartbeats.at} < ${before}`).catch((err) =>
    console.error('[codetally] purging old heartbeats failed:', (err as Error).message),
  );
}
