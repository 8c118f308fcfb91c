import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

// The types the database modules share (client.ts, changes.ts, services.ts), in a module of their
// own so that none of those imports another for a type. Code takes `Db` from client.ts.

/** The database, or a transaction on it: every query takes one of these first. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A user id (or a cache tag, which no user id matches), or null: anything may have changed (forget all). */
export type ChangeListener = (userId: string | null) => void;

export interface UserChanges {
  /** True while changes made by every process are received; a cache must not serve otherwise. */
  readonly live: boolean;
  /** True when other processes may make changes: a cache must ask `heard()` before it serves. */
  readonly shared: boolean;
  /**
   * Resolves once every change committed before the call has been received: true, or false when
   * that cannot be known (not listening). Round trips in flight are shared by the callers that
   * came before they were sent.
   */
  heard(): Promise<boolean>;
  subscribe(listener: ChangeListener): void;
  /** Tells this process at once and the others before resolving. Call after the change committed. */
  announce(userIds: string[]): Promise<void>;
  close(): Promise<void>;
}
