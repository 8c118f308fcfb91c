import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { updateAccount } from '../../lib/accounts/me';
import { usersChanged } from '../../lib/db/changes';
import { config } from '../../lib/config';
import { dbHandle, getDb, openDb, rows, type DbHandle } from '../../lib/db/client';
import { publicOwner } from '../../lib/sharing/gate';
import { call, newUser } from '../helpers/api';
import { getChart } from '../helpers/public';

// Public owners are kept in memory so that a cached chart answer costs no database round trip.
// What a visitor relies on: a change the owner makes shows at once, in this process and in every
// other process on the same database.

const onPostgres = process.env.TEST_DB !== 'pglite';
// Other processes' changes are received over LISTEN, except behind a transaction pooler, where
// every read asks the database for the user's version instead.
const listening = process.env.TEST_DB !== 'pgbouncer';
/** Another process's handle on this database, as the service opens it. */
const otherProcess = (poolSize: number) => openDb({ databaseUrl: process.env.DATABASE_URL, dataDir: '', pooler: config().DATABASE_POOLER }, poolSize);
const status = (db: DbHandle['db'], ref: string) => publicOwner(db, ref).then(
  (o) => `public ${o.user.handle} ${o.statsVersion}`,
  () => 'not public',
);

async function eventually(check: () => Promise<string>, expected: string): Promise<void> {
  const deadline = Date.now() + 5000;
  let seen = await check();
  while (seen !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
    seen = await check();
  }
  expect(seen).toBe(expected);
}

/** Waits until the handle receives other processes' changes (its LISTEN is in place), where it listens. */
async function live(handle: DbHandle): Promise<void> {
  if (!listening) return;
  await publicOwner(handle.db, '00000000-0000-4000-8000-000000000000').catch(() => {});
  const deadline = Date.now() + 5000;
  while (!handle.changes.live && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(handle.changes.live).toBe(true);
}

describe('public owners kept in memory', () => {
  it('serve from memory until the user changes, and show every change at once', async () => {
    const db = await getDb();
    await live(await dbHandle());
    const { user, token } = await newUser({ settings: { profile_public: true, share_languages: true } });
    expect(await status(db, user.handle)).toBe(`public ${user.handle} 0`);

    if (listening) {
      // A change made behind the service's back is not seen: the owner came from memory.
      await db.execute(sql`UPDATE users SET profile_public = false WHERE id = ${user.id}`);
      expect(await status(db, user.handle)).toBe(`public ${user.handle} 0`);
      await db.execute(sql`UPDATE users SET profile_public = true WHERE id = ${user.id}`);
    }

    // A write through the API: the chart shows it on the next read.
    const activity = { language: 'Go', time: 1200, hour: 10, date: '2026-05-04', ide_name: 'vim' };
    expect((await call(postBatch, '/sync/activities', { token, body: { activities: [activity] } })).status).toBe(200);
    expect(await status(db, user.id)).toBe(`public ${user.handle} 1`);
    const chart = await (await getChart('language', `user=${user.handle}&from=2026-05-04&to=2026-05-04`)).json();
    expect(chart.total_seconds).toBe(1200);
    // The next read of the same chart is answered from memory at once; a write still shows at once.
    expect(await (await getChart('language', `user=${user.handle}&from=2026-05-04&to=2026-05-04`)).json()).toEqual(chart);
    expect((await call(postBatch, '/sync/activities', { token, body: { activities: [activity] } })).status).toBe(200);
    expect((await (await getChart('language', `user=${user.handle}&from=2026-05-04&to=2026-05-04`)).json()).total_seconds).toBe(2400);
    expect((await getChart('language', `user=${user.id}`)).status).toBe(200);
    expect((await getChart('language', `user=${user.id}`)).status).toBe(200);

    // Settings: a new handle answers and the old one does not; going private hides at once.
    await updateAccount(db, user.id, { handle: `${user.handle}x` });
    expect(await status(db, user.handle)).toBe('not public');
    expect(await status(db, `${user.handle}x`)).toBe(`public ${user.handle}x 2`);
    await updateAccount(db, user.id, { settings: { profile_public: false } });
    expect(await status(db, user.id)).toBe('not public');
    expect((await getChart('language', `user=${user.id}`)).status).toBe(404);
  });

  it.runIf(onPostgres)('a change made by another process shows in this one as soon as it is answered', async () => {
    const other = await otherProcess(2);
    try {
      const db = await getDb();
      await Promise.all([live(await dbHandle()), live(other)]);
      const { user } = await newUser({ settings: { profile_public: true } });
      // Each time the owner is in the other process's memory, and the notification of the change
      // is still on its way when the change is answered: the next read there must not miss it.
      for (let round = 1; round <= 20; round++) {
        const shared = round % 2 === 1;
        expect(await status(other.db, user.handle)).toBe(`public ${user.handle} 0`);
        await updateAccount(db, user.id, { settings: { share_languages: shared } });
        const seen = await Promise.all([publicOwner(other.db, user.handle), publicOwner(other.db, user.handle)]);
        expect(seen.map((o) => o.shares.languages)).toEqual([shared, shared]);
      }
      await updateAccount(db, user.id, { settings: { profile_public: false } });
      expect(await status(other.db, user.handle)).toBe('not public');
    } finally {
      await other.close();
    }
  });

  it.runIf(onPostgres && listening)('an announcement does not wait behind the statements of a busy pool', async () => {
    // Every answer after a write waits on its announcement: on the pool, behind a load, it waited
    // its turn behind other requests' statements.
    const writer = await openDb({ databaseUrl: process.env.DATABASE_URL, dataDir: '' }, 1);
    const other = await openDb({ databaseUrl: process.env.DATABASE_URL, dataDir: '' }, 2);
    try {
      await live(other);
      const { user } = await newUser({ settings: { profile_public: true } });
      expect(await status(other.db, user.handle)).toBe(`public ${user.handle} 0`);
      await (await getDb()).execute(sql`UPDATE users SET profile_public = false WHERE id = ${user.id}`);
      // The writer's one connection is taken for 3 s.
      const busy = writer.db.execute(sql`SELECT pg_sleep(3)`).then(() => 'slept'); // sent now, not when awaited
      await new Promise((r) => setTimeout(r, 100));
      const started = Date.now();
      await usersChanged(writer.db, [user.id]);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(await status(other.db, user.handle)).toBe('not public');
      expect(await busy).toBe('slept');
    } finally {
      await Promise.all([writer.close(), other.close()]);
    }
  });

  it.runIf(onPostgres && listening)('when the listening connection goes silent, a kept owner is read from the database after a short wait, never waited for without end', async () => {
    const other = await openDb({ databaseUrl: process.env.DATABASE_URL, dataDir: '' }, 2);
    const listeners = async () =>
      (await rows<{ pid: number }>(await getDb(), sql`SELECT pid FROM pg_stat_activity WHERE application_name = 'codetally-changes' AND datname = current_database()`)).map((r) => r.pid);
    const before = new Set(await listeners());
    let silent: number[] = [];
    try {
      await live(other);
      silent = (await listeners()).filter((pid) => !before.has(pid));
      expect(silent).toHaveLength(1);
      const { user } = await newUser({ settings: { profile_public: true } });
      expect(await status(other.db, user.handle)).toBe(`public ${user.handle} 0`);
      // The other process's listening backend stops answering (as a connection gone silent would).
      for (const pid of silent) process.kill(pid, 'SIGSTOP');
      // Resumed in any case, should the read below never come back.
      setTimeout(() => silent.forEach((pid) => process.kill(pid, 'SIGCONT')), 10_000).unref();
      await (await getDb()).execute(sql`UPDATE users SET profile_public = false WHERE id = ${user.id}`);
      const started = Date.now();
      expect(await status(other.db, user.handle)).toBe('not public');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const pid of silent) process.kill(pid, 'SIGCONT');
      await other.close();
    }
  });

  it.runIf(onPostgres && listening)('while changes cannot be received, owners are read from the database', async () => {
    const other = await openDb({ databaseUrl: process.env.DATABASE_URL, dataDir: '' }, 2);
    try {
      const db = await getDb();
      await live(other);
      const { user } = await newUser({ settings: { profile_public: true } });
      expect(await status(other.db, user.handle)).toBe(`public ${user.handle} 0`);
      // The listening connection drops; a change made meanwhile is not announced.
      await rows(db, sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                         WHERE application_name = 'codetally-changes' AND datname = current_database()`);
      await db.execute(sql`UPDATE users SET profile_public = false WHERE id = ${user.id}`);
      await eventually(() => status(other.db, user.handle), 'not public');
      // And once it listens again, memory serves again.
      await live(other);
      await db.execute(sql`UPDATE users SET profile_public = true WHERE id = ${user.id}`);
      await updateAccount(db, user.id, {}); // announces
      await eventually(() => status(other.db, user.handle), `public ${user.handle} 0`);
    } finally {
      await other.close();
    }
  });
});
