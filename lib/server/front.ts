import http from 'node:http';
import type { Duplex } from 'node:stream';
import { isApiPath } from '../http/api-paths';
import { UNSUPPORTED_METHOD_HEADER } from '../http/methods';
import { problemBody } from '../http/problem';
import { dataHeaders, everyAnswerHeaders } from '../http/site-headers';

// The HTTP server in front of Next's request handler (scripts/serve.ts): what a server in front
// of a framework is for, and nothing that touches an answer Next makes (decision 0020). On a
// serverless host (Vercel) the platform's edge stands here instead; what differs is listed in
// docs/hosts.md and tested on both (TEST_HOST=next). It takes:
// - time limits: a client gets 10 s to send its headers and HTTP_REQUEST_TIMEOUT_SECONDS (30)
//   for the whole request, so a half-sent body cannot hold a connection (Node's defaults are 60 s
//   and 300 s); an upload of a data dump (gigabytes) may take longer as long as it never stalls
//   that long;
// - a path whose percent-encoding is malformed: 404 (Next would fail rendering its 400 page);
// - a target in absolute form (`GET http://host/path`), which only a proxy takes: 400 (Next would
//   redirect to the host it names);
// - OPTIONS of a page (or of a route outside the API): 204 with Allow (Next answers 405 without
//   one);
// - methods Next cannot carry (TRACE, CONNECT, WebDAV's...): a 405 problem, never a 500. Under
//   the API they go to the route's OPTIONS with a header naming them, so the route answers the
//   405 with its own Allow (lib/http/methods.ts). Pages take GET, HEAD and POST (server actions)
//   only;
// - the client's address and the site's host: X-Forwarded-* headers are replaced with what the
//   socket says unless `trustProxy` proxies stand in front, whose entries are kept;
// - HSTS on answers to requests that came over HTTPS (browsers ignore it over HTTP anyway);
// - a stop that waits for every answer in progress, even one whose client has left, before the
//   process closes its database (stopServing).

const HEADERS_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

const nextMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** What pages (and the few route handlers outside the API) answer. */
const pageMethods = 'GET, HEAD, POST';
const pageMethodSet = new Set(pageMethods.split(', '));
/** Where a body may take longer than the request limit while it keeps arriving: data dump uploads. */
const uploadPaths = new Set(['/main/api/v1/me/imports']);

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void;

function refusal(method: string): string {
  return JSON.stringify(problemBody('method_not_allowed', `${method} is not allowed here; this path allows ${pageMethods}.`));
}

function wellEncoded(url: string | undefined): boolean {
  try {
    decodeURIComponent((url ?? '/').split('?')[0]);
    return true;
  } catch {
    return false;
  }
}

/** Whether the request names its target as a server takes it: a path, or `*` for OPTIONS (RFC 9112 3.2). */
function originForm(req: http.IncomingMessage): boolean {
  const target = req.url ?? '/';
  return target.startsWith('/') || (target === '*' && req.method === 'OPTIONS');
}

/**
 * The request's path with dot segments resolved, as Next routes it, or null when it is none (the
 * target is read as a path even when it starts with `//`, which a URL parser would take for a host).
 */
export function routedPath(target: string | undefined): string | null {
  const pathOnly = (target ?? '/').split('?')[0];
  try {
    return new URL(`http://front${pathOnly.startsWith('/') ? '' : '/'}${pathOnly}`).pathname;
  } catch {
    return null;
  }
}

/** The site's headers of a problem+json answer (lib/http/site-headers.ts), and no-store. */
const problemHeaders = { ...everyAnswerHeaders, ...dataHeaders, 'content-type': 'application/problem+json', 'cache-control': 'no-store' };

function answer(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, ...problemHeaders });
  res.end(body);
}

function setForwarded(req: http.IncomingMessage, trustProxy: number): void {
  const peer = req.socket.remoteAddress ?? 'unknown';
  const headers = req.headers;
  if (trustProxy > 0) {
    headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${peer}` : peer;
    return;
  }
  headers['x-forwarded-for'] = peer;
  headers['x-forwarded-proto'] = 'http';
  if (headers.host) headers['x-forwarded-host'] = headers.host;
  else delete headers['x-forwarded-host'];
  delete headers['x-forwarded-port'];
}

const hsts = 'max-age=63072000';

/** Whether the client reached the site over HTTPS: its own site URL says so, or a trusted proxy does. */
function overHttps(req: http.IncomingMessage, options: FrontOptions): boolean {
  if (options.siteUrl?.startsWith('https:')) return true;
  const proto = req.headers['x-forwarded-proto'];
  return options.trustProxy > 0 && typeof proto === 'string' && proto.split(',').pop()?.trim() === 'https';
}

export interface FrontOptions {
  /** How many reverse proxies in front are believed (TRUST_PROXY). */
  trustProxy: number;
  /** SITE_URL, if set. */
  siteUrl?: string;
  /** The longest a client may take to send a whole request (HTTP_REQUEST_TIMEOUT_SECONDS). */
  requestTimeoutMs: number;
}

/**
 * Answers 408 and closes the connection when the request's body has not arrived whole within
 * `limitMs`, or, for an upload, when none of it has arrived for that long.
 */
function limitRequestTime(req: http.IncomingMessage, res: http.ServerResponse, limitMs: number, upload: boolean): void {
  let seen = req.socket.bytesRead;
  const check = () => {
    if (req.complete || res.writableEnded || req.socket.destroyed) return;
    if (upload && req.socket.bytesRead > seen) {
      seen = req.socket.bytesRead;
      timer = setTimeout(check, limitMs).unref();
      return;
    }
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    res.setHeader('connection', 'close');
    const detail = upload ? 'The upload stalled: nothing of it arrived for too long.' : 'The request did not arrive whole in time.';
    res.writeHead(408, problemHeaders);
    res.end(JSON.stringify(problemBody('request_timeout', detail)), () => req.socket.destroy());
  };
  let timer = setTimeout(check, limitMs).unref();
  res.once('close', () => clearTimeout(timer));
}

/** The answers this process is working on, whether or not their client is still there. */
const working = new Set<Promise<void>>();

function tracked(work: Promise<void> | void): void {
  if (!(work instanceof Promise)) return;
  const done: Promise<void> = work.then(
    () => {},
    () => {},
  ).finally(() => working.delete(done));
  working.add(done);
}

/**
 * Stops `server` as a process must before it closes its database: no new connections, the idle
 * ones closed, then a wait (up to `graceMs`) for every answer in progress, including those whose
 * client has left (its writes still commit, and are announced to the other processes only while
 * the database is open).
 */
export async function stopServing(server: http.Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const finished = (async () => {
    await closed;
    while (working.size > 0) await Promise.all(working);
  })();
  await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  server.closeAllConnections();
}

/** The server that hands requests to Next (`handle`), within the limits above. */
export function frontServer(handle: Handler, options: FrontOptions): http.Server {
  const server = http.createServer(
    {
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, options.requestTimeoutMs),
      // The whole request's limit is kept per request (limitRequestTime): uploads differ.
      requestTimeout: 0,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      // How often Node checks those limits (default 30 s, which would stretch them).
      connectionsCheckingInterval: Math.min(1_000, options.requestTimeoutMs),
    },
    (req, res) => {
      setForwarded(req, options.trustProxy);
      if (overHttps(req, options)) res.setHeader('strict-transport-security', hsts);
      if (!originForm(req)) {
        answer(res, 400, JSON.stringify(problemBody('invalid_target', 'The request target is a full URL (absolute form), which only a proxy takes: send the path alone.')));
        return;
      }
      if (!wellEncoded(req.url)) {
        answer(res, 404, JSON.stringify(problemBody('not_found', 'No such page: the path is not valid percent-encoded UTF-8.')));
        return;
      }
      const method = req.method ?? 'GET';
      // The path as Next routes it (dot segments resolved): `/main/api/../x` is a page.
      const path = routedPath(req.url);
      if (path === null) {
        answer(res, 404, JSON.stringify(problemBody('not_found', 'No such page: the path is not a valid path.')));
        return;
      }
      if (!req.complete) limitRequestTime(req, res, options.requestTimeoutMs, method === 'POST' && uploadPaths.has(path));
      const api = isApiPath(path); // the API's routes, every WakaTime alias included; the rest are pages
      // OPTIONS of a page is answered here: Next fails it (500) on a route it caches.
      if (!api && method === 'OPTIONS') {
        res.writeHead(204, { allow: pageMethods, 'cache-control': 'no-store' });
        res.end();
        return;
      }
      if (api ? nextMethods.has(method) : pageMethodSet.has(method)) {
        delete req.headers[UNSUPPORTED_METHOD_HEADER];
      } else if (api) {
        req.headers[UNSUPPORTED_METHOD_HEADER] = method;
        req.method = 'OPTIONS';
      } else {
        answer(res, 405, refusal(method), { allow: pageMethods });
        return;
      }
      tracked(handle(req, res));
    },
  );
  // CONNECT asks for a tunnel, which this server never opens.
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    const body = refusal('CONNECT');
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${pageMethods}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
