import { ApiError } from '../http/problem';
import { assertWithinLimit, rateLimitState, type CountedRow, type RateLimitState, type WriteLimits } from '../http/rate-limit';
import { forgetPrincipal } from './principal';

// A rate-limited write whose token's principal this process already knows skips the lookup:
// its write statement checks that the token is still live and its user's timezone unchanged,
// and counts the request (lib/ingest/store.ts), so a write costs one statement. A request that
// writes nothing is checked and counted by the wrapper afterwards, as a first request is.

export const unauthorized = (detail: string, error?: string) =>
  new ApiError('unauthorized', detail, {
    headers: { 'www-authenticate': error ? `Bearer realm="codetally", error="${error}"` : 'Bearer realm="codetally"' },
  });

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

export class Admission {
  /** True once a write statement checked the token (and counted the request). */
  settled = false;
  rate?: RateLimitState;

  constructor(
    private readonly tokenHash: string,
    public admit: Admit,
  ) {}

  /**
   * Reads what the write statement found. Returns the user's new timezone when it changed (the
   * batch must be read again with it, nothing was written or counted); throws 401 for a revoked
   * token and 429 past the limit (nothing was written).
   */
  settle(found: AdmitResult): string | null {
    if (found.timeZone !== null && found.timeZone !== this.admit.timeZone) {
      forgetPrincipal(this.tokenHash);
      this.admit = { ...this.admit, timeZone: found.timeZone };
      return found.timeZone;
    }
    this.settled = true;
    if (found.timeZone === null) {
      forgetPrincipal(this.tokenHash);
      throw unauthorized('The token is unknown or revoked.', 'invalid_token');
    }
    this.rate = rateLimitState(this.admit.limits, found);
    assertWithinLimit(this.rate);
    return null;
  }
}
