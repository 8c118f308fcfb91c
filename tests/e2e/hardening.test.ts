import http from 'node:http';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { passwordUser, postForm } from '../helpers/forms';
import { testHost } from '../helpers/server';

// What a careless client or an attacker sends to the real server: always a clear 4xx, never a
// 500; the headers that keep pages from being framed or sniffed; absolute URLs at the site's
// address, never the listen address.
const base = inject('baseUrl');
const api = `${base}/main/api/v1`;

/** A request with any method and headers (fetch refuses TRACE and rewrites Host). */
function request(method: string, url: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A request whose target goes out as written: no dot segment resolved, any form of target. */
function rawTarget(method: string, target: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path: target, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function newUser(scopes?: string[]) {
  const res = await fetch(`${api}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inject('adminToken')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle: `h${Math.random().toString(36).slice(2, 10)}`, ...(scopes && { token: { scopes } }) }),
  });
  return (await res.json()) as { user: { id: string }; token: string };
}

// What the front server takes on (lib/server/front.ts): methods Next cannot carry, targets it
// would misread. On a host without it (TEST_HOST=next, as on Vercel) the platform's edge stands
// there instead; docs/hosts.md lists the differences, and these tests hold on the front only.
const frontOnly = it.runIf(testHost === 'front');
const fronted = testHost === 'front';

describe('methods', () => {
  it.each([
    ...(fronted
      ? [
          ['TRACE', '/sync/activities', 'POST, OPTIONS'],
          ['TRACE', '/health', 'GET, HEAD, OPTIONS'],
          ['PROPFIND', '/get/public/time', 'GET, HEAD, OPTIONS'],
        ]
      : []),
    ['PUT', '/sync/activities', 'POST, OPTIONS'],
    ['DELETE', '/get/public/language', 'GET, HEAD, OPTIONS'],
    ['PATCH', '/badges', 'GET, HEAD, POST, OPTIONS'],
    ['POST', '/health', 'GET, HEAD, OPTIONS'],
  ])('%s %s answers 405 problem+json with Allow: %s', async (method, path, allow) => {
    const res = await request(method, `${api}${path}`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(res.body)).toMatchObject({ status: 405, code: 'method_not_allowed', type: expect.stringContaining('#method_not_allowed') });
  });

  it('TRACE on a page answers 405, not 500', async () => {
    const res = await request('TRACE', `${base}/pricing`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(fronted ? 'GET, HEAD, POST' : 'GET, HEAD');
  });

  it('OPTIONS on a public route is a CORS preflight; on another route it lists the methods', async () => {
    const preflight = await request('OPTIONS', `${api}/get/public/time`, { origin: 'https://example.org', 'access-control-request-method': 'GET' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    const options = await request('OPTIONS', `${api}/me/tokens`);
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('another method on a cached page or route is answered, and never changes what GET gets', async () => {
    const { user } = await newUser();
    const paths = [`/u/nobody${Date.now()}/opengraph-image`, `/u/nobody${Date.now()}`, `/main/api/v1/public/github/svg/${user.id}`, '/pricing'];
    for (const path of paths) {
      const before = await request('GET', `${base}${path}`);
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        const other = await request(method, `${base}${path}`);
        expect([path, method, other.status < 500]).toEqual([path, method, true]);
        if (method === 'OPTIONS' && !path.startsWith('/main/api/') && fronted) expect(other.headers.allow).toBe('GET, HEAD, POST');
        expect([path, method, (await request('GET', `${base}${path}`)).status]).toEqual([path, method, before.status]);
      }
    }
  });
});

describe('malformed requests', () => {
  frontOnly('a path with broken percent-encoding is a 404, not a 500', async () => {
    for (const path of ['/u/%E0%A4%A', '/u/%', '/main/api/v1/public/github/svg/%FF', '/%C0%AF']) {
      expect((await request('GET', `${base}${path}`)).status).toBe(404);
    }
  });

  it('a target starting with // is a path, not a host: answered below 500, and the server stays up', async () => {
    for (const path of ['//', '//[', '//:99999', '///main/api/v1/health']) {
      expect((await request('GET', `${base}${path}`)).status).toBeLessThan(500);
    }
    expect((await request('GET', `${api}/health`)).status).toBe(200);
  });

  frontOnly('a target in absolute form (only for proxies) is a 400 problem, never a redirect to the host it names', async () => {
    for (const target of ['http://evil.example/main/api/v1/health', 'http://evil.example/pricing', 'https://evil.example/']) {
      const res = await rawTarget('GET', target);
      expect([target, res.status, res.headers.location]).toEqual([target, 400, undefined]);
      expect(JSON.parse(res.body)).toMatchObject({ status: 400, code: 'invalid_target' });
    }
  });

  it('a body nested a megabyte deep is refused at once (400 naming the rule), and the server stays quick', async () => {
    const { token } = await newUser();
    const deep = `${'['.repeat(512 * 1024)}${']'.repeat(512 * 1024)}`;
    const key = `Basic ${Buffer.from(token).toString('base64')}`;
    for (const [path, authorization] of [
      [`${api}/sync/activities`, `Bearer ${token}`],
      [`${base}/api/wakatime/v1/users/current/heartbeats.bulk`, key],
    ]) {
      const started = performance.now();
      const res = await request('POST', path, { authorization, 'content-type': 'application/json' }, deep);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body).toMatch(/nests arrays and objects more than 64 levels deep/);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });

  it('a session cookie that is not one is no session: 401, not 500', async () => {
    for (const cookie of ['authjs.session-token=%E0%A4%A', 'authjs.session-token=garbage', '__Secure-authjs.session-token=%']) {
      const res = await request('GET', `${api}/me`, { cookie });
      expect(res.status).toBe(401);
    }
  });

  it('a form post whose multipart body cannot be read is a 400 problem, not a 500; a readable one still reaches the page', async () => {
    for (const body of ['null', '--y\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--y--\r\n', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb']) {
      const res = await request('POST', `${base}/`, { 'content-type': 'multipart/form-data; boundary=x' }, body);
      expect(res.status, body).toBe(400);
      expect(JSON.parse(res.body).code).toBe('malformed_form');
    }
    // A well-formed form without JavaScript that names no form action: Next's own refusal, still a 4xx.
    const valid = await request('POST', `${base}/signin`, { 'content-type': 'multipart/form-data; boundary=x' }, '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n');
    expect(valid.status).toBe(400);
    expect(valid.body).not.toContain('malformed_form');
  });

  it('a form action from another origin, or with an Origin that is no URL, is a 403 problem; one from the site is Next\'s to answer', async () => {
    const action = { 'next-action': '0123456789abcdef0123456789abcdef01234567', 'content-type': 'text/plain;charset=UTF-8' };
    for (const origin of ['https://evil.example', 'null', 'Ú;³÷&.&?']) {
      const res = await request('POST', `${base}/pricing`, { ...action, origin }, '[]');
      expect([origin, res.status, JSON.parse(res.body).code]).toEqual([origin, 403, 'forbidden']);
    }
    // The site's own origin: an action this build does not have, refused by Next below 500.
    const own = await request('POST', `${base}/pricing`, { ...action, origin: new URL(base).origin }, '[]');
    expect(own.status).toBeGreaterThanOrEqual(400);
    expect(own.status).toBeLessThan(500);
  });
});

describe('security headers', () => {
  it('pages may not be framed or sniffed, and send no referrer across origins', async () => {
    const res = await request('GET', `${base}/pricing`);
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("object-src 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    // Plain HTTP and no trusted proxy: a client's X-Forwarded-Proto does not earn HSTS.
    expect((await request('GET', `${base}/pricing`, { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBeUndefined();
  });

  it('badges and charts stay embeddable anywhere', async () => {
    const { user } = await newUser();
    const badge = await request('GET', `${api}/public/github/svg/${user.id}`);
    expect(badge.headers['x-frame-options']).toBeUndefined();
    expect(badge.headers['x-content-type-options']).toBe('nosniff');
    const chart = await request('GET', `${api}/get/public/time`);
    expect(chart.headers['access-control-allow-origin']).toBe('*');
    expect(chart.headers['x-frame-options']).toBeUndefined();
  });

  it('images and data load nothing and run nothing, even opened on their own; pages keep their own policy', async () => {
    const { user, token } = await newUser();
    const key = Buffer.from(token).toString('base64');
    const answers = {
      badge: await request('GET', `${api}/public/github/svg/${user.id}`),
      'badge in another style': await request('GET', `${api}/public/github/svg/${user.id}?style=plastic`),
      shields: await request('GET', `${api}/public/github/shields/${user.id}`),
      health: await request('GET', `${api}/health`),
      problem: await request('GET', `${api}/no/such/route`),
      heartbeats: await request('POST', `${base}/api/wakatime/v1/users/current/heartbeats.bulk`, { authorization: `Basic ${key}`, 'content-type': 'application/json' }, '[]'),
      'status bar': await request('GET', `${base}/api/wakatime/v1/users/current/statusbar/today`, { authorization: `Basic ${key}` }),
      session: await request('GET', `${base}/auth/session`),
      csrf: await request('GET', `${base}/auth/csrf`),
      icon: await request('GET', `${base}/icon.svg`),
      'badge preview': await request('GET', `${base}/dashboard/badge-preview`),
      sitemap: await request('GET', `${base}/sitemap.xml`),
      ...(fronted && { 'a path that is no path': await request('GET', `${base}/u/%E0%A4%A`) }),
    };
    for (const [what, res] of Object.entries(answers)) {
      expect([what, res.headers['content-security-policy']]).toEqual([what, "default-src 'none'; style-src 'unsafe-inline'; sandbox"]);
      expect([what, res.headers['x-content-type-options']]).toEqual([what, 'nosniff']);
    }
    for (const path of ['/pricing', '/signin', '/u/nobody-at-all', '/auth/signout']) {
      expect([path, (await request('GET', `${base}${path}`)).headers['content-security-policy']]).toEqual([path, expect.stringContaining("frame-ancestors 'none'")]);
    }
  });

  it('the WakaTime-compatible API carries the API\'s headers at every path plugins use, never a page\'s', async () => {
    const { user, token } = await newUser(['sync', 'stats']);
    const auth = { authorization: `Basic ${Buffer.from(token).toString('base64')}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const beat = JSON.stringify({ entity: '/src/a.ts', type: 'file', time: Date.now() / 1000, language: 'TypeScript', project: 'p' });
    const answers = {
      'WakaTime layout': await request('GET', `${base}/api/v1/users/current/statusbar/today`, auth),
      'Wakapi users/…': await request('POST', `${base}/api/users/current/heartbeats.bulk`, json, `[${beat}]`),
      'Wakapi heartbeat': await request('POST', `${base}/api/heartbeat`, json, beat),
      'Wakapi heartbeats': await request('POST', `${base}/api/heartbeats`, json, `[${beat}]`),
      'Wakapi compat': await request('GET', `${base}/api/compat/wakatime/v1/users/${user.id}/stats`),
      'Wakapi users/… without a key': await request('GET', `${base}/api/users/current/statusbar/today`),
    };
    for (const [what, res] of Object.entries(answers)) {
      expect([what, res.status < 500, res.headers['content-type']]).toEqual([what, true, expect.stringMatching(/json/)]);
      expect([what, res.headers['content-security-policy']]).toEqual([what, "default-src 'none'; style-src 'unsafe-inline'; sandbox"]);
      expect([what, res.headers['x-frame-options']]).toEqual([what, undefined]);
      expect([what, res.headers['x-content-type-options']]).toEqual([what, 'nosniff']);
    }
    // Each reached its route (a heartbeat stored, the stats answered): no page answered in its place.
    for (const what of ['WakaTime layout', 'Wakapi users/…', 'Wakapi heartbeat', 'Wakapi heartbeats'] as const) {
      expect([what, answers[what].status >= 200 && answers[what].status < 300]).toEqual([what, true]);
    }
  });

  it("the WakaTime-compatible API answers its methods at every path plugins use: the route's Allow, the stats preflight with CORS", async () => {
    const routes = [
      ['/api/heartbeat', 'POST, OPTIONS'],
      ['/api/heartbeats', 'POST, OPTIONS'],
      ['/api/users/current/heartbeats.bulk', 'POST, OPTIONS'],
      ['/api/compat/wakatime/v1/users/current/statusbar/today', 'GET, HEAD, OPTIONS'],
      ['/api/v1/users/current/heartbeats.bulk', 'POST, OPTIONS'],
    ];
    for (const [path, allow] of routes) {
      const res = await request('DELETE', `${base}${path}`);
      expect([path, res.status, res.headers.allow]).toEqual([path, 405, allow]);
      expect([path, res.headers['x-frame-options']]).toEqual([path, undefined]);
    }
    for (const path of ['/api/users/someone/stats', '/api/compat/wakatime/v1/users/someone/stats/last_7_days', '/api/wakatime/v1/users/someone/stats']) {
      const preflight = await request('OPTIONS', `${base}${path}`, { origin: 'https://example.org', 'access-control-request-method': 'GET' });
      expect([path, preflight.status, preflight.headers['access-control-allow-origin'], preflight.headers['access-control-allow-methods']]).toEqual([path, 204, '*', 'GET, HEAD, OPTIONS']);
    }
  });
});

describe('the cached badge route', () => {
  it('answers only the proxy: from outside it is a 404, however the path is written', async () => {
    const { user, token } = await newUser(['badges']);
    const made = await request('POST', `${api}/badges`, { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, JSON.stringify({ metric: 'total', range: '7d' }));
    expect(made.status).toBe(201);
    const owner = user.id;
    const upper = owner.toUpperCase();
    expect((await request('GET', `${api}/public/github/svg/${owner}`)).status).toBe(200);
    for (const target of [
      `/cached-badge/svg/${owner}/first/own`,
      `/cached-badge/shields/${owner}/first/own`,
      `/cached-badge/svg/${upper}/first/own`,
      `/cached-badge/svg/${owner}/first/zzz`,
      `/cached-badge/svg/${owner}/first/own.rsc`,
      `/cached-badge/svg/${owner}/first/own/`,
      `/./cached-badge/svg/${owner}/first/own`,
      `/x/../cached-badge/svg/${owner}/first/own`,
      `/main/api/../../cached-badge/svg/${owner}/first/own`,
      `//cached-badge/svg/${owner}/first/own`,
      `/cached-badge`,
      `/cached-chart/${owner}/weekly/own/auto`,
      `/cached-chart/${upper}/languages/30d/light`,
      `/cached-chart`,
    ]) {
      for (const headers of [{}, { rsc: '1' }] as Record<string, string>[]) {
        const res = await rawTarget('GET', target, headers);
        // A 404, or Next's redirect of `//` or a trailing slash to a path that is one.
        expect([target, headers, res.status >= 300 && res.status < 500, res.headers['content-type']?.startsWith('image/svg') ?? false]).toEqual([target, headers, true, false]);
      }
    }
  });

  it('a badge asked with its owner\'s id in upper case is gone as soon as it is deleted', async () => {
    const { user, token } = await newUser(['badges']);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const made = JSON.parse((await request('POST', `${api}/badges`, auth, JSON.stringify({ metric: 'total', range: '7d' }))).body);
    const url = `${api}/public/github/svg/${user.id.toUpperCase()}?badge=${made.id.toUpperCase()}`;
    expect((await request('GET', url)).status).toBe(200);
    expect((await request('GET', url)).status).toBe(200);
    expect((await request('DELETE', `${api}/badges/${made.id}`, auth)).status).toBe(204);
    expect((await request('GET', url)).status).toBe(404);
  });
});

describe('where signing in sends the browser', () => {
  // As a link can carry them: raw in the query (`%09` is a tab once decoded) or encoded twice.
  const hostile = [
    '/%09/evil.example/x',
    '/%0a/evil.example/x',
    '/%0d%0aLocation:%20//evil.example',
    '//evil.example/x',
    '/%5Cevil.example',
    '/%5C/evil.example',
    '/%2509/evil.example',
    '/.//evil.example/x',
    'https://evil.example/x',
    'javascript:alert(1)',
  ];
  let user: Awaited<ReturnType<typeof passwordUser>>;
  beforeAll(async () => {
    user = await passwordUser(base);
  });

  it('a signed-in visitor of the sign-in page goes to a path of the site, or the dashboard', async () => {
    for (const callbackUrl of hostile) {
      const res = await request('GET', `${base}/signin?callbackUrl=${callbackUrl}`, { cookie: user.cookie });
      expect([callbackUrl, res.status, res.headers.location]).toEqual([callbackUrl, 307, '/dashboard']);
    }
    const res = await request('GET', `${base}/signin?callbackUrl=${encodeURIComponent('/u/someone?x=1')}`, { cookie: user.cookie });
    expect([res.status, res.headers.location]).toEqual([307, '/u/someone?x=1']);
  });

  it('a password sign-in from such a link lands on a path of the site, or the dashboard', async () => {
    for (const callbackUrl of ['/%09/evil.example/x', '/%0a/evil.example/x', '//evil.example/x', 'https://evil.example/x']) {
      const res = await postForm(base, `/signin?callbackUrl=${callbackUrl}`, { email: user.email, password: user.password });
      expect([callbackUrl, res.status, res.location]).toEqual([callbackUrl, 303, '/dashboard']);
    }
    const res = await postForm(base, `/signin?callbackUrl=${encodeURIComponent('/u/someone')}`, { email: user.email, password: user.password });
    expect([res.status, res.location]).toEqual([303, '/u/someone']);
  });

  it("Auth.js's own routes return to the site only, and never fail on the address", async () => {
    const csrf = await request('GET', `${base}/auth/csrf`);
    const { csrfToken } = JSON.parse(csrf.body);
    const cookie = (csrf.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    for (const callbackUrl of ['/\n/evil.example', '/\t/evil.example', '//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const form = new URLSearchParams({ csrfToken, callbackUrl }).toString();
      const res = await request('POST', `${base}/auth/signout`, { cookie, 'content-type': 'application/x-www-form-urlencoded' }, form);
      expect([callbackUrl, res.status, new URL(res.headers.location ?? '', 'http://nowhere').href]).toEqual([callbackUrl, 302, `${base}/`]);
      const asked = await request('GET', `${base}/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
      expect([callbackUrl, asked.status < 500, asked.headers.location ?? '']).toEqual([callbackUrl, true, expect.not.stringContaining('evil')]);
    }
    // A relative address is the path it resolves to (Auth.js would fail on it).
    for (const callbackUrl of ['90d', 'dashboard?x=1']) expect([callbackUrl, (await request('GET', `${base}/auth/session?callbackUrl=${callbackUrl}`)).status]).toEqual([callbackUrl, 200]);
  });
});

describe('absolute URLs', () => {
  it('a badge is embedded at the address the client used, never the listen address, and a forwarded host from an untrusted client is ignored', async () => {
    const { token } = await newUser();
    const res = await request(
      'POST',
      `${api}/badges`,
      { authorization: `Bearer ${token}`, 'content-type': 'application/json', host: 'codetally.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      JSON.stringify({ metric: 'total', range: '7d' }),
    );
    expect(res.status).toBe(201);
    const badge = JSON.parse(res.body);
    expect(badge.url).toMatch(/^http:\/\/codetally\.example\/main\/api\/v1\/public\/github\/svg\//);
    expect(badge.markdown).toContain('(http://codetally.example/');
    expect(res.body).not.toContain('evil.example');
    expect(res.body).not.toContain('localhost');
  });
});
