import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDb, rows } from '../../lib/db/client';
import { startTestServer, type TestServer } from '../helpers/server';
import { until } from '../helpers/until';

// Imports of WakaTime data dumps on a server of its own, which the test stops (SIGTERM, as a
// deploy does) and kills (SIGKILL, as a crash or the kernel's out-of-memory killer would) while
// it reads: a stop puts the import back in the queue, and a file that brought the server down
// must not bring it down at every start after.

const adminToken = 'imports-test-admin-token-0123456789';

interface ImportStatus {
  status: string;
  done: boolean;
  bytes_read: number;
  heartbeats_read: number;
  error: string | null;
}

/** The import's status and how many times its reading began, read from the database of the stopped server. */
async function stored(dataDir: string, id: string): Promise<{ status: string; attempts: number }> {
  const handle = await openDb({ dataDir });
  try {
    const [row] = await rows<{ status: string; attempts: number }>(handle.db, sql`SELECT status, attempts FROM imports WHERE id = ${id}::uuid`);
    return row;
  } finally {
    await handle.close();
  }
}

describe('an import the server dies in', () => {
  it('starts over at the next start, a stop not counted, and after the third death ends failed, its file removed; a hostile file is refused at once', async () => {
    const env = { ADMIN_TOKEN: adminToken, READ_RATE_LIMIT_PER_MINUTE: '0' }; // it polls the import's state every 25 ms
    let server: TestServer & { port: number } = await startTestServer(env);
    const { dataDir, port } = server;
    try {
      const created = await fetch(`${server.baseUrl}/main/api/v1/admin/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ handle: 'crasher', token: { scopes: ['account'] } }),
      });
      const { token } = (await created.json()) as { token: string };
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const upload = (body: BodyInit) => fetch(`${server.baseUrl}/main/api/v1/me/imports`, { method: 'POST', headers, body });
      const status = async (id: string) => (await (await fetch(`${server.baseUrl}/main/api/v1/me/imports/${id}`, { headers })).json()) as ImportStatus;

      // The file that killed the server at every start: brackets without end, in a value nobody reads.
      const brackets = await upload(Buffer.concat([Buffer.from('{"x":'), Buffer.alloc(20 * 1024 * 1024, '[')]));
      expect(brackets.status).toBe(202);
      const bracketsId = ((await brackets.json()) as { id: string }).id;
      const refused = await until(() => status(bracketsId), (s) => s.done, 'read');
      expect(refused).toMatchObject({ status: 'failed', error: expect.stringMatching(/nests deeper than 32 levels.*\(at byte \d\d\)$/) });

      // A big dump (800 000 heartbeats over 80 old days), read for seconds: each day is credited as
      // it is read, so the reading saves its progress every second all along (one day holding them
      // all would be read in under a second and credited at its end, with no progress to see).
      const firstDay = Math.floor(Date.now() / 86_400_000) - 400;
      const days = Array.from({ length: 80 }, (_, d) => {
        const start = (firstDay + d) * 86_400;
        const beats = Array.from({ length: 10_000 }, (_, i) => `{"entity":"/src/f${i % 7}.go","type":"file","time":${start + i * 8},"language":"Go","project":"api"}`);
        return `{"date":"${new Date(start * 1000).toISOString().slice(0, 10)}","heartbeats":[${beats.join(',')}]}`;
      });
      const accepted = await upload(`{"days":[${days.join(',')}]}`);
      expect(accepted.status).toBe(202);
      const { id } = (await accepted.json()) as { id: string };
      // Stopped (a deploy) once its reading has saved progress: back in the queue, its start not counted.
      await until(() => status(id), (s) => s.heartbeats_read > 0, 'read');
      await server.stop();
      expect(await stored(dataDir, id)).toEqual({ status: 'queued', attempts: 0 });
      server = await startTestServer(env, { dataDir, port });
      for (let death = 1; death <= 3; death++) {
        // Killed once this start's reading has saved its progress. A start reads from the
        // beginning: its count is 0 until it first saves progress.
        let restarted = false;
        const reading = await until(
          () => status(id),
          (s) => {
            if (s.status === 'running' && s.heartbeats_read === 0) restarted = true;
            return restarted && s.status === 'running' && s.heartbeats_read > 0;
          },
          'read again',
        );
        expect(reading).toMatchObject({ done: false });
        await server.kill();
        expect(await stored(dataDir, id)).toEqual({ status: 'running', attempts: death });
        server = await startTestServer(env, { dataDir, port });
      }
      const ended = await until(() => status(id), (s) => s.done, 'ended');
      expect(ended).toMatchObject({ status: 'failed', error: expect.stringMatching(/stopped while reading this import, 3 times: it is not read again/) });
      expect(fs.readdirSync(path.join(dataDir, 'imports'))).toEqual([]);
      expect((await fetch(`${server.baseUrl}/main/api/v1/health`)).status).toBe(200);
    } finally {
      await server.stop();
      server.remove();
    }
  }, 180_000);
});
