import { sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type postgres from 'postgres';
import { boundedClient } from './deadline';
import { errorCode } from './errors';
import { postgresClient } from './postgres-url';
import * as schema from './schema';
import { users } from './schema';
import { servicesOf } from './services';
import type { Db, ReadScope, ReplicaReads, ReplicaState, UserChanges } from './types';

// Public figure reads served by PostgreSQL's own streaming replicas (DATABASE_REPLICA_URL;
// decision 0035). A replica replays the primary's WAL some time after it commits, so a replica
// may serve a user only once it has replayed every change of what is public about that user this
// process knows of: each change announced on the change feed (lib/db/changes.ts) carries the
// primary's WAL position after its commit (`pg_current_wal_lsn()`), kept here as that user's fence;
// a read for the user goes to a replica whose replay position has passed it, else to the primary.
// A site-wide read needs the fence of every change that moved a site-wide listing (an announcement
// with a tag: the leaderboard, the profile list, a handle). Before choosing, a read asks the feed
// `heard()`: every change committed before it has then been received, fences included.
//
// Each replica's replay position is polled (every POLL_MS, with the primary's current position):
// its lag is how long ago the primary first had WAL the replica has not replayed yet (not
// `now() - pg_last_xact_replay_timestamp()`, which grows on an idle primary with nothing behind).
// A replica that lags past REPLICA_MAX_LAG_SECONDS, does not answer a poll in time, or failed a
// read is left out until a poll finds it caught up (the breaker); reads then go to the primary.

const POLL_MS = 200;
/** A poll that takes longer finds the replica not answering. */
const POLL_TIMEOUT_MS = 1000;
/** Connections a replica pool holds: replicas share the read load, the primary keeps its pool. */
const REPLICA_POOL = 4;
/** Fences kept at most; past it the oldest go and every read needs the highest of them (`floor`). */
const MAX_FENCES = 100_000;
/** Samples of the primary's position kept for the lag (ten minutes at POLL_MS). */
const MAX_SAMPLES = 3000;

/** A WAL position (`16/B374D848`) as a number. */
export function lsnOf(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** A fence not yet known: resolved to the primary's position at the first poll that starts after `since`. */
interface Pending {
  since: number;
}
type Fence = bigint | Pending;

interface Replica {
  /** Host and port, for logs: never the password. */
  name: string;
  pool: postgres.Sql;
  db: Db;
  /** The last replay position a poll read (only ever grows: replay never goes back). */
  replay: bigint | null;
  lagSeconds: number | null;
  ok: boolean;
  polling: boolean;
}

/** A user id (a tag is anything else); lib/ids has the same rule, which lib/db may not import. */
const isUuidLike = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** Where a URL points, for logs. */
function hostOf(url: string): string {
  const match = /^[a-z]+:\/\/(?:[^@/?]*@)?([^/?]*)/i.exec(url);
  return match?.[1] || 'replica';
}

export class ReplicaSet implements ReplicaReads {
  private readonly replicas: Replica[];
  private readonly fences = new Map<string, Fence>();
  private siteFence: Fence = 0n;
  /** Every read needs at least this: fences dropped for room, or everything after the feed was lost. */
  private floor: Fence = 0n;
  private samples: { at: number; lsn: bigint }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private next = 0;
  private closed = false;

  constructor(
    urls: string[],
    private readonly primary: Db,
    private readonly changes: UserChanges,
    private readonly maxLagSeconds: number,
  ) {
    this.replicas = urls.map((url) => {
      // No startup parameters beyond application_name (a pooler in front would refuse them).
      const pool = postgresClient(url, { max: REPLICA_POOL, connect_timeout: 2, idle_timeout: 60, onnotice: () => {}, connection: { application_name: 'codetally-replica' } });
      return { name: hostOf(url), pool, db: drizzlePostgres(boundedClient(pool), { schema }) as unknown as Db, replay: null, lagSeconds: null, ok: false, polling: false };
    });
    changes.subscribe((id) => {
      if (id === null) this.floor = { since: Date.now() }; // anything may have changed
    });
    changes.watchPositions?.((ids, lsn) => this.fence(ids, lsn));
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
    void this.poll();
  }

  /** Users (and tags) changed at `lsn` on the primary; null: not known yet (the next poll tells). */
  fence(ids: string[], lsn: string | null): void {
    const at: Fence = lsn === null ? { since: Date.now() } : lsnOf(lsn);
    let site = false;
    for (const id of ids) {
      if (isUuidLike(id)) this.fences.set(id.toLowerCase(), higher(this.fences.get(id.toLowerCase()), at));
      else site = true;
    }
    if (site) this.siteFence = higher(this.siteFence, at);
    if (this.fences.size > MAX_FENCES) {
      for (const [id, fence] of this.fences) {
        if (this.fences.size <= MAX_FENCES / 2) break;
        this.floor = higher(this.floor, fence);
        this.fences.delete(id);
      }
    }
  }

  /**
   * A replica that may serve `scope` now, or undefined (then the primary answers). Waits for the
   * change feed to have received every change committed before the call.
   */
  async choose(scope: ReadScope): Promise<Replica | undefined> {
    if (!this.replicas.some((r) => r.ok)) return undefined;
    if (!(await this.changes.heard())) return undefined;
    const fence = scope === 'site' ? this.siteFence : this.fences.get(scope.user.toLowerCase());
    const need = higher(this.floor, fence ?? 0n);
    if (typeof need !== 'bigint') return undefined;
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length];
      if (replica.ok && replica.replay !== null && replica.replay >= need) {
        this.next = (this.next + i + 1) % this.replicas.length;
        return replica;
      }
    }
    return undefined;
  }

  /** A read on `replica` failed: it is left out until a poll finds it well again. */
  failed(replica: { db: Db }, err: unknown): void {
    const r = this.replicas.find((x) => x.db === replica.db);
    if (!r) return;
    this.down(r, err);
  }

  private down(replica: Replica, err: unknown): void {
    if (replica.ok) console.error(`[codetally] replica ${replica.name} failed a read (${errorCode(err) ?? (err as Error)?.message}); reading the primary until it answers again`);
    replica.ok = false;
  }

  states(): ReplicaState[] {
    return this.replicas.map((r) => ({ ok: r.ok, lag_seconds: r.lagSeconds === null ? null : Math.round(r.lagSeconds * 10) / 10 }));
  }

  private async poll(): Promise<void> {
    if (this.closed) return;
    const started = Date.now();
    try {
      // The primary is a PostgreSQL pool: drizzle's postgres.js driver answers rows as an array.
      const [row] = (await timed(this.primary.execute(sql`SELECT pg_current_wal_lsn()::text AS lsn`))) as unknown as { lsn: string }[];
      this.sample(started, lsnOf(row.lsn));
    } catch {
      // The primary did not answer: the replicas are measured against the last position known.
    }
    await Promise.all(this.replicas.map((r) => this.pollReplica(r)));
    this.prune();
  }

  private sample(started: number, lsn: bigint): void {
    const last = this.samples.at(-1);
    if (!last || lsn > last.lsn) this.samples.push({ at: started, lsn });
    if (this.samples.length > MAX_SAMPLES) this.samples.shift();
    const resolve = (f: Fence): Fence => (typeof f !== 'bigint' && f.since < started ? lsn : f);
    for (const [id, fence] of this.fences) if (typeof fence !== 'bigint') this.fences.set(id, resolve(fence));
    this.siteFence = resolve(this.siteFence);
    this.floor = resolve(this.floor);
  }

  private async pollReplica(replica: Replica): Promise<void> {
    if (replica.polling) return;
    replica.polling = true;
    try {
      const [row] = await timed(
        replica.pool.unsafe<{ standby: boolean; replay: string | null }[]>(`SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replay`),
      );
      if (!row.standby || row.replay === null) throw new Error('not a streaming standby');
      const replay = lsnOf(row.replay);
      // As polled, never the highest seen: a URL is one standby, but if it is a pool of them the
      // position of the one that answered is all that is known.
      replica.replay = replay;
      const behind = this.samples.find((s) => s.lsn > replica.replay!);
      replica.lagSeconds = behind ? (Date.now() - behind.at) / 1000 : 0;
      const ok = replica.lagSeconds <= this.maxLagSeconds;
      if (ok !== replica.ok) console.log(`[codetally] replica ${replica.name} ${ok ? 'serves reads' : `is ${replica.lagSeconds.toFixed(1)} s behind: reading the primary until it catches up`}`);
      replica.ok = ok;
    } catch (err) {
      if (replica.ok) console.error(`[codetally] replica ${replica.name} does not answer (${errorCode(err) ?? (err as Error)?.message}); reading the primary`);
      replica.ok = false;
      replica.lagSeconds = null;
    } finally {
      replica.polling = false;
    }
  }

  /** Fences every replica has passed, and samples older than every replica's replay, are forgotten. */
  private prune(): void {
    if (this.replicas.some((r) => r.replay === null)) return;
    const passed = this.replicas.reduce((min, r) => (r.replay! < min ? r.replay! : min), this.replicas[0].replay!);
    for (const [id, fence] of this.fences) if (typeof fence === 'bigint' && fence <= passed) this.fences.delete(id);
    const keepFrom = this.samples.findIndex((s) => s.lsn > passed);
    this.samples = keepFrom < 0 ? this.samples.slice(-1) : this.samples.slice(Math.max(0, keepFrom - 1));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.replicas.map((r) => r.pool.end({ timeout: 1 }).catch(() => {})));
  }
}

/** The later of two fences; one not yet known is later than any known. */
function higher(a: Fence | undefined, b: Fence): Fence {
  if (a === undefined) return b;
  if (typeof a !== 'bigint') return typeof b !== 'bigint' && b.since > a.since ? b : a;
  if (typeof b !== 'bigint') return b;
  return a > b ? a : b;
}

function timed<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), POLL_TIMEOUT_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Runs a public read on a replica that may serve `scope`, else on the primary `db`. `current`, when
 * given, is asked on the chosen replica first: false (it has not yet replayed what the caller read
 * on the primary, such as a version committed before its announcement arrived) sends the read to
 * the primary. A read that fails on the replica runs again on the primary (reads only: running
 * twice changes nothing), and the replica is left out until it answers a poll. Without replicas
 * (the embedded database, a transaction, none configured) it is `read(db)`.
 */
export async function onReplica<T>(db: Db, scope: ReadScope, read: (reader: Db) => Promise<T>, current?: (replica: Db) => Promise<boolean>): Promise<T> {
  const replicas = servicesOf(db)?.replicas;
  const replica = replicas && (await replicas.choose(scope));
  if (!replica) return read(db);
  try {
    if (current && !(await current(replica.db))) return read(db);
    return await read(replica.db);
  } catch (err) {
    if (!fromDatabase(err)) throw err; // the read's own answer (a 404, a 400): the same on the primary
    replicas.failed(replica, err);
    return read(db);
  }
}

/** Whether an error came from the database or its connection (by name: bundles hold copies of these classes). */
function fromDatabase(err: unknown): boolean {
  for (let e = err as { name?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.name === 'QueryFailed' || e.name === 'DeadlineExceeded' || e.name === 'PostgresError') return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Each replica's state for /health; undefined when none is configured. */
export function replicaStates(db: Db): ReplicaState[] | undefined {
  return servicesOf(db)?.replicas?.states();
}

/**
 * A `current` check for onReplica: the replica holds the user's data at `version` (their
 * `stats_version`, which every write of their figures moves, as the gate read it on the primary) or later.
 */
export const atVersion =
  (userId: string, version: number) =>
  async (replica: Db): Promise<boolean> => {
    const [row] = (await replica.execute(sql`SELECT ${users.statsVersion}::float8 AS version FROM ${users} WHERE ${users.id} = ${userId}::uuid`)) as unknown as { version: number }[];
    return row !== undefined && Number(row.version) >= version;
  };
