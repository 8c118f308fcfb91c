import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { CONTENT_FIELDS } from '../activity';
import { usersChanged } from '../db/changes';
import { compiled, preparedRows, rows, type Db } from '../db/client';
import { col, cols, selected } from '../db/names';
import { heartbeats, serverSecrets, users } from '../db/schema';
import { keptFor } from '../db/services';
import type { DesktopRow, IdeRow } from '../ingest/buckets';
import { admitCtes, admittedColumns, desktopWrites, ideWrites, writeRows } from '../ingest/store';
import type { Admission, Admit, AdmitResult } from '../auth/write-door';
import type { WriteLimits } from '../http/rate-limit';
import { localDateHour } from '../local-time';
import { checkedText, nameProblem, textProblem, textRule, type TextProblem } from '../text';
import { parseUserAgent, type Origin } from './user-agent';

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
  .meta({
    id: 'WakaTimeHeartbeat',
    examples: [{ entity: '/home/ada/codetally/app/page.tsx', type: 'file', time: 1736933400.25, category: 'coding', project: 'codetally', language: 'TypeScript', is_write: true }],
  });

type HeartbeatInput = z.output<typeof heartbeatSchema>;

const heartbeatTypeSet = new Set<unknown>(heartbeatTypes);
const absent = (v: unknown): v is null | undefined => v === undefined || v === null;
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : (v as null | undefined));

/**
 * The text rules of lib/text.ts for the strings of heartbeats, remembering up to `limit` strings
 * of each rule that passed it: a request's heartbeats name the same files, projects and languages
 * again and again. A string is remembered only once its rule found nothing wrong with it.
 */
export class TextChecks {
  private readonly texts = new Set<string>();
  private readonly names = new Set<string>();

  constructor(private readonly limit = 10_000) {}

  /** Whether textProblem finds nothing wrong with `value`. */
  text(value: string): boolean {
    return this.passes(this.texts, textProblem, value);
  }

  /** Whether nameProblem finds nothing wrong with `value`. */
  name(value: string): boolean {
    return this.passes(this.names, nameProblem, value);
  }

  private passes(passed: Set<string>, rule: (value: string) => TextProblem | null, value: string): boolean {
    if (passed.has(value)) return true;
    if (rule(value) !== null) return false;
    if (passed.size < this.limit) passed.add(value);
    return true;
  }
}

/** Text checks that remember nothing. */
const unremembered = new TextChecks(0);

/** A name field that is absent, or a string whose trimmed value the schema takes as it is. */
const plainName = (v: unknown, max: number, checks: TextChecks) => absent(v) || (typeof v === 'string' && v.length <= max && checks.name(v));

/**
 * The schema's output for a heartbeat that is plainly valid, without the schema (a quarter of
 * the checking time of an import); anything else, valid or not, is null and goes to the schema,
 * which names what is wrong. tests/unit/fast-path.test.ts checks it never differs from the schema.
 */
export function quickHeartbeat(item: Record<string, unknown>, checks = unremembered): HeartbeatInput | null {
  const { entity, type, time, category, project, language, user_agent: userAgent } = item;
  if (typeof entity !== 'string' || entity.length === 0 || entity.length > 4096 || !checks.text(entity)) return null;
  if (type !== undefined && !heartbeatTypeSet.has(type)) return null;
  if (typeof time !== 'number' || !Number.isFinite(time)) return null;
  if (!plainName(category, 64, checks) || !plainName(project, 255, checks) || !plainName(language, 64, checks)) return null;
  if (!(absent(userAgent) || (typeof userAgent === 'string' && userAgent.length <= 512))) return null;
  return {
    entity,
    type: (type ?? 'file') as HeartbeatInput['type'],
    time,
    category: trimmed(category),
    project: trimmed(project),
    language: trimmed(language),
    user_agent: userAgent as string | null | undefined,
  };
}

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

/** What became of one heartbeat of a request: kept, or what is wrong with it (its answer: heartbeatAnswer). */
export type ItemResult = Heartbeat | string;

/** The key of the entity digests (server_secrets), read once per database. */
export function digestKey(db: Db): Promise<string> {
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

/** What checking heartbeats needs: the digest key, the times a heartbeat may have, and the request's User-Agent. */
export interface CheckContext {
  key: string;
  /** Epoch ms: the earliest and latest time accepted. */
  earliest: number;
  latest: number;
  tooOld: string;
  /** For heartbeats without a user_agent of their own. */
  userAgent: string | null;
  /** Digests already made, by type, then entity (a dump names the same files again and again). */
  digests: Map<string, Map<string, number>>;
  /** What the entries of `digests` cost (see DIGESTS_MAX_COST). */
  digestCost?: number;
  /** User-Agents already read (a request's heartbeats share one or two). */
  origins: Map<string | null, Origin>;
  /** The text rules, remembering the strings that passed them (none when absent). */
  checks?: TextChecks;
}

/** The editor and system of a User-Agent, remembered in `ctx`. */
function originOf(ctx: CheckContext, userAgent: string | null): Origin {
  let origin = ctx.origins.get(userAgent);
  if (!origin) {
    origin = parseUserAgent(userAgent);
    if (ctx.origins.size < 1000) ctx.origins.set(userAgent, origin);
  }
  return origin;
}

/**
 * The most entity digests one context remembers, counted as each entity's characters plus
 * DIGEST_ENTRY_COST (what a map entry, its number and a short string's header take): an import's
 * context lasts the whole dump, whose entities (up to 4 KiB each, or millions of short ones) could
 * otherwise fill hundreds of megabytes.
 */
const DIGESTS_MAX_COST = 4_000_000;
const DIGEST_ENTRY_COST = 64;

/** The digest of a heartbeat's entity, remembered in `ctx`. */
function digestOf(ctx: CheckContext, type: string, entity: string): number {
  let ofType = ctx.digests.get(type);
  if (!ofType) ctx.digests.set(type, (ofType = new Map()));
  let digest = ofType.get(entity);
  if (digest === undefined) {
    const cost = entity.length + DIGEST_ENTRY_COST;
    ctx.digestCost = (ctx.digestCost ?? 0) + cost;
    if (ctx.digestCost > DIGESTS_MAX_COST) {
      for (const remembered of ctx.digests.values()) remembered.clear();
      ctx.digestCost = cost;
    }
    ofType.set(entity, (digest = entityDigest(ctx.key, type, entity)));
  }
  return digest;
}

/** The times the heartbeat routes accept: the last 14 days, up to an hour ahead. */
export function liveTimes(now = Date.now()): Pick<CheckContext, 'earliest' | 'latest' | 'tooOld'> {
  return { earliest: now - LATE_LIMIT_MS, latest: now + AHEAD_LIMIT_MS, tooOld: 'time must be within the last 14 days and at most one hour ahead' };
}

/** The fields the schema names: none is a content field in any case (tests/unit/fast-path.test.ts). */
const schemaFields: ReadonlySet<string> = new Set(Object.keys(heartbeatSchema.shape));

/** The first field that would carry content (CONTENT_FIELDS, in any case), if any. */
function contentField(item: object): string | undefined {
  for (const field of Object.keys(item)) {
    if (!schemaFields.has(field) && CONTENT_FIELDS.has(field.toLowerCase())) return field;
  }
  return undefined;
}

/** One heartbeat checked and reduced to what is kept, or what is wrong with it. */
export function checkHeartbeat(item: unknown, ctx: CheckContext): Heartbeat | string {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'a heartbeat must be a JSON object';
  const content = contentField(item);
  if (content !== undefined) return `${content}: file bodies, diffs and clipboard data are never accepted`;
  let h = quickHeartbeat(item as Record<string, unknown>, ctx.checks);
  if (!h) {
    const parsed = heartbeatSchema.safeParse(item);
    if (!parsed.success) return parsed.error.issues.map((i) => i.message).join('; ');
    h = parsed.data;
  }
  const at = Math.round(h.time * 1000);
  if (!(at >= ctx.earliest && at <= ctx.latest)) return ctx.tooOld;
  // For `type: app` the entity is the application's name, kept as desktop time's app.
  const appName = h.type === 'app' ? h.entity.trim() : '';
  const appProblem = h.type === 'app' ? appNameProblem(appName) : null;
  if (appProblem) return `entity of an app heartbeat is the application's name, which ${appProblem}`;
  const origin = originOf(ctx, h.user_agent ?? ctx.userAgent);
  return {
    at,
    type: h.type,
    digest: digestOf(ctx, h.type, h.entity),
    category: h.category || 'coding',
    language: h.language || 'Other',
    project: h.project ?? '',
    editor: origin.editor,
    os: origin.os || 'Unknown',
    app: appName || (h.type === 'app' ? 'Unknown' : ''),
  };
}

/** An entity's digest as the heartbeat's id and the statement's batch write it: in hexadecimal. */
const digestHex = (digest: number) => digest.toString(16);

/**
 * What tells two heartbeats apart (and the id a heartbeat is answered with, which writeAnswer
 * writes as bytes): the same time, type and entity are the same heartbeat.
 */
export const heartbeatKey = (h: { at: number; type: string; digest: number }) => `${h.at}-${h.type}-${digestHex(h.digest)}`;

/**
 * Heartbeats told apart as heartbeatKey tells them (the same time, type and entity are the same
 * heartbeat), each in the place it first came, holding the last one sent. Found by time first: a
 * number hashes faster than the key's text (hashing keys took a quarter of checking a bulk), and
 * two heartbeats seldom share a time. While heartbeats come in order of time (as editors send
 * them), each is new and none is looked up: the times are indexed at the first that is not.
 */
export class DistinctHeartbeats {
  readonly list: Heartbeat[] = [];
  /** Whether each heartbeat came later than all before it (then byTime is still empty). */
  private inOrder = true;
  /** The place of the first heartbeat at each time. */
  private readonly byTime = new Map<number, number>();
  /** The places of heartbeats at a time already taken by another one, by key. */
  private readonly byKey = new Map<string, number>();

  get size(): number {
    return this.list.length;
  }

  add(h: Heartbeat): void {
    if (this.inOrder) {
      const last = this.list.length - 1;
      if (last < 0 || h.at > this.list[last].at) {
        this.list.push(h);
        return;
      }
      this.inOrder = false;
      for (let place = 0; place <= last; place++) this.byTime.set(this.list[place].at, place);
    }
    const first = this.byTime.get(h.at);
    if (first === undefined) {
      this.byTime.set(h.at, this.list.push(h) - 1);
      return;
    }
    const held = this.list[first];
    if (held.type === h.type && held.digest === h.digest) {
      this.list[first] = h;
      return;
    }
    const key = heartbeatKey(h);
    const place = this.byKey.get(key);
    if (place === undefined) this.byKey.set(key, this.list.push(h) - 1);
    else this.list[place] = h;
  }
}

/**
 * Validates heartbeats one by one. Returns the valid ones (duplicates within the request once)
 * and an answer per item, in order. `userAgent` is the request's, for heartbeats without their own.
 */
export async function readHeartbeats(db: Db, items: readonly unknown[], userAgent: string | null, now = Date.now()): Promise<{ valid: Heartbeat[]; results: ItemResult[] }> {
  const ctx: CheckContext = { key: await digestKey(db), userAgent, ...liveTimes(now), digests: new Map(), origins: new Map(), checks: new TextChecks() };
  const valid = new DistinctHeartbeats();
  const results: ItemResult[] = [];
  for (const item of items) {
    const heartbeat = checkHeartbeat(item, ctx);
    if (typeof heartbeat !== 'string') valid.add(heartbeat);
    results.push(heartbeat);
  }
  return { valid: valid.list, results };
}

/** The HTTP status of a heartbeat's answer. */
export const answerStatus = (result: ItemResult): 201 | 400 => (typeof result === 'string' ? 400 : 201);

/** A heartbeat's answer: WakaTime's `{"data": ...}` without the entity, or `{"error": ...}`. */
export function heartbeatAnswer(result: ItemResult): { data: Record<string, unknown> } | { error: string } {
  if (typeof result === 'string') return { error: result };
  const { at, type, category, language, project } = result;
  return { data: { id: heartbeatKey(result), type, time: at / 1000, category, language, project: project || null } };
}

/** A bulk's answer: `{"responses": [[answer, status], ...]}`, one per heartbeat, in order. */
export function bulkAnswer(results: readonly ItemResult[]): { responses: [ReturnType<typeof heartbeatAnswer>, 201 | 400][] } {
  return { responses: results.map((r) => [heartbeatAnswer(r), answerStatus(r)]) };
}

interface Piece {
  date: string;
  hour: number;
  millis: number;
}

/** The last quarter hour read into a local date and hour (a dump's heartbeats come in runs within one). */
let lastQuarter: { zone: string; quarter: number; local: { date: string; hour: number } } | null = null;

/** The local date and hour of a quarter of a UTC hour (the same all through it in every timezone). */
function quarterLocal(zone: string, quarter: number): { date: string; hour: number } {
  if (lastQuarter?.quarter !== quarter || lastQuarter.zone !== zone) {
    lastQuarter = { zone, quarter, local: localDateHour(zone, new Date(quarter * QUARTER_MS)) };
  }
  return lastQuarter.local;
}

/** [start, end) cut into the local date-hours of `zone`. */
export function hoursOf(start: number, end: number, zone: string): Piece[] {
  const pieces: Piece[] = [];
  for (let t = start; t < end; ) {
    const quarter = Math.floor(t / QUARTER_MS);
    const next = Math.min(end, (quarter + 1) * QUARTER_MS);
    const { date, hour } = quarterLocal(zone, quarter);
    const last = pieces.at(-1);
    if (last && last.date === date && last.hour === hour) last.millis += next - t;
    else pieces.push({ date, hour, millis: next - t });
    t = next;
  }
  return pieces;
}

/** What a heartbeat's credit goes to: desktop time for `type: app`, editor time otherwise. */
type Credited = Pick<Heartbeat, 'language' | 'project' | 'editor' | 'os' | 'app'> & { type: string };

/** Credits as stored (lib/wakatime/imports.ts): bucket keys with their millis. */
export interface Credits {
  ide: [date: string, hour: number, language: string, project: string, editor: string, millis: number][];
  desktop: [date: string, hour: number, platform: string, app: string, millis: number][];
}

/** Sums of credit changes per bucket, for the write statement (which adds them to what is stored). */
export class Deltas {
  private readonly ide = new Map<string, IdeRow>();
  private readonly desktop = new Map<string, DesktopRow>();

  /** Adds (or with sign -1 takes back) the credit of [start, end) in `zone`'s hours. */
  add(row: Credited, start: number, end: number, zone: string, sign: 1 | -1): void {
    for (const p of hoursOf(start, end, zone)) {
      if (row.type === 'app') this.addDesktop(p.date, p.hour, row.os, row.app, sign * p.millis);
      else this.addIde(p.date, p.hour, row.language, row.project, row.editor, sign * p.millis);
    }
  }

  addCredits(credits: Credits, sign: 1 | -1): void {
    for (const [date, hour, language, project, editor, millis] of credits.ide) this.addIde(date, hour, language, project, editor, sign * millis);
    for (const [date, hour, platform, app, millis] of credits.desktop) this.addDesktop(date, hour, platform, app, sign * millis);
  }

  credits(): Credits {
    return {
      ide: [...this.ide.values()].filter((r) => r.millis !== 0).map((r) => [r.date, r.hour, r.language, r.project, r.editor, r.millis]),
      desktop: [...this.desktop.values()].filter((r) => r.millis !== 0).map((r) => [r.date, r.hour, r.platform, r.app, r.millis]),
    };
  }

  private addIde(date: string, hour: number, language: string, project: string, editor: string, millis: number): void {
    const key = `${date}\u0000${hour}\u0000${language}\u0000${project}\u0000${editor}`;
    const found = this.ide.get(key);
    if (found) found.millis += millis;
    else this.ide.set(key, { date, hour, language, project, editor, millis, lines: 0 });
  }

  private addDesktop(date: string, hour: number, platform: string, app: string, millis: number): void {
    const key = `${date}\u0000${hour}\u0000${platform}\u0000${app}`;
    const found = this.desktop.get(key);
    if (found) found.millis += millis;
    else this.desktop.set(key, { date, hour, platform, app, millis });
  }

  /** Writes the net changes (time added and taken back); returns whether any changed. */
  async write(tx: Db, userId: string): Promise<boolean> {
    let changed = false;
    for (const [kind, m] of [['ide', this.ide], ['desktop', this.desktop]] as const) {
      const rows = [...m.values()].filter((r) => r.millis !== 0);
      if (rows.length > 0) await writeRows(tx, kind, userId, rows as IdeRow[] | DesktopRow[]);
      changed ||= rows.length > 0;
    }
    return changed;
  }
}

/** Tells readers a user's figures changed; a failure is logged, never the writer's. */
export async function announce(db: Db, userId: string): Promise<void> {
  await usersChanged(db, [userId]).catch((err) => console.error('[codetally] change announcement failed:', (err as Error)?.message));
}

/**
 * The one statement that stores a batch of heartbeats. The user's row is its lock: `turn` updates
 * it (moving the stats version and `heartbeats_since`), waiting for any other batch of the user,
 * and finds whether one committed after this statement's snapshot was taken (the version moved
 * since). If none did, the snapshot holds every heartbeat of the user and `ok`; otherwise the
 * statement writes nothing and the caller runs it again. With `ok`: the new heartbeats (not
 * stored yet) and the stored ones within 15 minutes of them, in order; each new heartbeat's
 * credit and its predecessor's (the gap to the next, when at most 15 minutes) recomputed; the
 * heartbeats stored with their credits and the changed ones updated; each change of credit cut
 * into quarter hours, as local dates and hours of its zone, and sent to the buckets as time added
 * or taken back by the write statement's CTEs (lib/ingest/store.ts). The insert has no ON
 * CONFLICT: with `ok` no other batch of the user can commit, `fresh` holds none stored and the
 * batch none twice (DistinctHeartbeats), so a conflict would mean credits computed wrongly: the
 * statement fails whole instead (skipping rows cost a speculative insert, 50 bytes of WAL and a
 * sixth of the database's time per heartbeat).
 */
const heartbeatStatement = compiled<{ user: string; zone: string; beats: string; earliest: number; token?: string }, WriteLimits | null>((limits) => {
  const [h, u] = [heartbeats, users];
  // With an admission (lib/auth/write-door.ts), the same statement checks the token and counts the request.
  const admission = limits ? sql`${admitCtes({ tokenId: sql.placeholder('token'), timeZone: sql.placeholder('zone'), limits })},` : sql``;
  const user = { id: sql.placeholder('user') };
  const earliest = sql.placeholder('earliest');
  const zone = sql`${sql.placeholder('zone')}::text`;
  const mine = sql`${h.userId} = ${user.id}::uuid`;
  const rowKey = sql`${h.at} = c.at AND ${h.type} = c.type AND ${h.entityDigest} = c.digest`;
  const fields = sql`category, language, project, editor, os, app`;
  return sql`
    WITH ${admission}
    snap AS (SELECT ${u.statsVersion} AS version FROM ${u} WHERE ${u.id} = ${user.id}::uuid),
    turn AS (
      UPDATE ${u} SET ${col(u.statsVersion)} = ${u.statsVersion} + 1,
        ${col(u.heartbeatsSince)} = CASE WHEN ${u.statsVersion} = (SELECT version FROM snap)
          THEN least(coalesce(${u.heartbeatsSince}, ${earliest}::bigint), ${earliest}::bigint) ELSE ${u.heartbeatsSince} END
      WHERE ${u.id} = ${user.id}::uuid ${limits ? sql`AND EXISTS (SELECT 1 FROM admitted)` : sql``}
      RETURNING ${u.statsVersion} = (SELECT version FROM snap) + 1 AS ok
    ),
    incoming AS MATERIALIZED (
      SELECT ${earliest}::bigint + (e->>0)::bigint AS at, e->>1 AS type, ('x' || lpad(e->>2, 16, '0'))::bit(64)::bigint AS digest,
             e->>3 AS category, e->>4 AS language,
             e->>5 AS project, e->>6 AS editor, e->>7 AS os, e->>8 AS app
      FROM jsonb_array_elements(${sql.placeholder('beats')}::text::jsonb) AS e
      WHERE (SELECT ok FROM turn)
    ),
    -- Lookups by the whole key, within the batch's times (so that the primary key's range serves
    -- them whatever the planner believes of the user's heartbeats).
    fresh AS MATERIALIZED (
      SELECT * FROM incoming c WHERE NOT EXISTS (
        SELECT 1 FROM ${h} WHERE ${mine} AND ${h.at} BETWEEN (SELECT min(at) FROM incoming) AND (SELECT max(at) FROM incoming) AND ${rowKey}
      )
    ),
    near AS (
      SELECT false AS is_new, ${h.at} AS at, ${h.type} AS type, ${h.entityDigest} AS digest, ${selected(h.category, h.language, h.project, h.editor, h.os, h.app)},
             ${h.creditedUntil} AS credited, ${h.zone} AS zone
      FROM ${h} WHERE ${mine} AND ${h.at} BETWEEN (SELECT min(at) FROM fresh) - ${GAP_MS} AND (SELECT max(at) FROM fresh) + ${GAP_MS}
      UNION ALL
      SELECT true, at, type, digest, ${fields}, at, ${zone} FROM fresh
    ),
    affected AS MATERIALIZED (
      SELECT *, CASE WHEN next_at - at <= ${GAP_MS} THEN next_at ELSE at END AS until
      FROM (SELECT *, lead(at) OVER w AS next_at, lead(is_new) OVER w AS next_new FROM near WINDOW w AS (ORDER BY at, type, digest)) AS o
      WHERE is_new OR next_new
    ),
    changed AS MATERIALIZED (SELECT * FROM affected WHERE until <> credited OR zone <> ${zone}),
    stored AS (
      INSERT INTO ${h} (${cols(h.userId, h.at, h.type, h.entityDigest, h.category, h.language, h.project, h.editor, h.os, h.app, h.creditedUntil, h.zone)})
      SELECT ${user.id}::uuid, at, type, digest, ${fields}, until, ${zone} FROM affected WHERE is_new
      ORDER BY at, type, digest
    ),
    recredited AS (
      UPDATE ${h} SET ${col(h.creditedUntil)} = c.until, ${col(h.zone)} = ${zone}
      FROM changed c
      WHERE NOT c.is_new AND ${mine} AND ${h.at} BETWEEN (SELECT min(at) FROM changed) AND (SELECT max(at) FROM changed) AND ${rowKey}
    ),
    pieces AS (
      SELECT type, language, project, editor, os, app, -1 AS sign, at AS s, credited AS e, zone FROM changed WHERE credited > at
      UNION ALL
      SELECT type, language, project, editor, os, app, 1, at, until, ${zone} FROM changed WHERE until > at
    ),
    -- Each change cut at quarter hours and summed per bucket and quarter; each quarter's local
    -- date and hour read once (AT TIME ZONE costs more than the rest).
    quarters AS (
      SELECT p.type = 'app' AS desktop, CASE WHEN p.type = 'app' THEN p.os ELSE p.language END AS k1,
             CASE WHEN p.type = 'app' THEN p.app ELSE p.project END AS k2, CASE WHEN p.type = 'app' THEN '' ELSE p.editor END AS k3,
             p.zone, q, sum(p.sign * (least(p.e, q + ${QUARTER_MS}) - greatest(p.s, q))) AS millis
      FROM pieces p CROSS JOIN LATERAL generate_series(p.s - p.s % ${QUARTER_MS}, p.e - 1, ${QUARTER_MS}) AS q
      GROUP BY 1, 2, 3, 4, 5, 6
    ),
    locals AS (
      SELECT zone, q, to_timestamp(q / 1000.0) AT TIME ZONE zone AS local FROM (SELECT DISTINCT zone, q FROM quarters) AS d
    ),
    credits AS MATERIALIZED (
      SELECT desktop, local::date AS date, extract(hour FROM local)::smallint AS hour, k1, k2, k3, sum(millis)::bigint AS millis
      FROM quarters JOIN locals USING (zone, q)
      GROUP BY 1, 2, 3, 4, 5, 6
      HAVING sum(millis) <> 0
    ),
    ${ideWrites(user.id, sql`SELECT date, hour, k1 AS language, k2 AS project, k3 AS editor, millis, 0::bigint AS lines FROM credits WHERE NOT desktop`, sql``, { signed: true, version: false })},
    ${desktopWrites(user.id, sql`SELECT date, hour, k1 AS platform, k2 AS app, millis FROM credits WHERE desktop`, sql``, { signed: true })}
    SELECT (SELECT ok FROM turn) AS ok, (SELECT count(*) FROM credits)::int AS changed, ${limits ? admittedColumns : sql`NULL AS "timeZone"`}`;
});

/**
 * A batch as the statement receives it: one JSON parameter, a row per heartbeat, times as
 * milliseconds after the earliest and digests in hexadecimal (small numbers and short strings).
 */
export function statementBatch(batch: readonly Heartbeat[]): { beats: string; earliest: number } {
  let earliest = Infinity;
  for (const b of batch) if (b.at < earliest) earliest = b.at;
  const rows = batch.map((b) => [b.at - earliest, b.type, digestHex(b.digest), b.category, b.language, b.project, b.editor, b.os, b.app]);
  return { beats: JSON.stringify(rows), earliest };
}

/**
 * Stores heartbeats and brings every credit they change up to date, in one statement
 * (heartbeatStatement): a heartbeat already stored counts once; any order, batching or
 * repetition ends at the totals of the stream in order. `batch` holds each heartbeat once
 * (DistinctHeartbeats' list). When another batch of the user committed while the statement
 * started, it runs again in a transaction that first waits for the user's row, so that its
 * snapshot comes after every other batch. With an admission, the statement also checks the token
 * and counts the request (a revoked token or a request past the limit throws, having written
 * nothing; a timezone changed since is taken and the batch stored in it).
 */
export async function storeHeartbeats(db: Db, user: { id: string; timezone: string }, batch: readonly Heartbeat[], admission?: Admission): Promise<void> {
  if (batch.length === 0) return;
  type Result = AdmitResult & { ok: boolean | null; changed: number };
  const { beats, earliest } = statementBatch(batch);
  const run = async (on: Db, zone: string, admit?: Admit): Promise<Result | undefined> => {
    const statement = heartbeatStatement({ user: user.id, zone, beats, earliest, token: admit?.tokenId }, admit ? admit.limits : null);
    return (await preparedRows<Result>(on, statement))[0];
  };
  let zone = user.timezone;
  let result = await run(db, zone, admission?.admit);
  while (admission && result && !admission.settled) {
    const settled = admission.settle(result);
    if (settled.outcome === 'admitted') break;
    zone = settled.timeZone;
    result = await run(db, zone, admission.admit);
  }
  if (result?.ok === false) {
    result = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1 FROM ${users} WHERE ${users.id} = ${user.id}::uuid FOR UPDATE`);
      return run(tx as unknown as Db, zone);
    });
  }
  if (!result || result.ok === null) return; // the account is gone
  if (!result.ok) throw new Error('a heartbeat batch found its user changed while holding the user\'s row');
  purgeNowAndThen(db);
  if (result.changed > 0) await announce(db, user.id);
}

let lastPurge = 0;

/** Purges old heartbeats (purgeOldHeartbeats) at most every ten minutes per process, in the background. */
function purgeNowAndThen(db: Db, now = Date.now()): void {
  if (now - lastPurge < 600_000) return;
  lastPurge = now;
  purgeOldHeartbeats(db, now).catch((err) => console.error('[codetally] purging old heartbeats failed:', (err as Error).message));
}

/**
 * Deletes the heartbeats no late one can reach any more, user by user through the primary key
 * (users who ever sent one: heartbeats_since). No index on time alone: it served only this, and
 * cost every heartbeat stored 70 bytes of WAL.
 */
export async function purgeOldHeartbeats(db: Db, now = Date.now()): Promise<void> {
  const before = now - LATE_LIMIT_MS - AHEAD_LIMIT_MS - GAP_MS;
  const [h, u] = [heartbeats, users];
  await db.execute(
    sql`DELETE FROM ${h} WHERE ${h.userId} = ANY (ARRAY(SELECT ${u.id} FROM ${u} WHERE ${u.heartbeatsSince} < ${before})) AND ${h.at} < ${before}`,
  );
}
