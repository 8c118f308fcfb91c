import type { PGlite, Transaction } from '@electric-sql/pglite';
import { measureStatement, transactionAsked } from '../metrics/registry';
import { inTransaction, queryFailed } from './errors';

/**
 * The embedded database's client, whose statements fail with a QueryFailed (PGlite's errors carry
 * the statement's parameters and the database's message), as drizzle's PGlite session uses it:
 * `query`, `exec`, and `transaction`, whose client is of the same kind.
 */
export function embeddedClient<T extends PGlite | Transaction>(client: T): T {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      // PGlite's methods reach its private state through `this`: always the client itself.
      const method = (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args);
      if (prop === 'query' || prop === 'exec') {
        return (text: string, ...rest: unknown[]) =>
          measureStatement(method(text, ...rest) as Promise<unknown>).catch((err: unknown) => {
            throw queryFailed(err, text);
          });
      }
      if (prop === 'transaction') {
        return (callback: (tx: Transaction) => Promise<unknown>) => {
          // The wait measured is for the database's one session, which a transaction holds whole.
          const measure = transactionAsked();
          const run = (tx: Transaction) => (measure.began(), callback(embeddedClient(tx)));
          return inTransaction((work: (tx: Transaction) => Promise<unknown>) => method(work) as Promise<unknown>, run, 'BEGIN … COMMIT').finally(measure.ended);
        };
      }
      return method;
    },
  });
}
