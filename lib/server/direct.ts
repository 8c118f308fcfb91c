import type http from 'node:http';
import { Readable } from 'node:stream';
import { errorResponse } from '../http/problem';
import { siteHeaders } from '../http/site-headers';

// Routes the front server (./front.ts) answers itself on a Node host, with the very handlers their
// route files give Next (decision 0017). They are the hot write routes (which: scripts/serve.ts):
// for them Next's routing and request objects cost more CPU than the work itself, and what they
// leave behind brings the major garbage collections that stall requests. Only the methods listed
// come here; any other goes to Next, which answers it as before (405 with Allow, OPTIONS). On
// Vercel there is no front server: the route files serve everything.

type RouteHandler = (request: Request, route: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;

export interface DirectRoute {
  /** The routed path; its named groups are the route's params (percent-decoded, as Next gives them). */
  path: RegExp;
  /** What is answered here, by method. */
  methods: Record<string, RouteHandler>;
}

type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/** The answer of a route served here for this method and routed path, or null (Next's to answer). */
export function directAnswer(routes: readonly DirectRoute[], method: string, path: string): Answer | null {
  for (const { path: pattern, methods } of routes) {
    const match = pattern.exec(path);
    const handler = match && methods[method];
    if (!handler) continue;
    const params: Record<string, string> = {};
    try {
      for (const [name, value] of Object.entries(match.groups ?? {})) if (value !== undefined) params[name] = decodeURIComponent(value);
    } catch {
      return null; // not a name Next would route either: its 404
    }
    return (req, res) => answerWith(handler, params, path, req, res);
  }
  return null;
}

/** The request as a route handler takes it: the front's view of the headers, the body as it streams in. */
function webRequest(req: http.IncomingMessage, path: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const query = req.url?.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
  return new Request(`http://localhost${path}${query}`, {
    method: req.method,
    headers,
    body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
}

async function answerWith(handler: RouteHandler, params: Record<string, string>, path: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  let status: number;
  let headers: Record<string, string>;
  let body: Buffer;
  try {
    const response = await handler(webRequest(req, path), { params: Promise.resolve(params) });
    body = Buffer.from(await response.arrayBuffer());
    status = response.status;
    headers = Object.fromEntries(response.headers);
  } catch (err) {
    // The doors answer every failure themselves: this is a bug, logged by errorResponse.
    const problem = errorResponse(err);
    body = Buffer.from(await problem.arrayBuffer());
    status = problem.status;
    headers = Object.fromEntries(problem.headers);
  }
  // The request timeout may have answered (408) or closed the connection meanwhile.
  if (res.headersSent || res.destroyed) return;
  // What Next would add from the site's configuration, then the handler's own.
  res.writeHead(status, { ...siteHeaders(path), ...headers, 'content-length': String(body.length) });
  res.end(body);
}
