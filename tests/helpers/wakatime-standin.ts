import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { resetConfig } from '../../lib/config';

// A stand-in for WakaTime's API on a random local port: it answers GET
// /users/current/user_agents?page=N and /users/current/machine_names?page=N to the one key it knows
// (Basic base64(key), as wakatime-cli sends it), and whatever a test makes it answer instead. It
// records what it was asked.

export interface StandInRequest {
  path: string;
  page: number;
  authorization: string | undefined;
}

/** What the stand-in answers a request: a status and a body (a string as is, anything else as JSON). */
export type StandInAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang' | 'drop';

export interface StandIn {
  url: string;
  requests: StandInRequest[];
  /** Answers from now on; by default the pages of `pages` to `key`, 401 to any other. */
  answer: (fn: ((req: StandInRequest) => StandInAnswer) | null) => void;
  close: () => Promise<void>;
}

/** Starts the stand-in: `pages`, the `data` of each page of User-Agents WakaTime would answer `key`; `machinePages`, of machine names. */
export async function startWakatimeStandIn(key: string, pages: unknown[][], machinePages: unknown[][] = [[]]): Promise<StandIn> {
  const requests: StandInRequest[] = [];
  let custom: ((req: StandInRequest) => StandInAnswer) | null = null;
  const basic = `Basic ${Buffer.from(key).toString('base64')}`;
  const byDefault = (req: StandInRequest): StandInAnswer => {
    const list = { '/api/v1/users/current/user_agents': pages, '/api/v1/users/current/machine_names': machinePages }[req.path];
    if (!list) return { status: 404, body: { error: 'Not found' } };
    if (req.authorization !== basic) return { status: 401, body: { error: 'Unauthorized' } };
    const data = list[req.page - 1] ?? [];
    return { status: 200, body: { data, total_pages: list.length, page: req.page } };
  };
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const req = { path: url.pathname, page: Number(url.searchParams.get('page') ?? '1'), authorization: request.headers.authorization };
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
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    requests,
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
