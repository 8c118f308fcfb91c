import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { UNSUPPORTED_METHOD_HEADER } from '@/lib/http/methods';
import { frontServer, stopServing, type FrontOptions } from '@/lib/server/front';

// The service's HTTP server in front of Next, on a real socket, with a handler that reports what
// reached it (Next's part is covered by the black-box suite).

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function start(options: Partial<FrontOptions> = {}, answer: Answer = (_req, res) => res.end('ok')): Promise<{ port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = frontServer(
    (req, res) => {
      seen.push({ method: req.method!, url: req.url!, headers: { ...req.headers } });
      req.resume();
      req.on('end', () => answer(req, res));
    },
    { trustProxy: 0, requestTimeoutMs: 30_000, ...options },
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server!.address() as net.AddressInfo).port, seen };
}

/** One raw HTTP exchange: what the server sends back until it closes or `waitMs` passes. */
function raw(port: number, request: string, waitMs = 2000): Promise<{ text: string; closed: boolean; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false, ms: Date.now() - started });
    }, waitMs);
    socket.on('data', (d) => (text += d));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true, ms: Date.now() - started });
    });
    socket.on('error', () => {});
  });
}

describe('the HTTP front', () => {
  it('sends a method Next cannot carry to the API route\'s OPTIONS, naming it, so the route answers 405 with its Allow', async () => {
    const { port, seen } = await start();
    const res = await raw(port, 'TRACE /main/api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(res.text).toContain('200 OK');
    expect(seen[0]).toMatchObject({ method: 'OPTIONS', url: '/main/api/v1/health' });
    expect(seen[0].headers[UNSUPPORTED_METHOD_HEADER]).toBe('TRACE');
  });

  it('answers such a method on a page itself: 405 problem+json with Allow', async () => {
    const { port, seen } = await start();
    for (const method of ['TRACE', 'PROPFIND', 'MKCOL']) {
      const res = await raw(port, `${method} /pricing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(res.text).toMatch(/^HTTP\/1\.1 405/);
      expect(res.text.toLowerCase()).toContain('allow: get, head, post');
      expect(res.text).toContain('"code":"method_not_allowed"');
    }
    expect(seen).toEqual([]);
  });

  it('refuses CONNECT with a 405 instead of dropping the connection', async () => {
    const { port } = await start();
    const res = await raw(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(res.text).toMatch(/^HTTP\/1\.1 405/);
    expect(res.text).toContain('method_not_allowed');
  });

  it('answers a path with malformed percent-encoding 404 without asking Next', async () => {
    const { port, seen } = await start();
    const res = await raw(port, 'GET /u/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(res.text).toMatch(/^HTTP\/1\.1 404/);
    expect(res.text).toContain('"code":"not_found"');
    expect(seen).toEqual([]);
  });

  it('answers a target in absolute form 400 without asking Next: only a proxy takes one', async () => {
    const { port, seen } = await start();
    for (const target of ['http://evil.example/main/api/v1/health', 'https://evil.example/', 'HTTP://x/pricing', '*']) {
      const res = await raw(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect([target, res.text.slice(0, 12)]).toEqual([target, 'HTTP/1.1 400']);
      expect(res.text).toContain('"code":"invalid_target"');
      expect(res.text.toLowerCase()).not.toContain('location:');
      expect(res.text).toContain("Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; sandbox");
    }
    // `OPTIONS *` asks about the server as a whole: still the page methods.
    const star = await raw(port, 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(star.text).toMatch(/^HTTP\/1\.1 204/);
    expect(seen).toEqual([]);
  });

  it('reads a target starting with // as a path, never as a host: answered, and the server stays up', async () => {
    const { port, seen } = await start();
    for (const target of ['//', '///', '//[', '//:99999', '//x%20y']) {
      const res = await raw(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect([target, res.text.slice(0, 12)]).toEqual([target, 'HTTP/1.1 200']);
    }
    expect(seen.map((s) => s.url)).toEqual(['//', '///', '//[', '//:99999', '//x%20y']);
  });

  it('answers a form action this build does not have with 404, on a page reached through dot segments too', async () => {
    const { port, seen } = await start({ serverActions: new Set(['known']) });
    for (const target of ['/pricing', '/main/api/../pricing']) {
      const forged = await raw(port, `POST ${target} HTTP/1.1\r\nHost: x\r\nnext-action: forged\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      expect([target, forged.text.slice(0, 12)]).toEqual([target, 'HTTP/1.1 404']);
    }
    expect(seen).toEqual([]);
  });

  it('strips a client\'s own copy of the internal method header', async () => {
    const { port, seen } = await start();
    await raw(port, `GET /main/api/v1/health HTTP/1.1\r\nHost: x\r\n${UNSUPPORTED_METHOD_HEADER}: TRACE\r\nConnection: close\r\n\r\n`);
    expect(seen[0].headers[UNSUPPORTED_METHOD_HEADER]).toBeUndefined();
  });

  it('with no proxy trusted, replaces forwarded headers with what the socket says', async () => {
    const { port, seen } = await start();
    await raw(
      port,
      'GET / HTTP/1.1\r\nHost: codetally.example\r\nX-Forwarded-For: 6.6.6.6\r\nX-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https\r\nConnection: close\r\n\r\n',
    );
    expect(seen[0].headers).toMatchObject({ 'x-forwarded-for': '127.0.0.1', 'x-forwarded-host': 'codetally.example', 'x-forwarded-proto': 'http' });
  });

  it('with one proxy trusted, keeps its entries and appends the peer', async () => {
    const { port, seen } = await start({ trustProxy: 1 });
    await raw(port, 'GET / HTTP/1.1\r\nHost: internal:3000\r\nX-Forwarded-For: 203.0.113.7\r\nX-Forwarded-Host: codetally.example\r\nX-Forwarded-Proto: https\r\nConnection: close\r\n\r\n');
    expect(seen[0].headers).toMatchObject({ 'x-forwarded-for': '203.0.113.7, 127.0.0.1', 'x-forwarded-host': 'codetally.example', 'x-forwarded-proto': 'https' });
  });

  it('sends HSTS only when the request came over HTTPS (a trusted proxy, or an https SITE_URL)', async () => {
    const request = 'GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-Proto: https\r\nConnection: close\r\n\r\n';
    let { port } = await start();
    expect((await raw(port, request)).text.toLowerCase()).not.toContain('strict-transport-security');
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    ({ port } = await start({ trustProxy: 1 }));
    expect((await raw(port, request)).text.toLowerCase()).toContain('strict-transport-security: max-age=');
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    ({ port } = await start({ siteUrl: 'https://codetally.example' }));
    expect((await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).text.toLowerCase()).toContain('strict-transport-security');
  });

  it('closes a connection whose body never finishes, within the request timeout', async () => {
    const { port } = await start({ requestTimeoutMs: 1500 });
    const res = await raw(port, 'POST /main/api/v1/sync/activities HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"activities":', 8000);
    expect(res.closed).toBe(true);
    expect(res.ms).toBeLessThan(1500 + 2500);
    expect(res.text).toMatch(/^HTTP\/1\.1 408|^$/);
  });

  it('lets a data dump upload take longer than the request timeout while it keeps arriving, and closes it once it stalls', async () => {
    const { port } = await start({ requestTimeoutMs: 1000 });
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += d));
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    socket.write('POST /main/api/v1/me/imports HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"days":[');
    // 3 s of a trickle: three times the limit, never 1 s without a byte.
    for (let i = 0; i < 12; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      socket.write(' ');
    }
    expect(socket.destroyed).toBe(false);
    const stalled = Date.now();
    const at = await closed;
    expect(at - stalled).toBeGreaterThanOrEqual(900);
    expect(at - stalled).toBeLessThan(1000 + 1500);
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toContain('request_timeout');
  });

  it('finishes every answer in progress before the server stops, even one whose client has left', async () => {
    let [started, finished] = [false, false];
    server = frontServer(
      async (_req, res) => {
        started = true;
        await new Promise((resolve) => setTimeout(resolve, 500));
        finished = true;
        res.end('{}');
      },
      { trustProxy: 0, requestTimeoutMs: 30_000 },
    );
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1', () => socket.write('POST /api/wakatime/v1/users/current/heartbeats.bulk HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n'));
    socket.on('error', () => {});
    while (!started) await new Promise((resolve) => setTimeout(resolve, 10));
    socket.destroy();
    await stopServing(server, 5000);
    expect(finished).toBe(true);
  });

  it('closes a connection whose body never finishes, within the request timeout', async () => {
    const { port } = await start({ requestTimeoutMs: 1500 });
    const res = await raw(port, 'POST /api/wakatime/v1/users/current/heartbeats.bulk HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[', 8000);
    expect(res.closed).toBe(true);
    expect(res.ms).toBeLessThan(1500 + 2500);
    expect(res.text).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection whose headers never finish', async () => {
    const { port } = await start({ requestTimeoutMs: 1500 });
    const res = await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ', 8000);
    expect(res.closed).toBe(true);
    expect(res.ms).toBeLessThan(1500 + 2500);
  });
});

describe('the public pages, without the client runtime', () => {
  const runtime = '<script src="/_next/static/chunks/a1.js" async=""></script><script>self.__next_f.push([1,"0:{}"])</script>';
  const shell = '<script data-shell="true">1</script>';
  const html = (title: string) => `<!DOCTYPE html><html lang="en"><head>${shell}</head><body><h1>${title}</h1>${runtime}</body></html>`;
  const stripped = (title: string) => `<!DOCTYPE html><html lang="en"><head>${shell}</head><body><h1>${title}</h1></body></html>`;
  const errorShell = `<!DOCTYPE html><html id="__next_error__"><head></head><body>${runtime}</body></html>`;

  /** As Next answers: a page streamed in parts after flushing its head, or sent whole by writeHead and end. */
  const next: Answer = (req, res) => {
    const etag = '"v1"';
    if (req.url === '/u/ada') {
      res.statusCode = 200;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('etag', etag);
      res.flushHeaders();
      const page = html('Ada');
      res.write(page.slice(0, 40));
      setTimeout(() => res.end(Buffer.from(page.slice(40))), 10);
    } else if (req.url === '/_not-found') {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html('Not found'));
    } else if (req.url === '/u/nobody' || req.url === '/u/private') {
      res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(errorShell.length) });
      res.end(errorShell);
    } else if (req.url === '/u/ada/opengraph-image') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '4' });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    } else {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag, vary: 'Accept-Encoding' });
      res.end(html(req.url!));
    }
  };

  const get = (port: number, path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });

  it('sends a public page without Next\'s scripts, its own kept, compressed here when the client takes gzip', async () => {
    const { port, seen } = await start({}, next);
    for (const path of ['/u/ada', '/docs']) {
      const plain = await get(port, path);
      expect([path, plain.status, plain.body.toString()]).toEqual([path, 200, stripped(path === '/docs' ? '/docs' : 'Ada')]);
      expect(plain.headers['content-length']).toBe(String(plain.body.length));
      expect(plain.headers['content-encoding']).toBeUndefined();
      const zipped = await get(port, path, { 'accept-encoding': 'br, gzip' });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers['content-length']).toBe(String(zipped.body.length));
      expect(zlib.gunzipSync(zipped.body).toString()).toBe(plain.body.toString());
      expect(zipped.headers.etag).toBe('"v1"');
    }
    // Next is asked for the page uncompressed: the front compresses what it rewrote.
    expect(seen.map((s) => s.headers['accept-encoding'])).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('sends the not-found page rendered on the server for a 404 whose body only the browser would fill in, asking for it once', async () => {
    const { port, seen } = await start({}, next);
    for (const path of ['/u/nobody', '/u/private']) {
      const missing = await get(port, path);
      expect([path, missing.status, missing.body.toString()]).toEqual([path, 404, stripped('Not found')]);
    }
    expect(seen.filter((s) => s.url === '/_not-found')).toHaveLength(1);
  });

  it('leaves a page that needs its scripts as Next made it when there is no not-found page to send', async () => {
    const { port } = await start({}, (req, res) => (req.url === '/_not-found' ? res.writeHead(500).end() : next(req, res)));
    const missing = await get(port, '/u/nobody');
    expect([missing.status, missing.body.toString()]).toEqual([404, errorShell]);
  });

  it('answers a conditional GET of a page it has with 304 and no body', async () => {
    const { port } = await start({}, next);
    const again = await get(port, '/docs', { 'if-none-match': '"v1"', 'accept-encoding': 'gzip' });
    expect([again.status, again.body.length]).toEqual([304, 0]);
  });

  it('passes on untouched what is no public page\'s HTML: an image, other pages, HEAD, the router\'s requests', async () => {
    const { port, seen } = await start({}, next);
    const image = await get(port, '/u/ada/opengraph-image', { 'accept-encoding': 'gzip' });
    expect([image.status, image.headers['content-type'], image.headers['content-length'], image.body.length]).toEqual([200, 'image/png', '4', 4]);
    for (const [path, headers] of [['/dashboard', {}], ['/pricing', { rsc: '1' }]] as const) {
      const res = await get(port, path, { 'accept-encoding': 'gzip', ...headers });
      expect([path, res.body.toString()]).toEqual([path, html(path)]);
    }
    expect(seen.slice(-2).map((s) => s.headers['accept-encoding'])).toEqual(['gzip', 'gzip']);
    const head = await new Promise<http.IncomingMessage>((resolve) => http.request({ host: '127.0.0.1', port, path: '/pricing', method: 'HEAD' }, resolve).end());
    expect(head.statusCode).toBe(200);
    expect(seen.at(-1)!.method).toBe('HEAD');
  });
});
