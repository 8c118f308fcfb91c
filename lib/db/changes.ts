import type postgres from 'postgres';
import { boundedClient, detached } from './deadline';
import { postgresClient } from './postgres-url';
import { servicesOf } from './services';
import type { ChangeListener, Db, PositionListener, UserChanges } from './types';

// Which users changed (their activity or their settings), told to every process that keeps copies
// of user data in memory, with the cache tags of what else changed with them (a handle taken, the
// leaderboard's listings: lib/cache/tags.ts). The process that made a change is told at once; the
// other processes sharing a PostgreSQL database receive it over LISTEN, sent by NOTIFY right after
// the change commits and before its request is answered, on a connection of its own (not the
// pool's, where it waited behind other requests' statements). Sending it after the commit rather
// than inside the write keeps writes from queueing on PostgreSQL's notification lock.
//
// PostgreSQL hands a notification to each listening connection on its own schedule, so a client
// answered by one process can reach another before the notification does. A cache that serves
// what another process may have changed first asks `heard()`: one round trip on the listening
// connection, after which every notification committed before it has been received (PostgreSQL
// sends a connection's pending notifications before the answer to its next query).
//
// Each notification also carries the primary's WAL position after the change (`id,…,@<lsn>`): a
// streaming replica serves those users again only once it has replayed that far (lib/db/replicas.ts).

const CHANNEL = 'codetally_user_changed';
/** NOTIFY payloads must stay under 8000 bytes: UUIDs or tags of at most 72 characters, comma-separated, and a WAL position. */
const IDS_PER_NOTIFY = 100;
const RELISTEN_MS = 1000;
/** How long a cache waits to receive what was committed before it renders afresh instead. */
const HEARD_WAIT_MS = 2000;

class LocalChanges implements UserChanges {
  protected listeners = new Set<ChangeListener>();
  live = true;
  readonly shared: boolean = false;

  heard(): Promise<boolean> {
    return Promise.resolve(this.live);
  }

  subscribe(listener: ChangeListener): void {
    this.listeners.add(listener);
  }

  protected emit(userId: string | null): void {
    for (const listener of this.listeners) listener(userId);
  }

  async announce(userIds: string[]): Promise<void> {
    for (const id of userIds) this.emit(id);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}

/** The embedded database has one process: telling this one is telling all. */
export const embeddedChanges = (): UserChanges => new LocalChanges();

/**
 * Behind a transaction-mode pooler no LISTEN lasts: this process receives its own changes only, so
 * it is never `live` and the caches that need the feed read the database on every request.
 */
class UnheardChanges extends LocalChanges {
  override live = false;
}
export const unheardChanges = (): UserChanges => new UnheardChanges();

class PostgresChanges extends LocalChanges {
  override live = false;
  override readonly shared = true;
  private listener: postgres.Sql | null = null;
  private closed = false;
  private retrying: NodeJS.Timeout | null = null;
  private queue: string[] = [];
  private waiting: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private sending = false;
  /** The round trip on its way to the listening connection, and the one to send once it is back. */
  private asking: Promise<boolean> | null = null;
  private nextAsk: Promise<boolean> | null = null;

  /**
   * The connection announcements go out on, opened at the first. Not the pool's: behind a load,
   * an announcement there queued behind other requests' statements, and every answer waiting on
   * it with it (docs/scaling.md).
   */
  private announcer: postgres.Sql | null = null;

  constructor(private readonly url: string) {
    super();
  }

  override subscribe(listener: ChangeListener): void {
    super.subscribe(listener);
    if (!this.listener) this.listen();
  }

  /** One connection of its own holds the LISTEN; when it drops, caches forget until it is back. */
  private listen(): void {
    // onnotify is an option of postgres.js that its types leave out.
    const options: postgres.Options<Record<string, never>> & { onnotify: (channel: string, payload: string) => void } = {
      max: 1,
      idle_timeout: 0,
      max_lifetime: null,
      fetch_types: false,
      onnotice: () => {},
      connection: { application_name: 'codetally-changes' },
      onnotify: (_channel: string, payload: string) => {
        // `id,id,…,@<lsn>`: the primary's WAL position after the change (replicas, lib/db/replicas.ts).
        const items = payload.split(',').filter(Boolean);
        const lsn = items.at(-1)?.startsWith('@') ? items.pop()!.slice(1) : null;
        this.tellPositions(items, lsn);
        for (const id of items) this.emit(id);
      },
      onclose: () => {
        this.live = false;
        this.emit(null);
        this.retry();
      },
    };
    this.listener = postgresClient(this.url, options);
    void this.start();
  }

  private async start(): Promise<void> {
    if (this.closed || !this.listener) return;
    try {
      await this.listener.unsafe(`LISTEN ${CHANNEL}`);
      this.emit(null); // whatever happened before listening is unknown
      this.live = true;
    } catch {
      this.retry();
    }
  }

  /** One attempt at a time, however many failures report the same outage. */
  private retry(): void {
    if (this.closed || this.retrying) return;
    this.retrying = setTimeout(() => {
      this.retrying = null;
      void this.start();
    }, RELISTEN_MS);
    this.retrying.unref();
  }

  override heard(): Promise<boolean> {
    if (!this.asking) {
      this.asking = this.ask().finally(() => (this.asking = null));
      return this.asking;
    }
    // What is on its way was sent before this call: it proves nothing about changes since.
    this.nextAsk ??= this.asking.then(() => {
      this.nextAsk = null;
      return this.heard();
    });
    return this.nextAsk;
  }

  /** False when the listening connection does not answer in time (a connection gone silent is not yet known closed). */
  private async ask(): Promise<boolean> {
    if (!this.listener || !this.live) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), HEARD_WAIT_MS);
      timer.unref();
    });
    try {
      return await Promise.race([this.listener`SELECT 1`.then(() => this.live), late]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Listeners of each change's WAL position (lib/db/replicas.ts). */
  private positions = new Set<PositionListener>();

  watchPositions(listener: PositionListener): void {
    this.positions.add(listener);
    if (!this.listener) this.listen();
  }

  private tellPositions(ids: string[], lsn: string | null): void {
    if (ids.length > 0) for (const listener of this.positions) listener(ids, lsn);
  }

  override announce(userIds: string[]): Promise<void> {
    // Known here before anything else: no replica serves these users until the position is known.
    this.tellPositions(userIds, null);
    for (const id of userIds) this.emit(id);
    if (userIds.length === 0) return Promise.resolve();
    // Announcements made while one is being sent go out together in the next one.
    return new Promise((resolve, reject) => {
      this.queue.push(...userIds);
      this.waiting.push({ resolve, reject });
      if (!this.sending) void detached(() => this.send());
    });
  }

  private async send(): Promise<void> {
    this.sending = true;
    while (this.queue.length > 0) {
      const ids = [...new Set(this.queue)];
      const waiting = this.waiting;
      this.queue = [];
      this.waiting = [];
      this.announcer ??= boundedClient(
        postgresClient(this.url, { max: 1, idle_timeout: 60, fetch_types: false, onnotice: () => {}, connection: { application_name: 'codetally-announce' } }),
      );
      try {
        // A notification is not durable (a listener that lost its connection forgets everything),
        // so its commit need not wait for the WAL to reach the disk: behind a write load that wait
        // is long (docs/scaling.md), and every answer waits on its announcement. Set for the
        // statement's own transaction, which a pooler keeps (a startup parameter it would refuse).
        // Each carries the primary's WAL position now, after the change's commit: a replica serves
        // these users again once it has replayed that far (lib/db/replicas.ts).
        for (let i = 0; i < ids.length; i += IDS_PER_NOTIFY) {
          const part = ids.slice(i, i + IDS_PER_NOTIFY);
          const [{ lsn }] = await this.announcer.unsafe<{ lsn: string }[]>(
            `SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2::text || ',@' || pg_current_wal_lsn()::text), pg_current_wal_lsn()::text AS lsn`,
            [CHANNEL, part.join(',')],
          );
          this.tellPositions(part, lsn);
        }
        for (const w of waiting) w.resolve();
      } catch (err) {
        for (const w of waiting) w.reject(err);
        // The connection may be the trouble (a deadline passed on it): the next announcement opens another.
        const failed = this.announcer;
        this.announcer = null;
        void failed.end({ timeout: 0 }).catch(() => {});
      }
    }
    this.sending = false;
  }

  override async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    if (this.retrying) clearTimeout(this.retrying);
    await super.close();
    await Promise.all([this.listener?.end({ timeout: 1 }), this.announcer?.end({ timeout: 1 })]);
  }
}

export const postgresChanges = (url: string): UserChanges => new PostgresChanges(url);

/**
 * After a change to these users committed: every process drops what it keeps of them, and the
 * cached pages tagged with their ids or with the given tags (the feed is a service of the handle,
 * lib/db/services.ts).
 */
export async function usersChanged(db: Db, userIds: string[], tags: string[] = []): Promise<void> {
  await servicesOf(db)?.changes.announce([...userIds, ...tags]);
}
