import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { attemptPolicies, takeAttempt } from '../../auth/attempts';
import { rows, type Db } from '../../db/client';
import { usersChanged } from '../../db/changes';
import { relays, users } from '../../db/schema';
import { perDatabase } from '../../db/services';
import type { UserChanges } from '../../db/types';
import { checkedUrlField, userAddresses } from '../../http/outbound';
import { ApiError } from '../../http/problem';
import { isUuid } from '../../ids';
import { checkKey } from './remote';
import { sealRelayKey } from './sealed';
import { MAX_RELAYS, type CreateRelayInput, type RelayDto } from './schemas';

// A user's relays (their old services kept in step): made, listed, paused and resumed, deleted.
// The key is checked once against the service (`users/current`) and stored sealed
// (./sealed.ts); no answer carries it. Which users have relays is kept in memory per process, so
// that a heartbeat of a user without one costs nothing more (hasRelays).

/** Today's date in UTC, the day failures are counted in. */
export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

const noSuchRelay = () => new ApiError('not_found', 'No such relay.');

/** The change-feed tag announced when a user's relays change (every process forgets what it knew of them). */
const changeTag = (userId: string) => `relays:${userId}`;

/** How long an answer of hasRelays is kept at most (a change announced drops it at once). */
const ENTRY_MS = 60_000;
const MAX_ENTRIES = 50_000;

/** Whether each user has relays, as this process last read it; dropped when their relays change. */
class RelayUsers {
  private known = new Map<string, { has: boolean; expires: number }>();
  private seq = 0;

  constructor(private readonly changes: UserChanges) {
    // Only a change of relays (or a lost feed) counts: every write announces its user, and
    // counting those would keep a busy install from ever keeping an answer.
    changes.subscribe((subject) => {
      if (subject === null) this.known.clear();
      else if (subject.startsWith('relays:')) this.known.delete(subject.slice(7));
      else return;
      this.seq++;
    });
  }

  async has(db: Db, userId: string, now = Date.now()): Promise<boolean> {
    const hit = this.known.get(userId);
    if (hit && hit.expires > now && this.changes.live) return hit.has;
    const start = this.seq;
    const has = await readHasRelays(db, userId);
    // Not kept when a change of relays arrived meanwhile (it may have been this user's).
    if (this.changes.live && this.seq === start) {
      this.known.delete(userId);
      this.known.set(userId, { has, expires: now + ENTRY_MS });
      if (this.known.size > MAX_ENTRIES) this.known.delete(this.known.keys().next().value!);
    }
    return has;
  }
}

async function readHasRelays(db: Db, userId: string): Promise<boolean> {
  const [row] = await rows<{ has: boolean }>(db, sql`SELECT EXISTS (SELECT 1 FROM ${relays} WHERE ${relays.userId} = ${userId}::uuid) AS has`);
  return !!row?.has;
}

/** Whether the user has a relay: from memory for a user asked about before, until their relays change. */
export function hasRelays(db: Db, userId: string): Promise<boolean> {
  const cache = perDatabase(db, 'relayUsers', (s) => new RelayUsers(s.changes));
  return cache ? cache.has(db, userId) : readHasRelays(db, userId);
}

/** An ApiError naming one field of the body and its rule. */
function fieldError(path: string, code: string, message: string): ApiError {
  return new ApiError('invalid_payload', message, { errors: [{ path, code, message }] });
}

/**
 * Makes a relay: the address checked against the outbound rules, the key checked by asking the
 * service who it belongs to, then the row, its key sealed to its id; the fourth is refused.
 */
export async function createRelay(db: Db, userId: string, input: CreateRelayInput): Promise<{ id: string; name: string; api_url: string }> {
  const base = checkedUrlField('api_url', input.api_url, userAddresses(), { base: true });
  await assertRoom(db, userId);
  // Each check is a request to an address the user chose: limited per user (429 with Retry-After),
  // so that the route is no tool to probe hosts with.
  await takeAttempt(db, [{ policy: attemptPolicies.relayCheck, subject: `user:${userId}` }]);
  const checked = await checkKey(base, input.api_key);
  if (!checked.ok) throw fieldError(checked.field, checked.field === 'api_key' ? 'key_refused' : 'relay_unreachable', checked.message);
  const id = randomUUID();
  const name = input.name ?? new URL(base).host;
  const keySealed = sealRelayKey(input.api_key, id);
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    await assertRoom(tx, userId);
    await tx.insert(relays).values({ id, userId, name, apiUrl: base, keySealed });
  });
  await usersChanged(db, [], [changeTag(userId)]);
  return { id, name, api_url: base };
}

/** Refuses a relay beyond MAX_RELAYS (422 naming the rule). */
async function assertRoom(db: Db, userId: string): Promise<void> {
  const [{ n }] = await db.select({ n: count() }).from(relays).where(eq(relays.userId, userId));
  if (n >= MAX_RELAYS) {
    throw new ApiError('invalid_payload', `A user may have at most ${MAX_RELAYS} relays.`, {
      errors: [{ path: '', code: 'too_many_relays', message: `delete a relay first: at most ${MAX_RELAYS}` }],
    });
  }
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** The user's relays, oldest first, with what each has waiting; never the key. */
export async function listRelays(db: Db, userId: string, now = new Date()): Promise<RelayDto[]> {
  const found = await rows<{
    id: string;
    name: string;
    api_url: string;
    created_at: Date | string;
    last_success_at: Date | string | null;
    last_error: string | null;
    failures_today: number;
    failures_day: string | null;
    paused: boolean;
    pending: number | string;
  }>(
    db,
    sql`SELECT r.id, r.name, r.api_url, r.created_at, r.last_success_at, r.last_error, r.failures_today, r.failures_day,
               r.paused_at IS NOT NULL AS paused,
               (SELECT count(*) FROM relay_queue q WHERE q.relay_id = r.id) AS pending
        FROM ${relays} r WHERE r.user_id = ${userId}::uuid ORDER BY r.created_at, r.id`,
  );
  const today = utcDay(now);
  return found.map((r) => ({
    id: r.id,
    name: r.name,
    api_url: r.api_url,
    created_at: iso(r.created_at)!,
    last_success_at: iso(r.last_success_at),
    last_error: r.last_error,
    failures_today: r.failures_day === today ? r.failures_today : 0,
    pending: Number(r.pending),
    paused: r.paused,
  }));
}

/** Deletes one of the user's relays and what it had waiting. */
export async function deleteRelay(db: Db, userId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw noSuchRelay();
  const gone = await db.delete(relays).where(and(eq(relays.id, id), eq(relays.userId, userId))).returning({ id: relays.id });
  if (gone.length === 0) throw noSuchRelay();
  await usersChanged(db, [], [changeTag(userId)]);
}

/** Pauses one of the user's relays, or resumes it: its failures of the day and its backoff start again. */
export async function setRelayPaused(db: Db, userId: string, id: string, paused: boolean): Promise<void> {
  if (!isUuid(id)) throw noSuchRelay();
  const changed = await db
    .update(relays)
    .set(
      paused
        ? { pausedAt: sql`coalesce(${relays.pausedAt}, now())`, pausedReason: sql`coalesce(${relays.pausedReason}, 'paused by its owner')` }
        : { pausedAt: null, pausedReason: null, failuresToday: 0, failuresInRow: 0, retryAt: null },
    )
    .where(and(eq(relays.id, id), eq(relays.userId, userId)))
    .returning({ id: relays.id });
  if (changed.length === 0) throw noSuchRelay();
  // Resumed: what it has waiting goes at once.
  if (!paused) await db.execute(sql`UPDATE relay_queue SET due_at = now() WHERE relay_id = ${id}::uuid AND due_at > now()`);
}

/** One relay of the user, as listed. */
export async function oneRelay(db: Db, userId: string, id: string): Promise<RelayDto> {
  const found = (await listRelays(db, userId)).find((r) => r.id === id);
  if (!found) throw noSuchRelay();
  return found;
}
