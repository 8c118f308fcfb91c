import http from 'node:http';
import { describe, expect, inject, it } from 'vitest';

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

async function newUser() {
  const res = await fetch(`${api}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inject('adminToken')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle: `h${Math.random().toString(36).slice(2, 10)}` }),
  });
  return (await res.json()) as { user: { id: string }; token: string };
}

describe('methods', () => {
  it.each([
    ['TRACE', '/sync/activities', 'POST, OPTIONS'],
    ['TRACE', '/health', 'GET, HEAD, OPTIONS'],
    ['PROPFIND', '/get/public/time', 'GET, HEAD, OPTIONS'],
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
    expect(res.headers.allow).toBe('GET, HEAD, POST');
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
        if (method === 'OPTIONS' && !path.startsWith('/main/api/')) expect(other.headers.allow).toBe('GET, HEAD, POST');
        expect([path, method, (await request('GET', `${base}${path}`)).status]).toEqual([path, method, before.status]);
      }
    }
  });
});

describe('malformed requests', () => {
  it('a path with broken percent-encoding is a 404, not a 500', async () => {
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
    expect(badge.headers['content-security-policy']).toBeUndefined();
    expect(badge.headers['x-frame-options']).toBeUndefined();
    expect(badge.headers['x-content-type-options']).toBe('nosniff');
    const chart = await request('GET', `${api}/get/public/time`);
    expect(chart.headers['access-control-allow-origin']).toBe('*');
    expect(chart.headers['x-frame-options']).toBeUndefined();
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
