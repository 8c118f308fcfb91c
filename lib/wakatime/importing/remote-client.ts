import { outboundBytes, OutboundError, type OutboundPolicy } from '../../http/outbound';
import { remoteText } from '../../text';
import { MAX_DUMP_USER_AGENTS } from './dump-origins';
import { basicAuth } from '../api-key';
import { readMachineNamesPage, readUserAgentsPage, type ListPage } from './user-agents-fetch';

// What an import by key (lib/wakatime/importing/remote.ts) asks another server: WakaTime's API or a
// compatible one (Wakapi, Hackatime, another Codetally), with the user's key as wakatime-cli sends
// it (Basic, base64 of the key), through lib/http/outbound.ts only (its address rules, no redirect
// off the allowed hosts, a deadline and a size for every answer), at a polite pace. The key lives
// in this object for the run and nowhere else: what fails says what the other server answered (its
// status and a short reason, with the key cut out should the server echo it), never the key.

/** Each answer's deadline and size (a day of heartbeats is a few MB; lists are smaller). */
const REQUEST_TIMEOUT_MS = 30_000;
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** The longest reason kept from another server's answer. */
const MAX_REASON = 200;
/** At most so many pages of one list (User-Agents, machine names). */
const MAX_LIST_PAGES = 20;

/** The wait between two requests to the same server (tests shorten it). */
export const pace = { ms: 250 };

/** Why an import by key stopped, in words for its owner (never the key). */
export class RemoteError extends Error {
  constructor(
    message: string,
    /** The other server's status, when it answered one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}

export class RemoteServer {
  private last = 0;

  constructor(
    /** The API's base, without a trailing slash (…/api/v1). */
    readonly base: string,
    private readonly key: string,
    private readonly policy: OutboundPolicy,
    /** How the server is named in errors ("WakaTime", "the server"). */
    readonly name: string,
  ) {}

  /** The key cut out of a text another server sent (should it echo it back). */
  scrub(text: string): string {
    const forms = [this.key, Buffer.from(this.key).toString('base64')].filter((f) => f.length >= 4);
    let out = text;
    for (const form of forms) out = out.split(form).join('…');
    return out;
  }

  /** A short reason from an answer's body: its `error`, `message` or `detail`, else nothing. */
  private reason(body: Buffer): string {
    let said = '';
    try {
      const parsed = JSON.parse(body.subarray(0, 64 * 1024).toString('utf8')) as Record<string, unknown>;
      const value = parsed?.error ?? parsed?.message ?? parsed?.detail ?? parsed?.title;
      if (typeof value === 'string') said = value;
      else if (Array.isArray(parsed?.errors) && typeof parsed.errors[0] === 'string') said = parsed.errors[0];
    } catch {
      // Not JSON: no reason beyond the status.
    }
    return remoteText(this.scrub(remoteText(said)), MAX_REASON);
  }

  private async wait(): Promise<void> {
    const left = this.last + pace.ms - Date.now();
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    this.last = Date.now();
  }

  /** The answer's status and body, whatever the status; an OutboundError becomes a RemoteError naming the host only. */
  async ask(path: string, init: { method?: 'GET' | 'POST'; json?: unknown } = {}): Promise<{ status: number; body: Buffer }> {
    await this.wait();
    try {
      const answer = await outboundBytes(`${this.base}/${path}`, this.policy, {
        method: init.method ?? 'GET',
        headers: {
          authorization: basicAuth(this.key),
          accept: 'application/json',
          'user-agent': 'Codetally-import',
          ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
        timeoutMs: REQUEST_TIMEOUT_MS,
        maxBytes: MAX_ANSWER_BYTES,
      });
      return { status: answer.status, body: answer.body };
    } catch (err) {
      if (err instanceof OutboundError) throw new RemoteError(`${this.name} could not be asked: ${err.message}.`);
      throw err;
    }
  }

  /** The JSON of a 2xx answer; any other answer fails, saying its status and reason. */
  async json(path: string, init: { method?: 'GET' | 'POST'; json?: unknown } = {}): Promise<unknown> {
    const { status, body } = await this.ask(path, init);
    if (status < 200 || status > 299) throw this.refusal(status, body);
    try {
      return JSON.parse(body.toString('utf8'));
    } catch {
      throw new RemoteError(`${this.name}'s answer to ${path.split('?')[0]} is not JSON: is this its API's address?`, status);
    }
  }

  /** What a refusal says to its owner. */
  refusal(status: number, body: Buffer): RemoteError {
    const reason = this.reason(body);
    const said = reason ? ` (${reason})` : '';
    if (status === 401 || status === 403) return new RemoteError(`${this.name} refused the key: it answered ${status}${said}. Nothing more was imported.`, status);
    return new RemoteError(`${this.name} answered ${status}${said}.`, status);
  }

  /** One of the user's lists of ids (users/current/user_agents or machine_names), every page; a server without it: none. */
  async list(which: 'user_agents' | 'machine_names'): Promise<unknown[]> {
    const read: (body: unknown) => ListPage<unknown> | null = which === 'user_agents' ? readUserAgentsPage : readMachineNamesPage;
    const found: unknown[] = [];
    for (let page = 1; page <= MAX_LIST_PAGES; page++) {
      const { status, body } = await this.ask(`users/current/${which}?page=${page}`);
      // Not every compatible server keeps these lists: its heartbeats then name editors themselves.
      if (status === 404 || status === 405 || status === 501) return found;
      if (status < 200 || status > 299) throw this.refusal(status, body);
      let listed: ListPage<unknown> | null = null;
      try {
        listed = read(JSON.parse(body.toString('utf8')));
      } catch {
        // Not JSON: as not a list.
      }
      if (!listed) return found;
      found.push(...listed.entries);
      if (page >= listed.totalPages || listed.entries.length === 0 || found.length >= MAX_DUMP_USER_AGENTS) break;
    }
    return found;
  }
}
