import http from 'node:http';
import net from 'node:net';
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
