import { attemptPolicies, takeAttempt } from '../../auth/attempts';
import { config } from '../../config';
import type { Db } from '../../db/client';
import { isUuid } from '../../ids';
import { ApiError } from '../../http/problem';
import { MAX_DUMP_USER_AGENTS } from './dump-origins';
import { basicAuth } from '../api-key';

// The User-Agents of a user on WakaTime, asked once at an import (POST /me/imports with
// X-WakaTime-Api-Key). A WakaTime data dump names each heartbeat's User-Agent by `user_agent_id`
// only, without the list those ids stand for: without it an imported history's editors and
// systems are Unknown. WakaTime serves the list (GET /users/current/user_agents) to the key's
// owner; it is read before the upload is taken (a refused key or a WakaTime that does not answer
// fails the request, nothing kept) and stored with the import for its reader
// (lib/wakatime/importing/dump-origins.ts). The key is used for this one request and never stored nor logged.
// Its machine names (GET /users/current/machine_names) are asked at the same time, alike: a dump's
// heartbeats name their machine by `machine_name_id` only, and without the names every imported
// day's machine is Unknown.
//
// Bounded whatever WakaTime answers: at most MAX_PAGES pages of at most MAX_ANSWER_BYTES each,
// within TIMEOUT_MS in all (a hard end: the look-up is given up at that moment whatever the
// connection does), and at most MAX_DUMP_USER_AGENTS entries of short strings; and whatever a user
// asks: at most attemptPolicies.wakatimeLookup look-ups an hour per user (lookUpUserAgents).

/** The request header that carries the user's WakaTime API key. */
export const WAKATIME_KEY_HEADER = 'X-WakaTime-Api-Key';
/** The longest the whole look-up may take (every page). */
export const TIMEOUT_MS = 10_000;
/** The most pages read (a user has tens of User-Agents: one page). */
export const MAX_PAGES = 5;
/** The largest answer read of one page (an entry is a few hundred bytes). */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const MAX_ID = 128;
const MAX_VALUE = 1024;
const MAX_NAME = 256;

/** What is kept of one User-Agent: what a dump's own list holds. */
export interface FetchedUserAgent {
  id: string;
  value: string | null;
  editor: string | null;
  os: string | null;
}

/** One machine as WakaTime names it (GET users/current/machine_names): what a heartbeat's `machine_name_id` stands for. */
export interface FetchedMachineName {
  id: string;
  name: string;
}

/** One page of WakaTime's answer, read: null when it is not that API's answer at all. */
export interface ListPage<T> {
  entries: T[];
  totalPages: number;
}
export type UserAgentsPage = ListPage<FetchedUserAgent>;

const badKey = (rule: string) => {
  const message = `${WAKATIME_KEY_HEADER}: ${rule}`;
  return new ApiError('invalid_header', `${message}. Nothing was imported.`, { errors: [{ path: WAKATIME_KEY_HEADER, code: 'invalid_header', message }] });
};

const unavailable = (why: string) =>
  new ApiError('wakatime_unavailable', `${why}: nothing was imported. Try again later, or import without ${WAKATIME_KEY_HEADER} (editors the dump names only by id then show as Unknown).`);

/**
 * The WakaTime key a request carries, when it carries one (an empty header is none, as a form
 * field left blank); a value that cannot be a WakaTime key is refused before anything is asked.
 */
export function wakatimeKeyOf(request: Request): string | null {
  const value = request.headers.get(WAKATIME_KEY_HEADER)?.trim();
  if (!value) return null;
  const uuid = value.toLowerCase().startsWith('waka_') ? value.slice(5) : value;
  if (!isUuid(uuid)) throw badKey('not a WakaTime API key (waka_ and a UUID, or a UUID: wakatime.com, Settings, API Key)');
  return value;
}

const text = (v: unknown, max: number): string | null => (typeof v === 'string' && v.length <= max ? v : null);

/**
 * Reads one page of WakaTime's answer (`{"data": [{id, value, editor, os, ...}], "total_pages"}`):
 * entries that are not User-Agents are left out, and what is kept of each is its id, User-Agent,
 * editor and system, short strings. Null when the answer is not a list of them at all.
 */
export function readUserAgentsPage(body: unknown): UserAgentsPage | null {
  return readPage(body, (entry, id) => {
    const { value, editor, os } = entry;
    return { id, value: text(value, MAX_VALUE), editor: text(editor, MAX_NAME), os: text(os, MAX_NAME) };
  });
}

/**
 * Reads one page of WakaTime's machine names (`{"data": [{id, name, value, ...}]}`): each id with
 * its name (`name`, else `value`, the hostname), a short string; entries without one are left out.
 */
export function readMachineNamesPage(body: unknown): ListPage<FetchedMachineName> | null {
  return readPage(body, (entry, id) => {
    const name = text(entry.name, MAX_NAME)?.trim() || text(entry.value, MAX_NAME)?.trim();
    return name ? { id, name } : null;
  });
}

/** A page of one of WakaTime's lists of entries with ids, each entry read by `read` (null: left out). */
function readPage<T>(body: unknown, read: (entry: Record<string, unknown>, id: string) => T | null): ListPage<T> | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { data, total_pages: pages } = body as Record<string, unknown>;
  if (!Array.isArray(data)) return null;
  const entries: T[] = [];
  for (const entry of data) {
    if (entries.length >= MAX_DUMP_USER_AGENTS) break;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
    const { id } = entry as Record<string, unknown>;
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID) continue;
    const found = read(entry as Record<string, unknown>, id);
    if (found) entries.push(found);
  }
  const totalPages = typeof pages === 'number' && Number.isInteger(pages) && pages > 0 ? pages : 1;
  return { entries, totalPages };
}

/** One of the lists an import reads from WakaTime: its path under users/current, how a page is read, what it is called in the log and in a refusal. */
interface List<T> {
  path: string;
  read: (body: unknown) => ListPage<T> | null;
  what: string;
}

const userAgentsList: List<FetchedUserAgent> = { path: 'user_agents', read: readUserAgentsPage, what: 'User-Agents' };
const machineNamesList: List<FetchedMachineName> = { path: 'machine_names', read: readMachineNamesPage, what: 'machine names' };

/** The body of an answer, up to MAX_ANSWER_BYTES; null past it. */
async function boundedBody(res: Response): Promise<Uint8Array | null> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_ANSWER_BYTES) {
    await res.body?.cancel();
    return null;
  }
  if (!res.body) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) return null;
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

/** Why a look-up failed, for the server's log: never the key, never WakaTime's words. */
const logFailure = (why: string, what: string) => console.warn(`[codetally] reading an import's ${what} from WakaTime failed: ${why}`);

/** One page of one of the user's lists on WakaTime. */
async function fetchPage<T>(base: string, key: string, list: List<T>, page: number, signal: AbortSignal, timeoutMs: number): Promise<ListPage<T>> {
  const log = (why: string) => logFailure(why, list.what);
  let res: Response;
  try {
    res = await fetch(`${base}/users/current/${list.path}?page=${page}`, {
      // As wakatime-cli sends it: Basic with base64(key) as the credentials.
      headers: { authorization: basicAuth(key), accept: 'application/json' },
      // A redirect is not WakaTime's API answering: the key is sent to no other place.
      redirect: 'error',
      signal,
    });
  } catch (err) {
    const timedOut = signal.aborted;
    log(timedOut ? 'no answer in time' : `not reachable (${(err as Error)?.name ?? 'error'})`);
    throw unavailable(timedOut ? `WakaTime did not answer within ${timeoutMs / 1000} seconds` : 'WakaTime could not be reached');
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    throw badKey(`WakaTime refused this key (${res.status}): send your own WakaTime API key, as wakatime.com shows it (Settings, API Key)`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    log(`answered ${res.status}`);
    throw unavailable(`WakaTime answered ${res.status}`);
  }
  let bytes: Uint8Array | null;
  try {
    bytes = await boundedBody(res);
  } catch {
    log(signal.aborted ? 'no whole answer in time' : 'the answer was cut short');
    throw unavailable(signal.aborted ? `WakaTime did not answer within ${timeoutMs / 1000} seconds` : 'WakaTime\'s answer was cut short');
  }
  let read: ListPage<T> | null = null;
  if (bytes) {
    try {
      read = list.read(JSON.parse(Buffer.from(bytes).toString('utf8')));
    } catch {
      // Not JSON: not its API's answer.
    }
  }
  if (!read) {
    log(bytes ? `the answer is not a list of ${list.what}` : `the answer is over ${MAX_ANSWER_BYTES} bytes`);
    throw unavailable(`WakaTime's answer was not the list of your ${list.what}`);
  }
  return read;
}

/**
 * The user's User-Agents on WakaTime (WAKATIME_API_URL), every page up to MAX_PAGES, at most
 * MAX_DUMP_USER_AGENTS, each id once (the first). Throws 400 `invalid_header` when WakaTime
 * refuses the key, 502 `wakatime_unavailable` when it cannot be reached, fails, or answers
 * anything else, or has not answered whole within `timeoutMs` (for the whole look-up; tests
 * shorten it): the promise settles by then, whatever the connection does, and the request is aborted.
 */
export function fetchUserAgents(key: string, timeoutMs = TIMEOUT_MS): Promise<FetchedUserAgent[]> {
  return fetchList(key, userAgentsList, timeoutMs);
}

/** The user's machine names on WakaTime, as fetchUserAgents reads the User-Agents (the same bounds and refusals). */
export function fetchMachineNames(key: string, timeoutMs = TIMEOUT_MS): Promise<FetchedMachineName[]> {
  return fetchList(key, machineNamesList, timeoutMs);
}

async function fetchList<T extends { id: string }>(key: string, list: List<T>, timeoutMs: number): Promise<T[]> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      logFailure('no whole answer in time', list.what);
      reject(unavailable(`WakaTime did not answer within ${timeoutMs / 1000} seconds`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([allPages(key, list, controller.signal, timeoutMs), deadline]);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/**
 * The user's User-Agents and machine names (fetchUserAgents, fetchMachineNames, asked at once)
 * within the user's budget of look-ups (attemptPolicies.wakatimeLookup: 429 with Retry-After past
 * it, nothing asked of WakaTime): each look-up counts once, answered or not. Either failing fails it.
 */
export async function lookUpOrigins(db: Db, userId: string, key: string): Promise<{ userAgents: FetchedUserAgent[]; machineNames: FetchedMachineName[] }> {
  await takeAttempt(db, [{ policy: attemptPolicies.wakatimeLookup, subject: `user:${userId}` }]);
  const [userAgents, machineNames] = await Promise.all([fetchUserAgents(key), fetchMachineNames(key)]);
  return { userAgents, machineNames };
}

async function allPages<T extends { id: string }>(key: string, list: List<T>, signal: AbortSignal, timeoutMs: number): Promise<T[]> {
  const base = config().WAKATIME_API_URL;
  const found = new Map<string, T>();
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { entries, totalPages } = await fetchPage(base, key, list, page, signal, timeoutMs);
    for (const entry of entries) {
      if (found.size >= MAX_DUMP_USER_AGENTS) break;
      if (!found.has(entry.id)) found.set(entry.id, entry);
    }
    if (page >= totalPages || found.size >= MAX_DUMP_USER_AGENTS || entries.length === 0) break;
  }
  return [...found.values()];
}
