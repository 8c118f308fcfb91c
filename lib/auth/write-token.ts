import { writeLimits } from '../config';
import { getDb, type Db } from '../db/client';
import { errorResponse } from '../http/problem';
import { assertWithinLimit, knownRefusal, rateLimitState, type Budgeted, type CountedRow, type RateLimitState, type WriteLimits } from '../http/rate-limit';
import { authenticateHash, tokenHashOf, unauthorized, withRate } from './bearer';
import { cachedPrincipal, forgetPrincipal, type Principal } from './principal';

// The auth wrapper of the write routes (sync and activities): tokens with the `sync` scope, counted
// against the write budgets of the token and its user.
//
// A token whose principal this process already knows skips the lookup: the request's own write
// statement checks that the token is still live and its user's timezone unchanged, and counts
// the request (lib/ingest/store.ts), so a write costs one statement. That check comes back as an
// Admission's settlement. A request that writes nothing (every bucket refused) is checked and
// counted here afterwards, and a token this process does not know is looked up and counted
// first, as any other route's is. A token (or user) this process refused for its budget in the
// current window is refused again at once, before the body is read (knownRefusal).

export interface WriteContext extends Principal {
  request: Request;
  db: Db;
  /** Present when the write statement is to check the token and count the request. */
  admission?: Admission;
}

/** What the write statement is asked to check and count. */
export interface Admit {
  tokenId: string;
  timeZone: string;
  /** Writes a minute, per token and per user; 0: not counted. */
  limits: WriteLimits;
}

/** What the write statement found: the user's timezone (null: the token is revoked) and the counts. */
export interface AdmitResult extends CountedRow {
  timeZone: string | null;
}

/**
 * How the write statement's check came out. `admitted`: the rows were written and the request
 * counted. `timezone_changed`: the user moved to another timezone since this process cached it;
 * nothing was written or counted, and the batch must be read again in the new zone.
 * A revoked token (401) and a request past its limit (429) are thrown: nothing was written.
 */
export type Settlement = { outcome: 'admitted' } | { outcome: 'timezone_changed'; timeZone: string };

export class Admission {
  /** True once a write statement checked the token (and counted the request). */
  settled = false;
  rate?: RateLimitState;

  constructor(
    private readonly who: Required<Budgeted>,
    public admit: Admit,
  ) {}

  settle(found: AdmitResult): Settlement {
    if (found.timeZone !== null && found.timeZone !== this.admit.timeZone) {
      forgetPrincipal(this.who.tokenHash);
      this.admit = { ...this.admit, timeZone: found.timeZone };
      return { outcome: 'timezone_changed', timeZone: found.timeZone };
    }
    this.settled = true;
    if (found.timeZone === null) {
      forgetPrincipal(this.who.tokenHash);
      throw unauthorized('The token is unknown or revoked.', 'invalid_token');
    }
    this.rate = rateLimitState(this.admit.limits, found);
    assertWithinLimit(this.rate, this.who);
    return { outcome: 'admitted' };
  }
}

/** Throws the 429 of a token (or its user, when `known`) this process already refused in this window. */
export function refuseKnownOverBudget(tokenHash: string, known: Principal | undefined): void {
  const refusal = knownRefusal({ tokenHash, userId: known?.user.id }, writeLimits());
  if (refusal) throw refusal;
}

/** A write route: `handler` stores what the request carries; whatever it throws becomes a problem+json answer. */
export function withWriteToken(handler: (ctx: WriteContext) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    let rate: RateLimitState | undefined;
    try {
      const tokenHash = tokenHashOf(request);
      const db = await getDb();
      const known = await cachedPrincipal(db, tokenHash);
      refuseKnownOverBudget(tokenHash, known);
      if (known?.token.scopes.includes('sync')) return await admittedInStatement(db, tokenHash, known, request, handler);
      const found = await authenticateHash(db, tokenHash, 'sync', writeLimits());
      rate = found.rate;
      assertWithinLimit(rate, { tokenHash, userId: found.principal.user.id });
      return withRate(await handler({ ...found.principal, request, db }), rate);
    } catch (err) {
      return withRate(errorResponse(err), rate);
    }
  };
}

/**
 * The handler runs at once with an Admission for its write statement. If it wrote nothing, the
 * token is checked and the request counted afterwards, and a revoked token or a request past the
 * limit gets 401 or 429 instead of the handler's answer (which then changed nothing). `answer`
 * turns what the handler throws into a response (the WakaTime routes answer in their own shape).
 */
export async function admittedInStatement(
  db: Db,
  tokenHash: string,
  principal: Principal,
  request: Request,
  handler: (ctx: WriteContext) => Promise<Response>,
  answer: (err: unknown) => Response | Promise<Response> = errorResponse,
): Promise<Response> {
  const who = { tokenHash, userId: principal.user.id };
  const admission = new Admission(who, { tokenId: principal.token.id, timeZone: principal.user.timezone, limits: writeLimits() });
  let response: Response;
  try {
    response = await handler({ ...principal, request, db, admission });
  } catch (err) {
    response = await answer(err);
  }
  if (!admission.settled) {
    const { rate } = await authenticateHash(db, tokenHash, 'sync', admission.admit.limits);
    admission.rate = rate;
    assertWithinLimit(rate, who);
  }
  return withRate(response, admission.rate);
}
