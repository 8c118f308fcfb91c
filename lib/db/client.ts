import { PGlite } from '@electric-sql/pglite';
import { fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { config, poolSizeOf } from '../config';
import { boundedClient } from './deadline';
import { embeddedChanges, postgresChanges, unheardChanges } from './changes';
import type postgres from 'postgres';
import { lockDataDir } from './embedded-lock';
import { metrics } from '../metrics/registry';
import { postgresClient } from './postgres-url';
import { embeddedClient } from './embedded-client';
import { queryFailed } from './errors';
import * as schema from './schema';
import { ReplicaSet } from './replicas';
import { registerServices, servicesOf } from './services';
import type { Db, UserChanges } from './types';

export type { Db } from './types';

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Which users changed, received from every process on this database. */
  changes: UserChanges;
  close(): Promise<void>;
}

export interface DbTarget {
  databaseUrl?: string;
  dataDir: string;
  /**
   * `transaction`: DATABASE_URL goes through a pooler in transaction mode (PgBouncer, Supavisor,
   * Neon's pooled endpoint), which keeps neither prepared statements nor LISTEN: statements run
   * unprepared and no change feed is received, so caches read the user's version on every request.
   */
  pooler?: 'session' | 'transaction';
  /** Streaming replicas of DATABASE_URL for public reads (lib/db/replicas.ts); PostgreSQL only. */
  replicaUrls?: string[];
  /** A replica further behind than this is left out (REPLICA_MAX_LAG_SECONDS). */
  replicaMaxLagSeconds?: number;
}

/**
 * Opens the embedded database (no URL) or a PostgreSQL pool, behind the same drizzle schema.
 * The pool holds `poolSize` connections unless the URL says otherwise (`?max=N`). Its statements
 * and transactions end by their deadlines (lib/db/deadline.ts), and its sessions carry the
 * settings of the service's role (lib/db/settings.ts). `migrations`: one connection whatever the
 * URL says (migrations hold a session lock), no deadlines, and none of the role's limits. Either
 * database's failed statements are QueryFailed (lib/db/errors.ts).
 */
export async function openDb(target: DbTarget, poolSize = 10, options: { migrations?: boolean } = {}): Promise<DbHandle> {
  if (target.databaseUrl) {
    const pooled = target.pooler === 'transaction';
    // Startup parameters beyond these (application_name is one every pooler passes on) would be
    // refused by PgBouncer: the session's settings are the role's.
    const max = options.migrations ? 1 : (poolSizeOf(target.databaseUrl) ?? poolSize);
    if (!options.migrations) metrics().poolConnections.set(max);
    const pool = postgresClient(target.databaseUrl, {
      max,
      prepare: !pooled,
      connect_timeout: 5,
      idle_timeout: 60,
      onnotice: () => {},
      connection: { application_name: 'codetally' },
    });
    const client = boundedClient(pool, { deadlines: !options.migrations });
    const db = drizzlePostgres(client, { schema }) as unknown as Db;
    if (options.migrations) {
      await db.execute(
        sql`SELECT set_config('statement_timeout', '0', false), set_config('lock_timeout', '0', false), set_config('idle_in_transaction_session_timeout', '0', false)`,
      );
    }
    const changes = pooled ? unheardChanges() : postgresChanges(target.databaseUrl);
    // Replicas need the change feed's positions; behind a transaction pooler there is no feed.
    const replicaUrls = options.migrations ? [] : (target.replicaUrls ?? []);
    if (replicaUrls.length > 0 && pooled) console.warn('[codetally] DATABASE_REPLICA_URL is not used with DATABASE_POOLER=transaction: without the change feed no replica can be known to have replayed a change');
    const replicas = replicaUrls.length > 0 && !pooled ? new ReplicaSet(replicaUrls, db, changes, target.replicaMaxLagSeconds ?? 10) : undefined;
    return withServices(
      {
        db,
        kind: 'postgres',
        changes,
        close: async () => {
          await replicas?.close();
          await pool.end({ timeout: 5 });
        },
      },
      pooled ? undefined : (query) => runPrepared(client, query),
      replicas,
    );
  }
  if (target.replicaUrls?.length) console.warn('[codetally] DATABASE_REPLICA_URL is ignored: the embedded database has no replicas (set DATABASE_URL to use PostgreSQL replicas)');
  metrics().poolConnections.set(1);
  const release = lockDataDir(target.dataDir);
  const client = await PGlite.create({ dataDir: target.dataDir }).catch((err) => {
    release();
    throw err;
  });
  const db = drizzlePglite(embeddedClient(client), { schema }) as unknown as Db;
  return withServices({
    db,
    kind: 'pglite',
    changes: embeddedChanges(),
    close: async () => {
      await client.close();
      release();
    },
  });
}

function withServices(handle: DbHandle, prepared?: <T>(query: SQL) => Promise<T[]>, replicas?: ReplicaSet): DbHandle {
  registerServices(handle.db, { changes: handle.changes, prepared, replicas });
  const close = handle.close;
  return {
    ...handle,
    close: async () => {
      await handle.changes.close();
      await close();
    },
  };
}

// One handle per process. Next bundles route code and instrumentation separately, so the
// handle lives on globalThis: two copies of this module must never open the data directory twice.
const slot = globalThis as typeof globalThis & { __codetallyDb?: Promise<DbHandle>; __codetallyDbOpen?: DbHandle };

export function dbHandle(): Promise<DbHandle> {
  slot.__codetallyDb ??= (() => {
    const cfg = config();
    const opening = openDb({
      databaseUrl: cfg.DATABASE_URL,
      dataDir: cfg.DATA_DIR,
      pooler: cfg.DATABASE_POOLER,
      replicaUrls: cfg.DATABASE_REPLICA_URL,
      replicaMaxLagSeconds: cfg.REPLICA_MAX_LAG_SECONDS,
    });
    opening.then(
      (handle) => {
        if (slot.__codetallyDb === opening) slot.__codetallyDbOpen = handle;
      },
      // A failed open (database down at boot) must not stick: the next request tries again.
      () => {
        slot.__codetallyDb = undefined;
      },
    );
    return opening;
  })();
  return slot.__codetallyDb;
}

export async function getDb(): Promise<Db> {
  return (await dbHandle()).db;
}

/** The database if it is open already, without a promise (for a cache hit's hot path). */
export function openedDb(): Db | undefined {
  return slot.__codetallyDbOpen?.db;
}

export async function closeDb(): Promise<void> {
  const pending = slot.__codetallyDb;
  slot.__codetallyDb = undefined;
  slot.__codetallyDbOpen = undefined;
  if (pending) await (await pending).close();
}

/** Runs raw SQL and returns its rows, whichever driver is underneath. */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

// drizzle sends raw SQL unnamed, so PostgreSQL parses and plans it on every run. The statements
// every write request runs (authentication, the write itself) keep one text whatever their
// parameters: on PostgreSQL they run as prepared statements, planned once per connection.
const dialect = new PgDialect();

/**
 * The text and values of the statements `compiled` made, which need no rendering again. On
 * globalThis, as the services registry (lib/db/services.ts): the copy of this module that compiled
 * a statement is often not the copy whose pool runs it, and a miss renders it again in drizzle.
 */
const renderedSlot = globalThis as typeof globalThis & { __codetallyRendered?: WeakMap<SQL, { sql: string; params: unknown[] }> };
const rendered = (renderedSlot.__codetallyRendered ??= new WeakMap());

/** Runs a statement on postgres.js as a prepared statement (for the benchmark's raw ceiling too). */
export async function runPrepared<T>(client: postgres.Sql, query: SQL): Promise<T[]> {
  const { sql: text, params } = rendered.get(query) ?? dialect.sqlToQuery(query);
  try {
    return (await client.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true })) as unknown as T[];
  } catch (err) {
    throw queryFailed(err, text);
  }
}

/**
 * A statement built once per variant: `build` composes it with `sql.placeholder(name)` where values
 * go, and each run fills them in. Composing a large statement from nested fragments is a real share
 * of a request's CPU in drizzle (docs/scaling.md); this keeps its text (split at its parameters)
 * and makes a flat statement of text and values per run. A variant (`key`, compared as JSON) is a
 * shape the statement takes, such as which CTEs it holds.
 */
export function compiled<V extends Record<string, unknown>, K = null>(build: (key: K) => SQL): (values: V, key?: K) => SQL {
  const variants = new Map<string, { sql: string; text: string[]; params: unknown[] }>();
  return (values, key = null as K) => {
    const id = JSON.stringify(key);
    let variant = variants.get(id);
    if (!variant) {
      const query = dialect.sqlToQuery(build(key));
      variant = { sql: query.sql, text: query.sql.split(/\$\d+/), params: query.params };
      if (variant.text.length !== variant.params.length + 1) throw new Error('a compiled statement must hold no $ but its parameters');
      variants.set(id, variant);
    }
    const { text, params } = variant;
    const filled = fillPlaceholders(params, values);
    const chunks: SQL[] = [sql.raw(text[0])];
    filled.forEach((value, i) => chunks.push(sql`${value}`, sql.raw(text[i + 1])));
    const statement = sql.join(chunks);
    // On the PostgreSQL pool (runPrepared) it runs as this text and these values as they are.
    rendered.set(statement, { sql: variant.sql, params: filled });
    return statement;
  };
}

/**
 * `rows`, for a statement whose text never changes (only its parameters): prepared on the
 * PostgreSQL pool; as `rows` on the embedded database and in transactions.
 */
export async function preparedRows<T>(db: Db, query: SQL): Promise<T[]> {
  const prepared = servicesOf(db)?.prepared;
  return prepared ? prepared<T>(query) : rows<T>(db, query);
}
