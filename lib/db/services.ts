import type { SQL } from 'drizzle-orm';
import type { Db, ReplicaReads, UserChanges } from './types';

// What a database opened by openDb carries besides drizzle's Db: its change feed, on the PostgreSQL
// pool a runner of prepared statements, and the objects other modules make once per database
// (per-database singletons: the sharing owner cache, the entity digest key). A transaction's Db has
// none of them: nothing is cached or prepared inside a transaction. The registry lives on
// globalThis because Next's bundles hold several copies of this module, and every copy must find
// what the one that opened it registered.

export interface DbServices {
  changes: UserChanges;
  /** Runs a statement as a prepared statement (PostgreSQL pool only). */
  prepared?: <T>(query: SQL) => Promise<T[]>;
  /** The streaming replicas public reads may use (DATABASE_REPLICA_URL, lib/db/replicas.ts). */
  replicas?: ReplicaReads;
}

interface Entry extends DbServices {
  singletons: Map<string, unknown>;
}

const slot = globalThis as typeof globalThis & { __codetallyDbServices?: WeakMap<Db, Entry> };
const registry = (slot.__codetallyDbServices ??= new WeakMap());

export function registerServices(db: Db, services: DbServices): void {
  registry.set(db, { ...services, singletons: new Map() });
}

/** The services of a database handle; undefined for a transaction. */
export function servicesOf(db: Db): DbServices | undefined {
  return registry.get(db);
}

/** One object per database, made on first use and shared by every module copy; undefined for a transaction. */
export function perDatabase<T>(db: Db, name: string, make: (services: DbServices) => T): T | undefined {
  const entry = registry.get(db);
  if (!entry) return undefined;
  if (!entry.singletons.has(name)) entry.singletons.set(name, make(entry));
  return entry.singletons.get(name) as T;
}
