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
  /**
   * PostgreSQL only: tells `listener` of each change with the primary's WAL position after its
   * commit (null while not yet known: at once in the process that made it), for the replicas.
   */
  watchPositions?(listener: PositionListener): void;
  close(): Promise<void>;
}

/** Users (and cache tags) changed at WAL position `lsn` (`16/B374D848`), or null: not yet known. */
export type PositionListener = (ids: string[], lsn: string | null) => void;

/** What a read is about: one user's public figures, or the site-wide ones (lib/db/replicas.ts). */
export type ReadScope = { user: string } | 'site';

/** A replica's state as GET /health shows it. */
export interface ReplicaState {
  ok: boolean;
  lag_seconds: number | null;
}

/** The streaming replicas public reads may use (lib/db/replicas.ts). */
export interface ReplicaReads {
  /** A replica that may serve `scope` now, or undefined: then the primary answers. */
  choose(scope: ReadScope): Promise<{ db: Db } | undefined>;
  /** A read on it failed: it is left out until a poll finds it well. */
  failed(replica: { db: Db }, err: unknown): void;
  states(): ReplicaState[];
  close(): Promise<void>;
}
