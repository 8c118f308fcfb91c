import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDb, rows } from '../../lib/db/client';

// A database on the same machine, reached through its Unix socket as libpq's URLs name it
// (`?host=/dir`): the service's own pool, change feed and migrations take the same URL.
describe.runIf(process.env.TEST_DB === 'postgres')('DATABASE_URL naming a socket directory', () => {
  it('connects through the socket, not TCP', async () => {
    const direct = await openDb({ databaseUrl: process.env.DATABASE_URL!, dataDir: '' }, 1);
    const [{ dirs }] = await rows<{ dirs: string }>(direct.db, sql`SELECT current_setting('unix_socket_directories') AS dirs`);
    await direct.close();
    const dir = dirs.split(',')[0].trim();
    const url = new URL(process.env.DATABASE_URL!);
    const viaSocket = await openDb({ databaseUrl: `postgres://${url.username}@localhost${url.pathname}?host=${dir}&max=1`, dataDir: '' }, 1);
    try {
      const [found] = await rows<{ socket: boolean; db: string }>(viaSocket.db, sql`SELECT inet_client_addr() IS NULL AS socket, current_database() AS db`);
      expect(found).toEqual({ socket: true, db: url.pathname.slice(1) });
    } finally {
      await viaSocket.close();
    }
  });
});
