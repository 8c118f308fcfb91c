import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordUser, postForm } from '../helpers/forms';
import { startTestServer, type TestServer } from '../helpers/server';

// A page's form posted from another site by a browser without JavaScript (a plain HTML form
// there, the visitor's cookies sent along): the form's action never runs, the answer is a 403
// problem, and the server logs nothing (Next's own refusal was a 500 and error lines). A server of
// its own, whose output is read.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(async () => {
  await server?.stop();
  server?.remove();
});

/** Posts a page's form as a browser without JavaScript does, from a page of `origin`. */
const postFrom = (origin: string, page: string, fields: Record<string, string>, cookie = '') => postForm(server.baseUrl, page, fields, cookie, { origin });

/** What the server printed while `action` ran (and a moment after, for what it logs late). */
async function printedDuring(action: () => Promise<void>): Promise<string> {
  const before = server.output().length;
  await action();
  await new Promise((resolve) => setTimeout(resolve, 300));
  return server.output().slice(before);
}

describe('a form posted from another site without JavaScript', () => {
  it('the sign-in form: 403 problem, no session, nothing logged; from the site itself it is taken', async () => {
    const user = await passwordUser(server.baseUrl);
    const printed = await printedDuring(async () => {
      for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${Number(new URL(server.baseUrl).port) + 1}`]) {
        const res = await postFrom(origin, '/signin', { email: user.email, password: user.password });
        expect([origin, res.status, res.type]).toEqual([origin, 403, 'application/problem+json']);
        expect(JSON.parse(res.body)).toMatchObject({ status: 403, code: 'forbidden' });
        expect(res.cookies).not.toContain('session-token=');
      }
    });
    expect(printed).toBe('');
    // The same form from the site's own pages signs in.
    const own = await postFrom(new URL(server.baseUrl).origin, '/signin', { email: user.email, password: user.password });
    expect(own.cookies).toContain('session-token=');
  });

  it('a signed-in visitor\'s dashboard form (sign out): 403, and the session still holds', async () => {
    const user = await passwordUser(server.baseUrl);
    const printed = await printedDuring(async () => {
      const res = await postFrom('https://evil.example', '/dashboard', {}, user.cookie);
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body).code).toBe('forbidden');
    });
    expect(printed).toBe('');
    const dashboard = await fetch(`${server.baseUrl}/dashboard`, { headers: { cookie: user.cookie }, redirect: 'manual' });
    expect(dashboard.status).toBe(200);
  });
});
