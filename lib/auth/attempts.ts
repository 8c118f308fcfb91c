import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { col, cols } from '../db/names';
import { authAttempts as a } from '../db/schema';
import { clientNetwork, type Breadth } from '../http/client-network';
import { ApiError } from '../http/problem';

// Limits on guessing: password sign-in, the current password of a password change, the admin
// token, sign-ups, and mails asked for (lib/mail/budget.ts: limits per recipient, per recipient
// and asker, and per asker keep anyone from filling someone's mailbox). Each attempt takes a slot
// in a fixed window per account and per client address before the secret is checked (so
// concurrent guesses cannot slip past the count), and a successful one gives its slots back:
// people who know their password are never limited by their own sign-ins. A client address counts
// as its network, an IPv6 address as its /64 (lib/http/client-network.ts). The counters are in
// the database, so every server process shares them.

export interface Policy {
  name: string;
  limit: number;
  windowSeconds: number;
  /** The subject is a client address, counted by its network or its coarser block (lib/http/client-network.ts). */
  client?: Breadth;
}

export const attemptPolicies = {
  /** Wrong passwords for one account (sign-in, password change). */
  account: { name: 'account', limit: 10, windowSeconds: 15 * 60 },
  /** Wrong passwords from one client address, whatever the accounts (credential stuffing). */
  address: { name: 'address', limit: 30, windowSeconds: 15 * 60, client: 'network' },
  /** Sign-ups from one client address. */
  signUp: { name: 'signup', limit: 10, windowSeconds: 60 * 60, client: 'network' },
  /** Mails to one email address on one asker's word (lib/mail/budget.ts), the address's owner included. */
  mailTo: { name: 'mail-to', limit: 5, windowSeconds: 60 * 60 },
  /** Mails to one email address, whoever asks, but its owner (lib/mail/budget.ts): the recipient's ceiling for an hour... */
  mailRecipient: { name: 'mail-recipient', limit: 5, windowSeconds: 60 * 60 },
  /** ...and for a day. */
  mailRecipientDay: { name: 'mail-recipient-day', limit: 15, windowSeconds: 24 * 60 * 60 },
  /** Mails asked for by one asker (a client address's network, a signed-in user), whatever the emails. */
  mailFrom: { name: 'mail-from', limit: 20, windowSeconds: 60 * 60, client: 'network' },
  /** Mails asked for from one block of client addresses (an IPv6 /48: one site's many networks). */
  mailFromBlock: { name: 'mail-from-block', limit: 50, windowSeconds: 60 * 60, client: 'block' },
  /** Look-ups of a user's User-Agents on WakaTime (an import with X-WakaTime-Api-Key): outbound requests on a user's word. */
  wakatimeLookup: { name: 'wakatime-lookup', limit: 10, windowSeconds: 60 * 60 },
  /** Relays' keys checked against the address a user gave (POST /me/relays): outbound requests on a user's word. */
  relayCheck: { name: 'relay-check', limit: 10, windowSeconds: 60 * 60 },
  /** Wrong admin tokens from one client address. */
  admin: { name: 'admin', limit: 10, windowSeconds: 15 * 60, client: 'network' },
} satisfies Record<string, Policy>;

/** One counter: a policy and what it counts (an email, an address). */
export interface Counter {
  policy: Policy;
  subject: string;
}

/** The stored key: a hash, so that no email or address is stored. */
function keyOf({ policy, subject }: Counter): string {
  const counted = policy.client ? clientNetwork(subject, policy.client) : subject.trim().toLowerCase();
  return createHash('sha256').update(`${policy.name}\n${counted}`).digest('hex');
}

export class TooManyAttempts extends ApiError {
  constructor(readonly retryAfter: number) {
    super('rate_limited', `Too many attempts. Try again in ${Math.ceil(retryAfter / 60)} minute${retryAfter > 60 ? 's' : ''}.`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }
}

/**
 * Takes one slot of each counter; throws TooManyAttempts (nothing to check) when any of them is
 * full, and then takes nothing from the others: a refused attempt spends no budget, so an asker
 * past their own limit cannot go on spending one they share with others (a recipient's ceiling).
 */
export async function takeAttempt(db: Db, counters: Counter[]): Promise<void> {
  let retryAfter = 0;
  const taken: Counter[] = [];
  for (const counter of counters) {
    const { limit, windowSeconds } = counter.policy;
    const [row] = await rows<{ count: number; reset: number }>(
      db,
      sql`INSERT INTO ${a} (${cols(a.key, a.windowStart, a.count)}) VALUES (${keyOf(counter)}, now(), 1)
          ON CONFLICT (${col(a.key)}) DO UPDATE SET
            ${col(a.count)} = CASE WHEN ${a.windowStart} > now() - make_interval(secs => ${windowSeconds}) THEN least(${a.count} + 1, ${limit + 1}) ELSE 1 END,
            ${col(a.windowStart)} = CASE WHEN ${a.windowStart} > now() - make_interval(secs => ${windowSeconds}) THEN ${a.windowStart} ELSE now() END
          RETURNING ${a.count} AS count, greatest(1, ceil(extract(epoch FROM ${a.windowStart} + make_interval(secs => ${windowSeconds}) - now())))::int AS reset`,
    );
    // A full counter stays at limit + 1 (nothing to give back); one within its limit took a slot.
    if (row.count > limit) retryAfter = Math.max(retryAfter, row.reset);
    else taken.push(counter);
  }
  purgeOldAttempts(db);
  if (retryAfter === 0) return;
  await refundAttempt(db, taken);
  throw new TooManyAttempts(retryAfter);
}

/** Gives back the slots of an attempt that succeeded (or that another counter refused). */
export async function refundAttempt(db: Db, counters: Counter[]): Promise<void> {
  for (const counter of counters) {
    await db.execute(sql`UPDATE ${a} SET ${col(a.count)} = greatest(${a.count} - 1, 0) WHERE ${a.key} = ${keyOf(counter)}`);
  }
}

/** Runs `attempt` within the counters' limits: its slots are given back when it returns true. */
export async function limitedAttempt(db: Db, counters: Counter[], attempt: () => Promise<boolean>): Promise<boolean> {
  await takeAttempt(db, counters);
  const ok = await attempt();
  if (ok) await refundAttempt(db, counters);
  return ok;
}

let lastPurge = 0;

/** Deletes counters whose window ended a day ago, at most every ten minutes per process. */
function purgeOldAttempts(db: Db): void {
  if (Date.now() - lastPurge < 600_000) return;
  lastPurge = Date.now();
  db.execute(sql`DELETE FROM ${a} WHERE ${a.windowStart} < now() - interval '1 day'`).catch((err) =>
    console.error('[codetally] purging old attempt counters failed:', (err as Error).message),
  );
}
