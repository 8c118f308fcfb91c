import { createHash } from 'node:crypto';
import { countStatementFailure } from '../metrics/tally';

// What a failed statement may tell the rest of the service: which statement, and the database's
// code for what went wrong. Never its parameters, nor the database's message, which often quotes
// them ("invalid input syntax for type uuid: ..."): users' data stays out of the logs. Drivers'
// errors become QueryFailed where they leave the driver (the PostgreSQL pool's in
// lib/db/deadline.ts, the embedded database's in lib/db/embedded-client.ts), before drizzle wraps them in its
// DrizzleQueryError, which names the statement (patches/drizzle-orm+0.45.4.patch keeps the
// parameters out of it).

/** A statement that failed: its name and SQLSTATE (or the driver's code), nothing of its data. */
export class QueryFailed extends Error {
  override readonly name = 'QueryFailed';

  constructor(
    /** A short name of the statement: a fingerprint and its first words (the text, never a value). */
    readonly statement: string,
    /** SQLSTATE, or the driver's code for a connection failure (ECONNREFUSED, CONNECTION_CLOSED...). */
    readonly code: string | undefined,
  ) {
    super(`statement ${statement} failed${code ? ` (${code})` : ''}`);
  }
}

/** The first code on an error or its causes. */
export function errorCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string') return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/**
 * One line for a log: the QueryFailed among `err` and its causes (which statement, which code),
 * else `err`'s message. By name: Next's bundles hold several copies of this module.
 */
export function failureLine(err: unknown): string {
  for (let e = err as { name?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.name === 'QueryFailed' && typeof e.message === 'string') return e.message;
    e = e.cause as typeof e;
  }
  return (err as Error)?.message ?? String(err);
}

/** `#<8 hex> "<first words>"`: enough to find the statement in the code, nothing from a request. */
export function statementName(text: string): string {
  const words = text.replace(/\s+/g, ' ').trim();
  const fingerprint = createHash('sha1').update(text).digest('hex').slice(0, 8);
  return `#${fingerprint} "${words.length > 72 ? `${words.slice(0, 72)}…` : words}"`;
}

/** A driver's or drizzle's error for a statement, as a QueryFailed (already one: unchanged). */
export function queryFailed(err: unknown, text: string): QueryFailed {
  if (err instanceof QueryFailed) return err;
  const failed = new QueryFailed(statementName(text), errorCode(err));
  countStatementFailure(failed.code);
  return failed;
}

// PostgreSQL connection-exception classes and shutdown codes, and the socket-level failures
// postgres.js reports: all mean "the database did not answer", never "the request was wrong".
// 57014 is a statement cancelled by statement_timeout and 25P03 a transaction that sat idle too
// long: the database was too slow or stuck, and nothing of the statement was kept.
const unavailableSqlStates = /^(08|57P0[1-3]|53300|57014|25P03)/;
const unavailableErrnos = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // The service's own bound on a statement or transaction passed (lib/db/deadline.ts).
  'DEADLINE_EXCEEDED',
]);

// A statement PostgreSQL rolled back to let a conflicting one through (deadlock, serialization
// failure, lock not available within lock_timeout): nothing was written and the same request may
// simply be sent again.
const transientSqlStates = /^(40001|40P01|55P03)$/;

/** Whether any cause of `err` carries a code that `matches`. */
function hasCode(err: unknown, matches: (code: string) => boolean): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && matches(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  return hasCode(err, (code) => unavailableErrnos.has(code) || unavailableSqlStates.test(code));
}

export function isTransientConflict(err: unknown): boolean {
  return hasCode(err, (code) => transientSqlStates.test(code));
}

/** A unique constraint refused the row (23505): the caller says which value was taken. */
export function isUniqueViolation(err: unknown): boolean {
  return hasCode(err, (code) => code === '23505');
}

/**
 * Runs `work` in a driver's transaction or savepoint (`open` starts it and hands `work` its
 * client). What `work` throws comes back as it is (its statements' errors are QueryFailed
 * already); a failure of the transaction's own statements (BEGIN, COMMIT, ROLLBACK, SAVEPOINT)
 * comes back as a QueryFailed named `text`.
 */
export async function inTransaction<C, R>(open: (work: (client: C) => Promise<R>) => Promise<R>, work: (client: C) => R | Promise<R>, text: string): Promise<R> {
  let thrown: { error: unknown } | undefined;
  try {
    return await open(async (client) => {
      try {
        return await work(client);
      } catch (error) {
        thrown = { error };
        throw error;
      }
    });
  } catch (err) {
    throw thrown && thrown.error === err ? err : queryFailed(err, text);
  }
}
