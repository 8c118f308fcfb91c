import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { resetConfig } from '../../lib/config';

// A stand-in for WakaTime's API on a random local port: it answers GET
// /users/current/user_agents?page=N and /users/current/machine_names?page=N to the one key it knows
// (Basic base64(key), as wakatime-cli sends it), and whatever a test makes it answer instead. It
// records what it was asked.
//
// With a data dump set (`setDump`), it serves WakaTime's data dumps API as its documentation and
// the clients built on it describe it: POST /users/current/data_dumps `{type: "heartbeats"}` ->
// 201 `{data: dump}` (or 400 when told to refuse, as WakaTime sometimes does by key), GET
// /users/current/data_dumps -> `{data: [dump], total_pages}`, the dump `Processing coding
// activity...` with a growing `percent_complete` and `is_processing` for a few reads, then
// `Completed` with its `download_url`, served by the stand-in itself at /dumps/{id}.json (no key:
// a real link is signed).

export interface StandInRequest {
  path: string;
  page: number;
  authorization: string | undefined;
  method?: string;
  /** The path with its query. */
  fullPath?: string;
}

/** A data dump the stand-in prepares: the file's text, how many list reads before it is Completed, whether creating one is refused. */
export interface StandInDump {
  file: string;
  readsUntilReady?: number;
  refuseCreate?: boolean;
}

/** What the stand-in answers a request: a status and a body (a string as is, anything else as JSON). */
export type StandInAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang' | 'drop';

export interface StandIn {
  url: string;
  /** The stand-in's origin (http://127.0.0.1:port). */
  origin: string;
  requests: StandInRequest[];
  /** Serves the data dumps API with this dump (null: none). */
  setDump: (dump: StandInDump | null) => void;
  /** Where the current dump's file is served (a link a user would paste). */
  readonly dumpFileUrl: string;
  /** Answers from now on; by default the pages of `pages` to `key`, 401 to any other. */
  answer: (fn: ((req: StandInRequest) => StandInAnswer) | null) => void;
  close: () => Promise<void>;
}

/** Starts the stand-in: `pages`, the `data` of each page of User-Agents WakaTime would answer `key`; `machinePages`, of machine names. */
export async function startWakatimeStandIn(key: string, pages: unknown[][], machinePages: unknown[][] = [[]]): Promise<StandIn> {
  const requests: StandInRequest[] = [];
  let custom: ((req: StandInRequest) => StandInAnswer) | null = null;
  const basic = `Basic ${Buffer.from(key).toString('base64')}`;
  let dump: StandInDump | null = null;
  let dumpId = 0;
  let reads = 0;
  let created = false;
  let origin = '';
  const dumpState = () => {
    const ready = reads >= (dump?.readsUntilReady ?? 0);
    return {
      id: `dump-${dumpId}`,
      type: 'heartbeats',
      status: ready ? 'Completed' : 'Processing coding activity...',
      percent_complete: ready ? 100 : Math.min(99, Math.round((100 * reads) / Math.max(1, dump?.readsUntilReady ?? 1))),
      download_url: ready ? `${origin}/dumps/dump-${dumpId}.json` : null,
      is_processing: !ready,
      is_stuck: false,
      has_failed: false,
      expires: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      created_at: new Date().toISOString(),
    };
  };
  const dumps = (req: StandInRequest): StandInAnswer | null => {
    if (req.path.startsWith('/dumps/') && req.path.endsWith('.json')) {
      return dump ? { status: 200, body: dump.file } : { status: 404, body: { error: 'Not found' } };
    }
    if (req.path !== '/api/v1/users/current/data_dumps') return null;
    if (req.authorization !== basic) return { status: 401, body: { error: 'Unauthorized' } };
    if (req.method === 'POST') {
      if (!dump || dump.refuseCreate) return { status: 400, body: { error: 'Export already in progress, or not allowed by API key.' } };
      dumpId++;
      reads = 0;
      created = true;
      return { status: 201, body: { data: dumpState() } };
    }
    if (!created || !dump) return { status: 200, body: { data: [], total_pages: 0 } };
    reads++;
    return { status: 200, body: { data: [dumpState()], total_pages: 1 } };
  };
  const byDefault = (req: StandInRequest): StandInAnswer => {
    const dumpAnswer = dumps(req);
    if (dumpAnswer) return dumpAnswer;
    const list = { '/api/v1/users/current/user_agents': pages, '/api/v1/users/current/machine_names': machinePages }[req.path];
    if (!list) return { status: 404, body: { error: 'Not found' } };
    if (req.authorization !== basic) return { status: 401, body: { error: 'Unauthorized' } };
    const data = list[req.page - 1] ?? [];
    return { status: 200, body: { data, total_pages: list.length, page: req.page } };
  };
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const req: StandInRequest = { path: url.pathname, page: Number(url.searchParams.get('page') ?? '1'), authorization: request.headers.authorization };
    // Known to the tests that ask for them, left out of comparisons of whole requests (not enumerable).
    Object.defineProperties(req, { method: { value: request.method }, fullPath: { value: `${url.pathname}${url.search}` } });
    requests.push(req);
    const answer = (custom ?? byDefault)(req);
    if (answer === 'hang') return;
    if (answer === 'drop') {
      request.socket.destroy();
      return;
    }
    const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    origin,
    requests,
    setDump: (next) => {
      dump = next;
      created = false;
      reads = 0;
    },
    get dumpFileUrl() {
      return `${origin}/dumps/pasted.json`;
    },
    answer: (fn) => (custom = fn),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (one the system just gave and took back). */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/api/v1`;
}

/**
 * The stand-in for a block of tests: started before them with WAKATIME_API_URL pointing at it,
 * back to its own answers and address after each test, closed and the variable restored at the
 * end. `useUrl` points the service elsewhere until the test ends.
 */
export function wakatimeStandInForTests(key: string, pages: unknown[][], machinePages?: unknown[][]): { readonly standIn: StandIn; useUrl: (url: string) => void } {
  const saved = process.env.WAKATIME_API_URL;
  const useUrl = (url: string) => {
    process.env.WAKATIME_API_URL = url;
    resetConfig();
  };
  let standIn: StandIn | undefined;
  beforeAll(async () => {
    standIn = await startWakatimeStandIn(key, pages, machinePages);
    useUrl(standIn.url);
  });
  afterEach(() => {
    standIn!.answer(null);
    standIn!.setDump(null);
    standIn!.requests.length = 0;
    useUrl(standIn!.url);
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await standIn?.close();
    if (saved === undefined) delete process.env.WAKATIME_API_URL;
    else process.env.WAKATIME_API_URL = saved;
    resetConfig();
  });
  return {
    get standIn() {
      return standIn!;
    },
    useUrl,
  };
}
