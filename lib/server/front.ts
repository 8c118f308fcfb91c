import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import zlib from 'node:zlib';
import { UNSUPPORTED_METHOD_HEADER } from '../http/methods';
import { problemBody } from '../http/problem';
import { matchesEtag } from '../http/public';
import { dataHeaders, everyAnswerHeaders } from '../http/site-headers';
import { isPublicPage, renderedInBrowser, withoutRuntime } from '../web/public-pages';

// The HTTP server in front of Next's request handler (scripts/serve.ts). It does what Next
// cannot from inside a route:
// - time limits: a client gets 10 s to send its headers and HTTP_REQUEST_TIMEOUT_SECONDS (30)
//   for the whole request, so a half-sent body cannot hold a connection (Node's defaults are 60 s
//   and 300 s); an upload of a data dump (gigabytes) may take longer as long as it never stalls
//   that long;
// - a path whose percent-encoding is malformed: 404 (Next would fail rendering its 400 page);
// - a target in absolute form (`GET http://host/path`), which only a proxy takes: 400 (Next would
//   redirect to the host it names);
// - OPTIONS of a page (or of a route outside the API): 204 with Allow, where Next would fail
//   with a 500 on the routes it caches;
// - methods Next cannot carry (TRACE, CONNECT, WebDAV's...): a 405 problem, never a 500. Under
//   the API they go to the route's OPTIONS with a header naming them, so the route answers the
//   405 with its own Allow (lib/http/methods.ts). Pages take GET, HEAD and POST (server actions)
//   only, and a 405 of Next's own gets its Allow header;
// - the client's address and the site's host: X-Forwarded-* headers are replaced with what the
//   socket says unless `trustProxy` proxies stand in front, whose entries are kept;
// - HSTS on answers to requests that came over HTTPS (browsers ignore it over HTTP anyway);
// - a server action this build does not have (a stale page, a forged header): 404, where Next
//   would answer 500;
// - 304 to a conditional GET of an answer Next serves from its cache (it keeps the ETag but does
//   not compare it);
// - the public pages without Next's client runtime (lib/web/public-pages.ts, decision 0016), and
//   their 404s with the not-found page rendered on the server, which Next leaves to the browser
//   when a page calls notFound();
// - a stop that waits for every answer in progress, even one whose client has left, before the
//   process closes its database (stopServing).

const HEADERS_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

const nextMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Where the route handlers of the API live (the rest are pages and a few routes of Next's). */
const apiPaths = ['/main/api/', '/api/wakatime/'];
/** What pages (and the few route handlers outside the API) answer. */
const pageMethods = 'GET, HEAD, POST';
const pageMethodSet = new Set(pageMethods.split(', '));
/** The only routes Next answers 405 itself: its generated image routes (social images, icons). */
const imageMethods = 'GET, HEAD';
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

/** The ids of the build's server actions, from Next's manifest (null: not known, nothing is checked). */
export function serverActionIds(distDir: string): Set<string> | null {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(distDir, 'server', 'server-reference-manifest.json'), 'utf8')) as { node?: object; edge?: object };
    return new Set([...Object.keys(manifest.node ?? {}), ...Object.keys(manifest.edge ?? {})]);
  } catch {
    return null;
  }
}

export interface FrontOptions {
  /** The build's server action ids (serverActionIds). */
  serverActions?: Set<string> | null;
  /** How many reverse proxies in front are believed (TRUST_PROXY). */
  trustProxy: number;
  /** SITE_URL, if set. */
  siteUrl?: string;
  /** The longest a client may take to send a whole request (HTTP_REQUEST_TIMEOUT_SECONDS). */
  requestTimeoutMs: number;
}

/** Next's own 405 (an image route asked with another method) says nothing of what is allowed: say it. */
function allowOn405(res: http.ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, status: number, ...rest: unknown[]) {
    if (status === 405 && !this.hasHeader('allow')) this.setHeader('allow', imageMethods);
    return (writeHead as (...args: unknown[]) => http.ServerResponse).call(this, status, ...rest);
  } as typeof res.writeHead;
}

/**
 * A 200 with an ETag the client already has becomes 304 with no body (RFC 9110 13.1.2): the
 * answers Next serves from its cache (badges, app/cached-badge) carry their ETag but Next does
 * not compare it; the routes answered per request compare it themselves (lib/http/public.ts).
 */
function notModifiedWhenCurrent(res: http.ServerResponse, ifNoneMatch: string): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, status: number, ...rest: unknown[]) {
    const given = rest.find((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r));
    // Next appends its headers: one value may come as a list of one.
    const etag = [this.getHeader('etag') ?? given?.etag].flat()[0];
    if (status === 200 && typeof etag === 'string' && matchesEtag(ifNoneMatch, etag)) {
      for (const name of ['content-type', 'content-length']) this.removeHeader(name);
      if (given) for (const name of Object.keys(given)) if (/^content-(type|length)$/i.test(name)) delete given[name];
      this.statusMessage = 'Not Modified';
      return (writeHead as (...args: unknown[]) => http.ServerResponse).call(this, 304, ...rest.filter((r) => typeof r !== 'string'));
    }
    return (writeHead as (...args: unknown[]) => http.ServerResponse).call(this, status, ...rest);
  } as typeof res.writeHead;
}

type WriteHead = (...args: unknown[]) => http.ServerResponse;
type Write = (...args: unknown[]) => boolean;
type End = (...args: unknown[]) => http.ServerResponse;

/**
 * The not-found page as Next renders it on the server (for a path no route has), asked of this
 * server once, and again after a failure.
 */
type NotFoundPage = (req: http.IncomingMessage) => Promise<string | null>;

function notFoundPageOf(): NotFoundPage {
  let asked: Promise<string | null> | null = null;
  return async (req) => {
    const { localAddress, localPort } = req.socket;
    const host = localAddress?.includes(':') ? `[${localAddress}]` : localAddress;
    asked ??= fetch(`http://${host}:${localPort}/_not-found`)
      .then(async (res) => {
        const html = res.status === 404 && /^text\/html\b/.test(res.headers.get('content-type') ?? '') ? await res.text() : null;
        return html !== null && !renderedInBrowser(html) ? html : null;
      })
      .catch(() => null);
    const page = await asked;
    if (page === null) asked = null;
    return page;
  };
}

/**
 * A public page as it leaves: without Next's client runtime; a 404 whose body only the browser
 * would fill in (a page called notFound()) gets the not-found page Next renders on the server.
 */
async function publicPage(req: http.IncomingMessage, status: number, html: string, notFoundPage: NotFoundPage): Promise<string> {
  if (status === 404 && renderedInBrowser(html)) html = (await notFoundPage(req)) ?? html;
  return withoutRuntime(html) ?? html;
}

/**
 * A GET of a public page: Next's HTML is held whole, made a public page (publicPage), and
 * compressed here (gzip, when the client takes it) instead of by Next. Anything else Next answers
 * on the path (an image, a redirect, a page that needs its scripts) goes out as Next sends it.
 */
function servedWithoutRuntime(req: http.IncomingMessage, res: http.ServerResponse, notFoundPage: NotFoundPage): void {
  const gzip = /\bgzip\b/i.test(String(req.headers['accept-encoding'] ?? ''));
  delete req.headers['accept-encoding'];
  const original = { writeHead: res.writeHead as WriteHead, write: res.write as Write, end: res.end as End, flushHeaders: res.flushHeaders };
  let state: 'undecided' | 'held' | 'passed' = 'undecided';
  let head: unknown[] | null = null;
  const chunks: Buffer[] = [];
  const decide = (status: number, given?: unknown) => {
    if (state !== 'undecided') return;
    const headers = typeof given === 'object' && given !== null && !Array.isArray(given) ? (given as Record<string, unknown>) : {};
    const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? res.getHeader('content-type');
    state = (status === 200 || status === 404) && /^text\/html\b/.test(String(type ?? '')) ? 'held' : 'passed';
  };
  const chunkOf = (chunk: unknown, encoding: unknown) =>
    typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);

  res.writeHead = function (this: http.ServerResponse, status: number, ...rest: unknown[]) {
    decide(status, rest.find((r) => typeof r === 'object'));
    if (state === 'passed') return original.writeHead.call(this, status, ...rest);
    head = [status, ...rest];
    return this;
  } as typeof res.writeHead;
  res.flushHeaders = function (this: http.ServerResponse) {
    decide(this.statusCode);
    if (state === 'passed') original.flushHeaders.call(this);
  };
  res.write = function (this: http.ServerResponse, chunk: unknown, encoding?: unknown, callback?: unknown) {
    decide(this.statusCode);
    if (state === 'passed') return original.write.call(this, chunk, encoding, callback);
    chunks.push(chunkOf(chunk, encoding));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  } as typeof res.write;
  res.end = function (this: http.ServerResponse, chunk?: unknown, encoding?: unknown, callback?: unknown) {
    decide(this.statusCode);
    if (state === 'passed') return original.end.call(this, chunk, encoding, callback);
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(chunkOf(chunk, encoding));
    const done = [chunk, encoding, callback].find((c) => typeof c === 'function');
    const html = Buffer.concat(chunks).toString('utf8');
    const status = typeof head?.[0] === 'number' ? head[0] : this.statusCode;
    const send = (body: Buffer, encoded: boolean) => {
      state = 'passed';
      // Next's length and encoding were of what it sent, whether set on the response or given to writeHead.
      for (const name of ['content-length', 'content-encoding']) this.removeHeader(name);
      const given = head?.find((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r));
      for (const name of Object.keys(given ?? {})) if (/^content-(length|encoding)$/i.test(name)) delete given![name];
      this.setHeader('content-length', body.length);
      if (encoded) this.setHeader('content-encoding', 'gzip');
      if (head) original.writeHead.call(this, ...head);
      original.end.call(this, body, done);
    };
    // Should making the public page ever fail, Next's page goes out as it is rather than no answer.
    void publicPage(req, status, html, notFoundPage).catch(() => html).then((text) => {
      const page = Buffer.from(text);
      if (gzip) zlib.gzip(page, (err, zipped) => (err ? send(page, false) : send(zipped, true)));
      else send(page, false);
    });
    return this;
  } as typeof res.end;
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
  const notFoundPage = notFoundPageOf();
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
      const api = apiPaths.some((prefix) => path.startsWith(prefix));
      const action = req.headers['next-action'];
      // Under /main/api/ every path is a route handler (a catch-all answers the unknown ones);
      // anywhere else a path that names no route is a page, which Next would run the action on.
      const mayRunAction = !path.startsWith('/main/api/');
      if (mayRunAction && method === 'POST' && typeof action === 'string' && options.serverActions && !options.serverActions.has(action)) {
        answer(res, 404, JSON.stringify(problemBody('not_found', 'No such form action in this version of the site: reload the page.')));
        return;
      }
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
      // Only a POST to one of Next's image routes gets a 405 of Next's own (the hot paths never do).
      if (!api && method === 'POST') allowOn405(res);
      // Before the 304 check below, which then comes first when Next writes its head.
      if (method === 'GET' && !('rsc' in req.headers) && isPublicPage(path)) servedWithoutRuntime(req, res, notFoundPage);
      const ifNoneMatch = req.headers['if-none-match'];
      if (ifNoneMatch && (method === 'GET' || method === 'HEAD')) notModifiedWhenCurrent(res, ifNoneMatch);
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
