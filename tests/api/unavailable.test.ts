import { sql, type SQL } from 'drizzle-orm';
import postgres from 'postgres';
import { describe, expect, it, vi } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { getDb, openDb, rows, type DbHandle } from '@/lib/db/client';
import { withinDeadline, withStatementBound } from '@/lib/db/deadline';
import { errorCode, isDatabaseUnavailable } from '@/lib/db/errors';
import { sessionSettings, sessionSettingsProblem } from '@/lib/db/settings';
import { errorResponse } from '@/lib/http/problem';
import { freshSnapshot } from '@/lib/stats/leaderboard/snapshot';
import { call, newUser, storedIde } from '../helpers/api';
import { until } from '../helpers/until';

// The database goes away in the middle of a write: a real PostgreSQL backend is terminated
// while the request's transaction waits on a lock, as in a failover or a restart.
describe.skipIf(process.env.TEST_DB === 'pglite')('database going away mid-request', () => {
  it('answers 503 with Retry-After, stores nothing, and the retry succeeds once', async () => {
    const { user, token } = await newUser();
    const control = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {}, connection: { application_name: 'test-control' } });
    const body = { activities: [{ language: 'Zig', time: 90, date: '2026-04-01', hour: 6 }] };
    const headers = { 'idempotency-key': 'during-outage' };
    try {
      const locker = await control.reserve();
      await locker`BEGIN`;
      await locker`LOCK TABLE ide_activity IN SHARE MODE`;
      const pending = call(postBatch, '/sync/activities', { token, body, headers });

      for (let i = 0; ; i++) {
        const waiting = await control`SELECT 1 FROM pg_stat_activity
          WHERE application_name = 'codetally' AND datname = current_database() AND wait_event_type = 'Lock'`;
        if (waiting.length > 0) break;
        if (i > 200) throw new Error('the write never reached the lock');
        await new Promise((r) => setTimeout(r, 25));
      }
      await control`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'codetally' AND datname = current_database()`;
      await locker`ROLLBACK`;
      locker.release();

      const res = await pending;
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBeTruthy();
      const problem = await res.json();
      expect(problem.code).toBe('unavailable');
      expect(JSON.stringify(problem)).not.toMatch(/terminat|SQL|postgres|stack/i);

      expect(await storedIde(user.id)).toEqual([]);
      const [{ n }] = await rows<{ n: number }>(await getDb(), sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE user_id = ${user.id}`);
      expect(n).toBe(0);

      const retry = await call(postBatch, '/sync/activities', { token, body, headers });
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      expect((await storedIde(user.id))[0].millis).toBe(90_000);
    } finally {
      await control.end();
    }
  });

  // Once a transaction's connection dies, postgres.js 3.4.9 writes its ROLLBACK from a timer to a
  // socket that is gone: a TypeError no caller can catch, which ends the process (without
  // patches/postgres+3.4.9.patch).
  it('a transaction whose connection dies mid-statement fails as unavailable, and the process lives', async () => {
    const uncaught: unknown[] = [];
    const note = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', note);
    const control = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {}, connection: { application_name: 'test-control' } });
    try {
      let pid: number | undefined;
      const failure = (await getDb())
        .transaction(async (tx) => {
          [{ pid }] = await rows<{ pid: number }>(tx, sql`SELECT pg_backend_pid() AS pid`);
          await rows(tx, sql`SELECT pg_sleep(10)`);
        })
        .catch((err: unknown) => err);
      await until(async () => pid, (found) => found !== undefined, 'in the transaction');
      await control`SELECT pg_terminate_backend(${pid!})`;
      expect(isDatabaseUnavailable(await failure)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', note);
      await control.end();
    }
  });
});

const setting = (name: string) => sessionSettings.find((s) => s.name === name)!.value;

// A locked or slow database: every statement has a lock and a statement timeout, so the request
// answers 503 (retry later) within seconds instead of hanging with its client.
describe.skipIf(process.env.TEST_DB === 'pglite')('a locked or slow database', () => {
  it('a write blocked by a lock answers 503 after the lock timeout, stores nothing, and succeeds once the lock is gone', async () => {
    const { user, token } = await newUser();
    const control = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {}, connection: { application_name: 'test-control' } });
    const body = { activities: [{ language: 'Zig', time: 30, date: '2026-04-02', hour: 7 }] };
    try {
      const locker = await control.reserve();
      await locker`BEGIN`;
      await locker`LOCK TABLE ide_activity IN SHARE MODE`;
      const started = Date.now();
      const res = await call(postBatch, '/sync/activities', { token, body });
      const waited = Date.now() - started;
      await locker`ROLLBACK`;
      locker.release();

      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBeTruthy();
      expect((await res.json()).code).toBe('unavailable');
      expect(waited).toBeGreaterThanOrEqual(setting('lock_timeout') - 100);
      expect(waited).toBeLessThan(setting('lock_timeout') + 5_000);
      expect(await storedIde(user.id)).toEqual([]);

      expect((await call(postBatch, '/sync/activities', { token, body })).status).toBe(200);
    } finally {
      await control.end();
    }
  });

  it('a statement running past the statement timeout is cancelled: a 503, not a hung request', async () => {
    const failure = await rows(await getDb(), sql`SELECT pg_sleep(${setting('statement_timeout') / 1000 + 5})`).catch((err) => err);
    expect(errorCode(failure)).toBe('57014');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const res = errorResponse(failure);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBeTruthy();
      // The log line names the statement and why it failed.
      expect(logged.mock.calls.flat().join(' ')).toMatch(/statement #[0-9a-f]{8} "SELECT pg_sleep\(\$1\)" failed \(57014\)/);
    } finally {
      logged.mockRestore();
    }
  }, 30_000);
});

describe.skipIf(process.env.TEST_DB === 'pglite')('the service\'s sessions on PostgreSQL', () => {
  it('carry the settings of the service\'s role in its database, which every pooler keeps', async () => {
    const found = await rows<{ name: string; setting: string; source: string }>(
      await getDb(),
      sql`SELECT name, setting, source FROM pg_settings WHERE name IN ('statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout', 'backend_flush_after')`,
    );
    expect(found.map((f) => [f.name, Number(f.setting), f.source]).sort()).toEqual(sessionSettings.map((s) => [s.name, s.value, 'database user']).sort());
    expect(await sessionSettingsProblem(await getDb())).toBeNull();
  });

  it('are checked: a role without them is named with the statements that give them', async () => {
    // A session opened after the change (behind a pooler, its open server connections keep theirs).
    const url = process.env.DATABASE_MIGRATION_URL ?? process.env.DATABASE_URL!;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await admin`SELECT 1`;
      const [{ db }] = await admin<{ db: string }[]>`SELECT current_database() AS db`;
      await admin.unsafe(`ALTER ROLE CURRENT_USER IN DATABASE ${db} RESET lock_timeout`);
      const fresh = await openDb({ databaseUrl: url, dataDir: '' }, 1);
      try {
        const problem = await sessionSettingsProblem(fresh.db);
        expect(problem).toContain('lock_timeout = 5000ms');
        expect(problem).toContain(`ALTER ROLE postgres IN DATABASE ${db} SET lock_timeout = '5000ms'`);
        expect(problem).not.toContain('statement_timeout');
      } finally {
        await fresh.close();
        await admin.unsafe(`ALTER ROLE CURRENT_USER IN DATABASE ${db} SET lock_timeout = '5000ms'`);
      }
    } finally {
      await admin.end();
    }
  });
});

// The service's own bound on every statement, for what PostgreSQL cannot answer itself (a frozen
// server, a pooler's queue, a connection that is never free).
describe.skipIf(process.env.TEST_DB === 'pglite')('every wait on the database has a bound of the service\'s own', () => {
  it.each([
    ['a statement', (db: DbHandle['db'], probe: SQL) => rows(db, probe)],
    ['a statement in a nested transaction', (db: DbHandle['db'], probe: SQL) => db.transaction((tx) => tx.transaction((inner) => rows(inner, probe)))],
  ])('%s past its deadline is cancelled on the server and its caller answered at the deadline', async (_, run) => {
    const db = await getDb();
    const started = Date.now();
    const failure = await withinDeadline(400, () => run(db, sql`SELECT pg_sleep(10), 'deadline-probe'`)).catch((err) => err);
    expect(errorCode(failure)).toBe('DEADLINE_EXCEEDED');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(errorResponse(failure).status).toBe(503);
    // The cancel reached the server: the statement is not left running.
    for (let i = 0; ; i++) {
      const running = await rows(db, sql`SELECT 1 FROM pg_stat_activity WHERE query LIKE '%deadline-probe%' AND pid <> pg_backend_pid() AND state = 'active'`);
      if (running.length === 0) break;
      if (i > 40) throw new Error('the statement still runs');
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  /**
   * `attempt` (making a table) under a deadline of 300 ms on a pool of one connection taken for
   * 1.5 s: it must be refused at the deadline, and the table never made, even once the pool is free.
   */
  async function behindABusyPool(table: string, attempt: (db: DbHandle['db']) => Promise<unknown>): Promise<void> {
    const one = await openDb({ databaseUrl: process.env.DATABASE_URL!, dataDir: '' }, 1);
    try {
      const busy = rows(one.db, sql`SELECT pg_sleep(1.5)`);
      await new Promise((r) => setTimeout(r, 200)); // the connection is taken
      const started = Date.now();
      const late = await withinDeadline(300, () => attempt(one.db)).catch((err) => err);
      expect(errorCode(late)).toBe('DEADLINE_EXCEEDED');
      expect(Date.now() - started).toBeLessThan(1_000);
      await busy;
      await new Promise((r) => setTimeout(r, 300));
      const [{ made }] = await rows<{ made: boolean }>(one.db, sql`SELECT to_regclass(${table}) IS NOT NULL AS made`);
      expect(made).toBe(false);
    } finally {
      await one.close();
    }
  }

  it('a statement waiting for a connection gives up at its deadline and never runs later', () =>
    behindABusyPool('never_made', (db) => rows(db, sql`CREATE TABLE never_made (x int)`)));

  it('a transaction past its deadline is abandoned: its caller answered, nothing of it kept', () =>
    behindABusyPool('never_made_either', (db) => db.transaction((tx) => tx.execute(sql`CREATE TABLE never_made_either (x int)`))));

  it('work given its own statement bound has each statement cut at that bound, outside any deadline', async () => {
    const db = await getDb();
    const started = Date.now();
    const failure = await withStatementBound(300, () => rows(db, sql`SELECT pg_sleep(10)`)).catch((err) => err);
    expect(errorCode(failure)).toBe('DEADLINE_EXCEEDED');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a leaderboard rebuild a request asked for is not cut at that request\'s deadline: the request is answered, the rebuild ends', async () => {
    const db = await getDb();
    await db.execute(sql`DELETE FROM leaderboard_snapshots WHERE range = '30d'`);
    // Another session keeps the rebuild's last write (its snapshot row) waiting past the request's deadline.
    const holder = await openDb({ databaseUrl: process.env.DATABASE_URL!, dataDir: '' }, 1);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holding = holder.db.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE leaderboard_snapshots IN EXCLUSIVE MODE`);
      locked();
      await released;
    });
    try {
      await isLocked;
      const asked = await withinDeadline(500, () => freshSnapshot(db, '30d')).catch((err) => err);
      expect(errorCode(asked)).toBe('DEADLINE_EXCEEDED');
      await new Promise((r) => setTimeout(r, 500)); // the rebuild waits on, past the deadline
      release();
      await holding;
      await until(() => rows(db, sql`SELECT 1 FROM leaderboard_snapshots WHERE range = '30d'`), (found) => found.length === 1, 'rebuilt');
    } finally {
      release();
      await holder.close();
    }
  });
});
