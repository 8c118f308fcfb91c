import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordUser, postForm } from '../helpers/forms';
import { startTestServer, type TestServer } from '../helpers/server';

// A server of its own, whose output is read: a line per event, no stack for what is an answer to
// the visitor (a wrong password), and nothing uncaught when an upload is refused or a client
// leaves in the middle.

const adminToken = 'logs-test-admin-token-0123456789';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_TOKEN: adminToken });
});
afterAll(async () => {
  await server?.stop();
  server?.remove();
});

/** What the server printed while `action` ran (and a moment after, for what it logs late). */
async function printedDuring(action: () => Promise<void>): Promise<string> {
  const before = server.output().length;
  await action();
  await new Promise((resolve) => setTimeout(resolve, 300));
  return server.output().slice(before);
}

/** Sends `head` and `chunks` on a socket of its own, then leaves without waiting for the answer. */
function leaveMidway(head: string, chunks: string[]): Promise<void> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, async () => {
      socket.write(head);
      for (const chunk of chunks) {
        socket.write(chunk);
        await new Promise((r) => setTimeout(r, 5));
      }
      socket.destroy();
      resolve();
    });
    socket.on('error', () => resolve());
  });
}

describe('the server log', () => {
  it('a wrong password is one line, without a stack', async () => {
    const user = await passwordUser(server.baseUrl);
    const printed = await printedDuring(async () => {
      const refused = await postForm(server.baseUrl, '/signin', { email: user.email, password: 'not the password at all' });
      expect(refused.status).toBe(200);
      expect(refused.body).toContain('That email and password do not match an account.');
    });
    expect(printed.trim().split('\n')).toEqual(['[auth] sign-in refused (credentials)']);
  });

  it('an upload refused at its first bytes, or a client leaving mid-request or mid-answer, leaves nothing uncaught', async () => {
    const created = await fetch(`${server.baseUrl}/main/api/v1/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ handle: 'uploader', token: { scopes: ['account', 'sync'] } }),
    });
    const { token } = (await created.json()) as { token: string };
    const auth = `Authorization: Bearer ${token}\r\n`;
    const printed = await printedDuring(async () => {
      for (let i = 0; i < 5; i++) {
        // A file that is no dump: refused at its first bytes, while the rest is still on its way.
        const refused = await fetch(`${server.baseUrl}/main/api/v1/me/imports`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: 'date,hours\n2024-01-01,3\n',
        });
        expect(refused.status).toBe(422);
        await refused.arrayBuffer();
      }
      const upload = `POST /main/api/v1/me/imports HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n`;
      await leaveMidway(upload, ['{"days":[', '{"date":"2024-01-01","heartbeats":[]},']);
      const batch = `POST /main/api/v1/sync/activities HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n`;
      await leaveMidway(batch, ['{"activities":[']);
      await leaveMidway(`GET /main/api/v1/me/export HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, []);
      await leaveMidway('GET /docs HTTP/1.1\r\nHost: x\r\n\r\n', []);
    });
    expect(printed).not.toMatch(/uncaught|already closed/i);
    expect((await fetch(`${server.baseUrl}/main/api/v1/health`)).status).toBe(200);
  });
});
