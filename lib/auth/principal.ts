import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { preparedRows, type Db } from '../db/client';
import { col, selected } from '../db/names';
import { apiTokens, users } from '../db/schema';
import { countCtes, countedColumns, rateLimitState, type CountedRow, type Limits, type RateLimitState } from '../http/rate-limit';
import { cacheTally } from '../metrics/tally';
import { anyOf, type Scope, type ScopeRule } from './tokens';

export interface Principal {
  user: { id: string; handle: string; timezone: string };
  token: { id: string; scopes: Scope[] };
}

const lastUsedWriteIntervalMs = 60_000;
const MAX_TOKENS_KEPT = 10_000;
// Per process, when each token's last_used_at was last written: most requests skip the write
// (a token forgotten past the bound is written again; the UPDATE's WHERE keeps that rare).
const lastUsedWritten = new LRUCache<string, number>({ max: MAX_TOKENS_KEPT });

// Per process, the principals of tokens seen lately, so that a write can skip the lookup: its own
// statement checks again that the token is live and the timezone unchanged (lib/ingest/store.ts),
// so an entry that went stale is never trusted. The least recently used go first past the bound.
const cached = new LRUCache<string, { principal: Principal; lastUsedAt: string | Date | null }>({ max: MAX_TOKENS_KEPT });
const tally = cacheTally('principals');

/** The principal last found for this token hash in this process, if any (not proof that it is live). */
export async function cachedPrincipal(db: Db, tokenHash: string): Promise<Principal | undefined> {
  const entry = cached.get(tokenHash);
  if (entry) tally.hit++;
  else tally.miss++;
  if (entry) await touchToken(db, entry.principal.token.id, entry.lastUsedAt);
  return entry?.principal;
}

/** The principal last found for this token hash in this process, if any, asking nothing (for knownRefusal). */
export function peekPrincipal(tokenHash: string): Principal | undefined {
  return cached.peek(tokenHash)?.principal;
}

/** Forgets a token's principal: it was found revoked, or its user's timezone changed. */
export function forgetPrincipal(tokenHash: string): void {
  cached.delete(tokenHash);
}

/** SQL, a whole WHERE condition: the token row holds one of the rule's scopes (for one, `$1 = ANY(scopes)`). */
const holdsAny = (rule: ScopeRule) => sql.join(anyOf(rule).map((scope) => sql`${scope} = ANY(scopes)`), sql` OR `);

interface PrincipalRow {
  token_id: string;
  scopes: Scope[];
  last_used_at: string | Date | null;
  user_id: string;
  handle: string;
  timezone: string;
  stats_version: number;
}

/** A found token: its principal, the request's count (when counted), and the user's data version. */
export interface Found {
  principal: Principal;
  rate?: RateLimitState;
  /**
   * The user's data version (users.stats_version: every change of their figures moves it) as
   * this statement read it, so after every write answered before: what the owner's cached
   * figures key on (lib/stats/own-cache.ts).
   */
  statsVersion: number;
}

/**
 * The live (not revoked) token with this hash and its user, or null. With `count`, the same
 * statement also counts the request against the budgets of `count.limits`' kind, the token's and
 * its user's (when the token has the scope), so authenticating a request costs one round trip.
 */
export async function findPrincipal(
  db: Db,
  tokenHash: string,
  count?: { scope: ScopeRule; limits: Limits },
): Promise<Found | null> {
  const [t, u] = [apiTokens, users];
  const token = sql`
    SELECT ${t.id} AS token_id, ${selected(t.scopes, t.lastUsedAt)}, ${u.id} AS user_id, ${selected(u.handle, u.timezone)}, ${u.statsVersion}::float8 AS stats_version
    FROM ${t} JOIN ${u} ON ${u.id} = ${t.userId}
    WHERE ${t.hash} = ${tokenHash} AND ${t.revokedAt} IS NULL`;
  const [row] = await preparedRows<PrincipalRow & Partial<CountedRow>>(
    db,
    count
      ? sql`WITH token AS (${token}),
              ${countCtes(sql`SELECT token_id, user_id FROM token WHERE ${holdsAny(count.scope)}`, count.limits)}
            SELECT token.*, ${countedColumns} FROM token`
      : sql`SELECT * FROM (${token}) AS token`,
  );
  if (!row) {
    cached.delete(tokenHash);
    return null;
  }
  await touchToken(db, row.token_id, row.last_used_at);
  const principal = {
    user: { id: row.user_id, handle: row.handle, timezone: row.timezone },
    token: { id: row.token_id, scopes: row.scopes },
  };
  cached.set(tokenHash, { principal, lastUsedAt: row.last_used_at });
  return {
    principal,
    rate: count && rateLimitState(count.limits, row as CountedRow),
    statsVersion: Number(row.stats_version),
  };
}

/** Records last use at most once a minute per token, across processes (the WHERE guards it). */
async function touchToken(db: Db, tokenId: string, lastUsedAt: string | Date | null): Promise<void> {
  const now = Date.now();
  const stored = lastUsedAt ? new Date(lastUsedAt).getTime() : 0;
  const seen = Math.max(stored, lastUsedWritten.get(tokenId) ?? 0);
  if (now - seen < lastUsedWriteIntervalMs) return;
  lastUsedWritten.set(tokenId, now);
  await db.execute(
    sql`UPDATE ${apiTokens} SET ${col(apiTokens.lastUsedAt)} = now()
        WHERE ${apiTokens.id} = ${tokenId} AND ${apiTokens.revokedAt} IS NULL
          AND (${apiTokens.lastUsedAt} IS NULL OR ${apiTokens.lastUsedAt} < now() - interval '1 minute')`,
  );
}
