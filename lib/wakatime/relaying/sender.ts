import { and, eq, isNull, sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client';
import { passwordLogins, relays } from '../../db/schema';
import { OutboundError, outboundBytes, userAddresses } from '../../http/outbound';
import { configuredOrigin } from '../../http/origin';
import { htmlOf, textOf, type Part } from '../../mail/messages';
import { deliver, mailConfigured } from '../../mail/transport';
import { installId } from './install';
import { utcDay } from './relays';
import { basicAuth } from '../api-key';
import { ORIGIN_HEADER, RELAY_ANSWER_BYTES, RELAY_TIMEOUT_MS } from './remote';
import { remoteText } from '../../text';
import { openRelayKey } from './sealed';
import { onWake } from './wake';

// Sending what relays have waiting (relay_queue), in every server process: a look every few
// seconds (and soon after this process queued something), each relay whose backoff has passed
// taken in turn. Rows are claimed with a lease (FOR UPDATE SKIP LOCKED, then a due time LEASE_MS
// ahead of the database's clock at the claim): two processes never send the same row, and a process that stops while sending leaves
// its rows to be sent again once the lease ends. Up to BULK rows with the same User-Agent and
// machine go as one WakaTime bulk request, with the client's User-Agent and X-Machine-Name and
// this install's X-Origin-Instance. The service's answer per heartbeat decides: accepted (2xx or
// a duplicate, 409) and refused (any other 4xx but 429) leave the queue; the rest are tried again.
// A failed request (no answer, 5xx, 429, a key refused) backs the whole relay off: BACKOFF_FIRST_MS,
// doubling, at most BACKOFF_MAX_MS, so an outage alone costs fewer than 80 attempts a day and a
// heartbeat is tried for its whole 24 hours; after PAUSE_AFTER failed attempts in a UTC day (a
// service that fails now and then), or when the key is refused once KEY_REFUSALS_TO_PAUSE attempts
// in a row have failed (a key revoked there does not come back by itself), the relay pauses, says
// why, and mails its owner (when mail is set up). A heartbeat not delivered
// within 24 hours of being queued is dropped and the relay says so. Decision 0036.

/** Heartbeats in one request: WakaTime's bulk limit. */
export const BULK = 25;
/** Requests one relay sends at most in one run (the next run goes on). */
const REQUESTS_PER_RUN = 20;
/** Relays one run takes at most, and how many are sent to at once. */
const RELAYS_PER_RUN = 50;
const PARALLEL = 4;
/** How long claimed rows stay out of other senders' reach. */
const LEASE_MS = 2 * 60_000;
export const BACKOFF_FIRST_MS = 5_000;
const BACKOFF_MAX_MS = 20 * 60_000;
/** Failed attempts in a UTC day that pause a relay. */
export const PAUSE_AFTER = 100;
/** Failed attempts in a row (nothing accepted between) at which a refusal of the key (401, 403) pauses a relay. */
const KEY_REFUSALS_TO_PAUSE = 3;
/** How long a heartbeat is kept in the queue at most. */
const KEEP_MS = 24 * 3_600_000;
/** How often each process looks for due rows. */
const LOOK_EVERY_MS = 3_000;

/**
 * The wait before the next attempt, in seconds, as SQL over the row being updated: BACKOFF_FIRST_MS
 * after the first failure in a row, doubling with each (failures_in_row before this one), at most BACKOFF_MAX_MS.
 */
const backoffSeconds = sql.raw(`least(${BACKOFF_MAX_MS}, ${BACKOFF_FIRST_MS} * power(2, least(failures_in_row, 20))) / 1000.0`);

const ts = (d: Date) => d.toISOString();

interface DueRelay {
  id: string;
  user_id: string;
  name: string;
  api_url: string;
  key_sealed: string;
}

interface Claimed {
  id: number | string;
  heartbeat: Record<string, unknown>;
  user_agent: string | null;
  machine: string | null;
}

/** What one run did, for the tests and the log. */
export interface RelayRun {
  sent: number;
  refused: number;
  failed: number;
  dropped: number;
  paused: number;
}

/** Drops rows queued more than KEEP_MS ago that no sender holds, and tells their relays. */
async function dropExpired(db: Db, now: Date): Promise<number> {
  const dropped = await rows<{ relay_id: string; n: number }>(
    db,
    sql`WITH gone AS (
          DELETE FROM relay_queue WHERE queued_at < ${ts(new Date(now.getTime() - KEEP_MS))}::timestamptz AND due_at <= now()
          RETURNING relay_id)
        SELECT relay_id, count(*)::int AS n FROM gone GROUP BY relay_id`,
  );
  for (const { relay_id, n } of dropped) {
    await db
      .update(relays)
      .set({ lastError: sql`${`${n} heartbeat${n === 1 ? ' was' : 's were'} dropped, not delivered within 24 hours`} || coalesce(' (last: ' || ${relays.lastError} || ')', '')` })
      .where(eq(relays.id, relay_id));
  }
  return dropped.reduce((s, d) => s + d.n, 0);
}

/** Relays not paused, past their backoff, with rows due. */
function dueRelays(db: Db, now: Date): Promise<DueRelay[]> {
  return rows<DueRelay>(
    db,
    sql`SELECT r.id, r.user_id, r.name, r.api_url, r.key_sealed FROM ${relays} r
        WHERE r.paused_at IS NULL AND (r.retry_at IS NULL OR r.retry_at <= ${ts(now)}::timestamptz)
          AND EXISTS (SELECT 1 FROM relay_queue q WHERE q.relay_id = r.id AND q.due_at <= ${ts(now)}::timestamptz)
        ORDER BY r.retry_at NULLS FIRST LIMIT ${RELAYS_PER_RUN}`,
  );
}

/**
 * Claims up to BULK due rows of a relay for LEASE_MS, in the order they were queued. Leases are
 * in the database's time, at the moment of the claim: not the run's start (a long run would claim
 * rows already out of lease), nor this process's clock (processes' clocks differ).
 */
async function claim(db: Db, relayId: string): Promise<Claimed[]> {
  const claimed = await rows<Claimed>(
    db,
    sql`UPDATE relay_queue SET due_at = now() + make_interval(secs => ${LEASE_MS / 1000}), attempts = attempts + 1
        WHERE id IN (SELECT id FROM relay_queue WHERE relay_id = ${relayId}::uuid AND due_at <= now()
                     ORDER BY id LIMIT ${BULK} FOR UPDATE SKIP LOCKED)
        RETURNING id, heartbeat, user_agent, machine`,
  );
  return claimed.sort((a, b) => Number(a.id) - Number(b.id));
}

const idList = (ids: (number | string)[]) => `{${ids.map(Number).join(',')}}`;

async function deleteRows(db: Db, ids: (number | string)[]): Promise<void> {
  if (ids.length > 0) await db.execute(sql`DELETE FROM relay_queue WHERE id = ANY(${idList(ids)}::bigint[])`);
}

/** Rows given back to the queue, due `afterMs` from now (the database's time). */
async function release(db: Db, ids: (number | string)[], afterMs = 0): Promise<void> {
  if (ids.length > 0) await db.execute(sql`UPDATE relay_queue SET due_at = now() + make_interval(secs => ${afterMs / 1000}) WHERE id = ANY(${idList(ids)}::bigint[])`);
}

/** What sending one group of heartbeats came to. */
type Outcome = { ok: true; accepted: number[]; refused: number[]; again: number[]; refusal: string | null } | { ok: false; error: string; keyRefused?: boolean };

/** Whether a per-heartbeat status counts as accepted: 2xx, or a duplicate the service already has (409). */
const acceptedStatus = (s: number) => (s >= 200 && s < 300) || s === 409;

/** Sends one request of heartbeats that share a User-Agent and machine. */
async function sendGroup(relay: DueRelay, key: string, origin: string, group: Claimed[]): Promise<Outcome> {
  const host = new URL(relay.api_url).host;
  const headers: Record<string, string> = {
    authorization: basicAuth(key),
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': group[0].user_agent || 'codetally-relay',
    [ORIGIN_HEADER]: origin,
  };
  if (group[0].machine) headers['x-machine-name'] = group[0].machine;
  let answer: Awaited<ReturnType<typeof outboundBytes>>;
  try {
    answer = await outboundBytes(`${relay.api_url}/users/current/heartbeats.bulk`, userAddresses(), {
      method: 'POST',
      headers,
      body: JSON.stringify(group.map((g) => g.heartbeat)),
      timeoutMs: RELAY_TIMEOUT_MS,
      maxBytes: RELAY_ANSWER_BYTES,
    });
  } catch (err) {
    if (err instanceof OutboundError) return { ok: false, error: err.message };
    throw err;
  }
  const ids = group.map((g) => Number(g.id));
  if (answer.status === 401 || answer.status === 403) return { ok: false, error: `${host} refused the key (${answer.status})`, keyRefused: true };
  if (answer.status < 200 || answer.status >= 300) return { ok: false, error: `${host} answered ${answer.status}` };
  let responses: unknown;
  try {
    responses = (JSON.parse(answer.body.toString('utf8')) as { responses?: unknown })?.responses;
  } catch {
    responses = undefined;
  }
  // Without an answer per heartbeat (a service that answers only 201/202), all were taken.
  if (!Array.isArray(responses) || responses.length !== group.length) return { ok: true, accepted: ids, refused: [], again: [], refusal: null };
  const out: Outcome = { ok: true, accepted: [], refused: [], again: [], refusal: null };
  responses.forEach((r, i) => {
    const status = Array.isArray(r) && typeof r[1] === 'number' ? r[1] : 201;
    if (acceptedStatus(status)) out.accepted.push(ids[i]);
    else if (status === 429 || status >= 500) out.again.push(ids[i]);
    else {
      out.refused.push(ids[i]);
      const said = Array.isArray(r) && r[0] && typeof r[0] === 'object' ? (r[0] as { error?: unknown }).error : undefined;
      const reason = typeof said === 'string' ? remoteText(said, 200) : '';
      out.refusal ??= `${host} refused a heartbeat (${status}${reason ? `: ${reason}` : ''})`;
    }
  });
  return out;
}

/** Heartbeats grouped by the headers they go with, in queue order. */
function groups(claimed: Claimed[]): Claimed[][] {
  const by = new Map<string, Claimed[]>();
  for (const c of claimed) {
    const k = `${c.user_agent ?? ''}\u0000${c.machine ?? ''}`;
    by.set(k, [...(by.get(k) ?? []), c]);
  }
  return [...by.values()];
}

/** A relay's success: the backoff ends; a refusal is said, else the last error is cleared. */
async function succeeded(db: Db, relayId: string, now: Date, refusal: string | null): Promise<void> {
  await db
    .update(relays)
    .set({ lastSuccessAt: now, failuresInRow: 0, retryAt: null, lastError: refusal })
    .where(eq(relays.id, relayId));
}

/**
 * A relay's failed attempt: counted, backed off, and paused at PAUSE_AFTER in the day, or when it
 * is the `pauseInRow`th failure in a row (true: it paused now).
 */
async function failed(db: Db, relay: DueRelay, now: Date, error: string, pauseInRow = Infinity): Promise<boolean> {
  const day = utcDay(now);
  const [row] = await rows<{ failures_in_row: number; failures_today: number }>(
    db,
    sql`UPDATE ${relays} SET
          failures_today = CASE WHEN failures_day = ${day} THEN failures_today + 1 ELSE 1 END,
          failures_day = ${day},
          failures_in_row = failures_in_row + 1,
          last_error = ${error},
          retry_at = ${ts(now)}::timestamptz + make_interval(secs => ${backoffSeconds})
        WHERE id = ${relay.id}::uuid
        RETURNING failures_in_row, failures_today`,
  );
  if (!row) return false;
  const inRow = row.failures_in_row >= pauseInRow;
  if (!inRow && row.failures_today < PAUSE_AFTER) return false;
  const reason = inRow ? (pauseInRow > 1 ? `${error}; ${row.failures_in_row} failed attempts in a row` : error) : `paused after ${PAUSE_AFTER} failed attempts today (last: ${error})`;
  // Only the process whose update pauses it tells the owner.
  const paused = await db
    .update(relays)
    .set({ pausedAt: now, pausedReason: reason, lastError: reason })
    .where(and(eq(relays.id, relay.id), isNull(relays.pausedAt)))
    .returning({ id: relays.id });
  if (paused.length === 0) return false;
  await mailPaused(db, relay, reason);
  return true;
}

/** Tells the owner their relay paused, when mail is set up and they have a confirmed address. */
async function mailPaused(db: Db, relay: DueRelay, reason: string): Promise<void> {
  if (!mailConfigured()) return;
  const [login] = await db
    .select({ email: passwordLogins.email })
    .from(passwordLogins)
    .where(and(eq(passwordLogins.userId, relay.user_id), eq(passwordLogins.awaitingConfirmation, false)))
    .limit(1);
  if (!login) return;
  const subject = `Your Codetally relay to ${relay.name} is paused`;
  const parts: Part[] = [
    { p: `Codetally stopped forwarding your heartbeats to ${relay.name} (${new URL(relay.api_url).host}): ${reason}.` },
    { p: 'Your heartbeats are still counted here and kept for the relay for 24 hours each. Check the address and key, then resume it:' },
    { link: `${configuredOrigin()}/dashboard/settings/relays`, label: 'Your relays' },
  ];
  await deliver({ to: login.email, subject, text: textOf(parts), html: htmlOf(subject, parts) }, 'a relay paused');
}

/** Sends what one relay has due, up to REQUESTS_PER_RUN requests, stopping at its first failure. */
async function sendRelay(db: Db, relay: DueRelay, origin: string, now: Date, run: RelayRun): Promise<void> {
  const key = openRelayKey(relay.key_sealed, relay.id);
  if (key === null) {
    // The session key changed since the relay was made: nothing can open its key any more.
    if (await failed(db, relay, now, 'its key can no longer be read (the server\'s AUTH_SECRET changed): delete this relay and add it again', 1)) run.paused++;
    run.failed++;
    return;
  }
  for (let requests = 0; requests < REQUESTS_PER_RUN; ) {
    const claimed = await claim(db, relay.id);
    if (claimed.length === 0) return;
    let refusal: string | null = null;
    let ok = false;
    const grouped = groups(claimed);
    for (const [i, group] of grouped.entries()) {
      requests++;
      const outcome = await sendGroup(relay, key, origin, group);
      if (!outcome.ok) {
        run.failed++;
        // This group and those not yet sent wait for the relay's next attempt.
        const rest = grouped.slice(i).flat().map((c) => Number(c.id));
        await release(db, rest);
        if (await failed(db, relay, now, outcome.error, outcome.keyRefused ? KEY_REFUSALS_TO_PAUSE : Infinity)) run.paused++;
        return;
      }
      ok = true;
      await deleteRows(db, [...outcome.accepted, ...outcome.refused]);
      await release(db, outcome.again, 30_000);
      run.sent += outcome.accepted.length;
      run.refused += outcome.refused.length;
      refusal ??= outcome.refusal;
    }
    if (ok) await succeeded(db, relay.id, now, refusal);
  }
}

/** One run: drops what is too old, then sends what every due relay has waiting. */
export async function sendRelays(db: Db, now = new Date()): Promise<RelayRun> {
  const run: RelayRun = { sent: 0, refused: 0, failed: 0, dropped: 0, paused: 0 };
  run.dropped = await dropExpired(db, now);
  const due = await dueRelays(db, now);
  if (due.length === 0) return run;
  const origin = await installId(db);
  for (let i = 0; i < due.length; i += PARALLEL) {
    // One relay's failure (a statement refused, a bug) is logged and leaves the others to be sent.
    await Promise.all(
      due.slice(i, i + PARALLEL).map((relay) =>
        sendRelay(db, relay, origin, now, run).catch((err) => {
          run.failed++;
          console.error(`[codetally] sending to relay ${relay.id} failed:`, (err as Error)?.message);
        }),
      ),
    );
  }
  return run;
}

declare global {
  var __codetallyRelays: NodeJS.Timeout | undefined;
}

/** Starts this process's sender (once): a look every LOOK_EVERY_MS, and soon after something was queued here. */
export function startRelays(db: Db): void {
  if (globalThis.__codetallyRelays) return;
  let running = false;
  let again = false;
  let soon: NodeJS.Timeout | undefined;
  const look = () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    sendRelays(db)
      .catch((err) => console.error('[codetally] sending to relays failed:', (err as Error)?.message))
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          look();
        }
      });
  };
  onWake(() => {
    soon ??= setTimeout(() => {
      soon = undefined;
      look();
    }, 250);
    soon.unref();
  });
  globalThis.__codetallyRelays = setInterval(look, LOOK_EVERY_MS);
  globalThis.__codetallyRelays.unref();
}
