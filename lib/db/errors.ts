import { createHash } from 'node:crypto';

// What a failed statement may tell the rest of the service: which statement, and the database's
// code for what went wrong. Never its parameters, nor the database's message, which often quotes
// them ("invalid input syntax for type uuid: ..."): users' data stays out of the logs.

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

/** `#<8 hex> "<first words>"`: enough to find the statement in the code, nothing from a request. */
export function statementName(text: string): string {
  const words = text.replace(/\s+/g, ' ').trim();
  const fingerprint = createHash('sha1').update(text).digest('hex').slice(0, 8);
  return `#${fingerprint} "${words.length > 72 ? `${words.slice(0, 72)}…` : words}"`;
}

/** A driver's or drizzle's error for a statement, as a QueryFailed (already one: unchanged). */
export function queryFailed(err: unknown, text: string): QueryFailed {
  return err instanceof QueryFailed ? err : new QueryFailed(statementName(text), errorCode(err));
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

interface PreparedQuery {
  queryWithCache(text: string, params: unknown[], run: () => Promise<unknown>): Promise<unknown>;
}
interface Session {
  prepareQuery(...args: unknown[]): PreparedQuery;
}
const guarded = new WeakSet<object>();

/**
 * Makes every statement of this drizzle database (and of its transactions, which use sessions of
 * the same class) fail with a QueryFailed. drizzle's own error puts the statement's parameters in
 * its message, and whoever logs it (our error mapper, Auth.js, Next rendering a page) would write
 * users' data to the log. Every statement passes through the session's prepareQuery and then
 * the prepared query's queryWithCache, so the conversion is made once, there.
 */
export function guardQueryErrors(db: object): void {
  const proto = Object.getPrototypeOf((db as { session: Session }).session) as Session;
  if (guarded.has(proto)) return;
  guarded.add(proto);
  const prepare = proto.prepareQuery;
  proto.prepareQuery = function (this: Session, ...args: unknown[]) {
    const prepared = prepare.apply(this, args);
    const run = prepared.queryWithCache;
    prepared.queryWithCache = function (this: PreparedQuery, text, params, query) {
      return run.call(this, text, params, query).catch((err: unknown) => {
        throw queryFailed(err, text);
      });
    };
    return prepared;
  };
}
