import { AsyncLocalStorage } from 'node:async_hooks';
import type postgres from 'postgres';
import { measureStatement, transactionAsked } from '../metrics/registry';
import { inTransaction, queryFailed } from './errors';

// Every wait on PostgreSQL has a bound kept by the service itself, not only by PostgreSQL: a
// crashed, restarting, frozen or unreachable database, or a pooler queueing the request, cannot
// answer a statement_timeout, and a request waiting on it would wait without end. Each statement
// the pool runs (the wait for a connection included) ends by its deadline: at the deadline it is
// cancelled (taken out of the pool's queue, or a cancel request sent to the server) and its
// caller gets DeadlineExceeded, which answers 503 with Retry-After. A request's work runs under
// one deadline (`withinDeadline`, lib/http/methods.ts), which no statement of it outlives.

/** PostgreSQL's own limit on one statement (the role's statement_timeout, lib/db/settings.ts). */
export const STATEMENT_TIMEOUT_MS = 15_000;
/** The longest a statement may take seen from the service: the server's limit and a round trip. */
export const STATEMENT_BOUND_MS = STATEMENT_TIMEOUT_MS + 2_000;
/**
 * The longest a request's work may take once its body has arrived (docs/security.md, "Every request ends within a bound"): its answer,
 * or a 503 with Retry-After. Every statement of the request ends by then.
 */
export const REQUEST_BOUND_SECONDS = 20;
/** A transaction outside any request (background work) ends within this. */
const BACKGROUND_TRANSACTION_MS = 5 * 60_000;

/** The database did not answer within the bound: nothing of the statement is to be relied on. */
export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
  readonly code = 'DEADLINE_EXCEEDED';

  constructor(what: string) {
    super(`${what} did not finish within its deadline`);
  }
}

// The deadline of the work in progress (epoch ms). On globalThis: Next's bundles hold several
// copies of this module, and the route's copy and the database client's must share one store.
const slot = globalThis as typeof globalThis & { __codetallyDeadlines?: AsyncLocalStorage<number> };
const deadlines = (slot.__codetallyDeadlines ??= new AsyncLocalStorage<number>());

// The bound of each statement of the work in progress, where it is not STATEMENT_BOUND_MS (see
// withStatementBound); on globalThis for the same reason.
const boundSlot = globalThis as typeof globalThis & { __codetallyStatementBounds?: AsyncLocalStorage<number> };
const statementBounds = (boundSlot.__codetallyStatementBounds ??= new AsyncLocalStorage<number>());

/**
 * Runs `work` with each of its statements bounded by `ms` instead of STATEMENT_BOUND_MS (a
 * deadline still cuts them): for background work whose transaction raises PostgreSQL's own
 * statement_timeout (SET LOCAL) to `ms` less a round trip, such as a leaderboard rebuild.
 */
export function withStatementBound<T>(ms: number, work: () => T): T {
  return statementBounds.run(ms, work);
}

/** Milliseconds left before the current work's deadline, capped at `cap`. */
function left(cap: number): number {
  const deadline = deadlines.getStore();
  return Math.max(0, deadline === undefined ? cap : Math.min(cap, deadline - Date.now()));
}

/** `work`, or DeadlineExceeded after `ms` (then `onLate` is called); the timer never outlives it. */
function race<T>(work: Promise<T>, ms: number, what: string, onLate?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new DeadlineExceeded(what));
      onLate?.();
    }, ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Runs `work` under a deadline `ms` from now (or the enclosing one, if earlier): every statement
 * it runs ends by then, and the returned promise `grace` ms later at the latest (time for the
 * caller of a late statement to answer it its own way).
 */
export function withinDeadline<T>(ms: number, work: () => Promise<T>, grace = 0): Promise<T> {
  const outer = deadlines.getStore();
  const deadline = Math.min(Date.now() + ms, outer ?? Infinity);
  return race(deadlines.run(deadline, work), deadline - Date.now() + grace, 'the request');
}

/**
 * Throws DeadlineExceeded when the current work's deadline has passed: for work of many short
 * statements (lib/db/keyset.ts), whose statements the embedded database cannot cut, so that it
 * stops at the next one rather than running on after its request was answered 503.
 */
export function checkDeadline(what: string): void {
  const deadline = deadlines.getStore();
  if (deadline !== undefined && Date.now() >= deadline) throw new DeadlineExceeded(what);
}

/**
 * Runs `work` outside any request's deadline (statements keep their own bound): for work shared by
 * many requests, such as a connection's queue of announcements, that no one request's end may cut.
 */
export function detached<T>(work: () => T): T {
  return deadlines.exit(work);
}

type Pending = postgres.PendingQuery<postgres.Row[]>;

/**
 * One statement under its deadline (unless `deadline` is false), failing with a QueryFailed.
 * postgres.js starts a query when it is first awaited (after the caller's modifiers such as
 * `.values()`), so the deadline starts then too, and covers the wait for a connection. The
 * query's own chainable methods keep returning this wrapper.
 */
function bounded(query: Pending, text: string, deadline: boolean): Pending {
  let raced: Promise<unknown> | undefined;
  const run = () =>
    (raced ??= (() => {
      let settled = false;
      // Counted in flight and timed until PostgreSQL answers (a cancelled one too: it holds its
      // connection until then).
      const done = measureStatement(query).then(
        (value) => ((settled = true), value),
        (err: unknown) => {
          settled = true;
          throw err;
        },
      );
      const limited = deadline
        ? race(done, left(statementBounds.getStore() ?? STATEMENT_BOUND_MS), 'a statement', () => {
            if (!settled) void Promise.resolve(query.cancel()).catch(() => {});
          })
        : done;
      return limited.catch((err: unknown) => {
        throw queryFailed(err, text);
      });
    })());
  const wrapper: Pending = new Proxy(query, {
    get(target, prop) {
      if (prop === 'then') return (onDone?: (v: unknown) => unknown, onFailed?: (e: unknown) => unknown) => run().then(onDone, onFailed);
      if (prop === 'catch') return (onFailed?: (e: unknown) => unknown) => run().catch(onFailed);
      if (prop === 'finally') return (onEnd?: () => void) => run().finally(onEnd);
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        return result === target ? wrapper : result;
      };
    },
  });
  return wrapper;
}

type TransactionCallback = (sql: postgres.TransactionSql) => unknown;

/**
 * A postgres.js client whose statements (`unsafe`, which drizzle and runPrepared use) fail with a
 * QueryFailed (lib/db/errors.ts), as do its transactions' own statements (`begin`, and `savepoint`
 * for drizzle's nested transactions), whose clients are of the same kind. Its statements and
 * transactions end by their deadline, unless `deadlines` is false (migrations). A transaction
 * that outlives it is abandoned: its caller gets DeadlineExceeded, and if PostgreSQL only now
 * gives it a connection, it rolls back before its first statement.
 */
export function boundedClient<T extends postgres.Sql | postgres.TransactionSql>(client: T, options: { deadlines?: boolean } = {}): T {
  const deadlines = options.deadlines ?? true;
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'unsafe') {
        return (...args: Parameters<T['unsafe']>) => bounded((target.unsafe as (...a: unknown[]) => Pending)(...args), args[0], deadlines);
      }
      if (prop === 'begin' && 'begin' in target) {
        return (first: string | TransactionCallback, second?: TransactionCallback) => {
          const [mode, callback] = typeof first === 'string' ? [first, second!] : ['', first];
          let abandoned = false;
          const measure = transactionAsked();
          const work = inTransaction(
            (run: TransactionCallback) => (target as postgres.Sql).begin(mode, run),
            (sql: postgres.TransactionSql) => {
              measure.began();
              if (abandoned) throw new DeadlineExceeded('a transaction');
              return callback(boundedClient(sql, options));
            },
            'BEGIN … COMMIT',
          ).finally(measure.ended);
          return deadlines ? race(work, left(BACKGROUND_TRANSACTION_MS), 'a transaction', () => (abandoned = true)) : work;
        };
      }
      if (prop === 'savepoint' && 'savepoint' in target) {
        return (first: string | TransactionCallback, second?: TransactionCallback) => {
          const [name, callback] = typeof first === 'string' ? [first, second!] : [undefined, first];
          return inTransaction(
            (run: TransactionCallback) => (name === undefined ? target.savepoint(run) : target.savepoint(name, run)),
            (sql: postgres.TransactionSql) => callback(boundedClient(sql, options)),
            'SAVEPOINT … RELEASE',
          );
        };
      }
      return Reflect.get(target, prop, target);
    },
  });
}
