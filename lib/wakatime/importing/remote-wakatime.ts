import fs from 'node:fs/promises';
import { and, eq, inArray } from 'drizzle-orm';
import { config } from '../../config';
import type { Db } from '../../db/client';
import { imports } from '../../db/schema';
import { hostOf, outbound, OutboundError } from '../../http/outbound';
import { dumpStartProblem } from './dump';
import { schedule } from './import-queue';
import { unfinished } from './import-status';
import { pace, RemoteError, RemoteServer } from './remote-client';
import { downloadPolicy, type Touch } from './remote';
import { removeSpool, reserve, spoolDir, spoolFile } from './spool';
import type { FetchedMachineName, FetchedUserAgent } from './user-agents-fetch';

// An import by key from WakaTime (lib/wakatime/importing/remote.ts): its User-Agents and machine
// names read with the key (the editors and machines a dump names only by id), then its heartbeats'
// data dump (GET/POST users/current/data_dumps, type `heartbeats`) asked for and waited for until
// `Completed`, or the download link the user pasted, and the dump downloaded from an
// IMPORT_DOWNLOAD_HOSTS host into the import spool (within IMPORT_MAX_BYTES and the spool's room).
// From there it is an upload's import (lib/wakatime/importing/import-queue.ts): the key is no longer
// needed, and a restart resumes it.

/** How long WakaTime may take to prepare a dump. */
const MAX_DUMP_WAIT_MS = 6 * 3_600_000;
/** How often WakaTime is asked whether the dump is ready (tests shorten it). */
export const dumpPoll = { ms: 15_000 };
/** The download's deadline (a dump can be gigabytes). */
const DOWNLOAD_TIMEOUT_MS = 2 * 3_600_000;
/** How often a download records its progress. */
const PROGRESS_EVERY_MS = 2_000;

const pasteHint = 'On wakatime.com (Settings, Export), export your heartbeats and paste the download link here instead.';

interface Dump {
  id: string;
  type: string;
  status: string;
  percent: number;
  downloadUrl: string | null;
  failed: boolean;
  createdAt: string;
}

function readDump(value: unknown): Dump | null {
  if (typeof value !== 'object' || value === null) return null;
  const d = value as Record<string, unknown>;
  if (typeof d.id !== 'string' && typeof d.id !== 'number') return null;
  return {
    id: String(d.id),
    type: typeof d.type === 'string' ? d.type : '',
    status: typeof d.status === 'string' ? d.status : '',
    percent: typeof d.percent_complete === 'number' && Number.isFinite(d.percent_complete) ? Math.max(0, Math.min(100, d.percent_complete)) : 0,
    downloadUrl: typeof d.download_url === 'string' && d.download_url ? d.download_url : null,
    failed: d.has_failed === true || d.is_stuck === true,
    createdAt: typeof d.created_at === 'string' ? d.created_at : '',
  };
}

const dumpsOf = (body: unknown): Dump[] => {
  const data = (body as { data?: unknown })?.data;
  return (Array.isArray(data) ? data : [data]).map(readDump).filter((d): d is Dump => d !== null && (d.type === '' || d.type === 'heartbeats'));
};

const isDone = (d: Dump) => d.status.toLowerCase() === 'completed' && d.downloadUrl !== null;

/** Asks WakaTime for a dump of the heartbeats and waits until it is ready; answers its download link. */
async function awaitDump(server: RemoteServer, touch: Touch): Promise<string> {
  await touch({ stage: 'Asking WakaTime for a data dump of your heartbeats' });
  const made = await server.ask('users/current/data_dumps', { method: 'POST', json: { type: 'heartbeats', email_when_finished: false } });
  let wanted: string | null = null;
  if (made.status >= 200 && made.status <= 299) {
    try {
      wanted = dumpsOf(JSON.parse(made.body.toString('utf8')))[0]?.id ?? null;
    } catch {
      // Not JSON: the list below says which dump is being made.
    }
  } else if (made.status === 401 || made.status === 403) {
    throw server.refusal(made.status, made.body);
  }
  // Refused (WakaTime makes one dump at a time, and sometimes none by key): one being made, or made
  // already, is taken; else the user is asked for a link.
  const refusal = wanted === null && (made.status < 200 || made.status > 299) ? server.refusal(made.status, made.body) : null;
  const started = Date.now();
  for (;;) {
    const dumps = dumpsOf(await server.json('users/current/data_dumps'));
    const dump = (wanted ? dumps.find((d) => d.id === wanted) : undefined) ?? [...dumps].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
    if (!dump) {
      if (refusal) throw new RemoteError(`WakaTime would not make a data dump by key: ${refusal.message} ${pasteHint}`, refusal.status);
      throw new RemoteError(`WakaTime lists no data dump of your heartbeats. ${pasteHint}`);
    }
    if (isDone(dump)) return dump.downloadUrl!;
    if (dump.failed) throw new RemoteError(`WakaTime could not prepare the data dump (${server.scrub(dump.status) || 'failed'}). ${pasteHint}`);
    if (Date.now() - started > MAX_DUMP_WAIT_MS) throw new RemoteError(`WakaTime has not prepared the data dump within ${MAX_DUMP_WAIT_MS / 3_600_000} hours. ${pasteHint}`);
    if (!(await touch({ stage: `WakaTime is preparing your data dump: ${Math.floor(dump.percent)} %` }))) throw new RemoteError('The import was given up.');
    await new Promise((resolve) => setTimeout(resolve, Math.max(dumpPoll.ms - pace.ms, 0)));
  }
}

/**
 * Downloads the dump into the spool (`<id>.json.part`, renamed when whole): only from
 * IMPORT_DOWNLOAD_HOSTS, no redirect off them, within IMPORT_MAX_BYTES and the spool's room.
 * Answers its size.
 */
async function download(url: string, id: string, touch: Touch): Promise<number> {
  const { IMPORT_MAX_BYTES: limit, IMPORT_SPOOL_MAX_BYTES: room } = config();
  const part = `${spoolFile(id)}.part`;
  let host = 'the download';
  try {
    host = new URL(url).host;
  } catch {
    // checked below
  }
  let answer;
  try {
    // Never with the key: a download link carries its own signature.
    answer = await outbound(url, downloadPolicy(), { timeoutMs: DOWNLOAD_TIMEOUT_MS, maxBytes: limit, headers: { accept: 'application/json, application/octet-stream, */*' } });
  } catch (err) {
    if (err instanceof OutboundError) {
      const why = err.failure === 'refused_address' ? `${host} is not a host dumps are downloaded from here (IMPORT_DOWNLOAD_HOSTS)` : err.message;
      throw new RemoteError(`The data dump could not be downloaded: ${why}.`);
    }
    throw err;
  }
  if (answer.status !== 200) {
    answer.body.destroy();
    throw new RemoteError(`The data dump could not be downloaded: ${host} answered ${answer.status} (a link copied from WakaTime works for a limited time: export again).`, answer.status);
  }
  await fs.mkdir(spoolDir(), { recursive: true, mode: 0o700 });
  const out = await fs.open(part, 'w', 0o600);
  let size = 0;
  let judged = false;
  let saved = Date.now();
  try {
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      if (!judged) {
        const problem = dumpStartProblem(chunk);
        if (problem) throw new RemoteError(`What ${host} sent is not a WakaTime data dump: ${problem}.`);
        judged = problem !== undefined;
      }
      if (!reserve(id, chunk.length, room)) throw new RemoteError('The server has no room for the data dump now (IMPORT_SPOOL_MAX_BYTES): start the import again later.');
      await out.write(chunk);
      size += chunk.length;
      if (Date.now() - saved >= PROGRESS_EVERY_MS) {
        saved = Date.now();
        if (!(await touch({ stage: `Downloading the data dump: ${Math.floor(size / 1024 ** 2)} MB`, bytes: size }))) throw new RemoteError('The import was given up.');
      }
    }
  } catch (err) {
    answer.body.destroy();
    if (err instanceof OutboundError) throw new RemoteError(`The data dump could not be downloaded: ${err.message}.`);
    throw err;
  } finally {
    await out.close();
  }
  if (size === 0) throw new RemoteError(`${host} sent an empty file, not a data dump.`);
  await fs.rename(part, spoolFile(id));
  return size;
}

/** Reads the lists with the key, gets the dump into the spool, and hands it to the import queue. */
export async function importWakatime(db: Db, id: string, key: string, pastedUrl: string | null, touch: Touch): Promise<void> {
  const base = config().WAKATIME_API_URL;
  const { host, port } = hostOf(new URL(base));
  // WAKATIME_API_URL is the operator's: trusted as set, and nothing else is reached with the key.
  const server = new RemoteServer(base, key, { hosts: [`${host}:${port}`], publicAddresses: false }, 'WakaTime');
  await touch({ stage: 'Reading your editors and machines from WakaTime' });
  // Asked first: a refused key ends the import before anything else is asked or downloaded.
  const userAgents = (await server.list('user_agents')) as FetchedUserAgent[];
  const machineNames = (await server.list('machine_names')) as FetchedMachineName[];
  const url = pastedUrl ?? (await awaitDump(server, touch));
  if (!(await touch({ stage: 'Downloading the data dump' }))) return;
  try {
    const size = await download(url, id, touch);
    // From here the key is not needed: the import is an upload's, resumed at a restart.
    const [queued] = await db
      .update(imports)
      .set({ status: 'queued', bytes: size, userAgents, machineNames, remoteSeenAt: null, stage: 'Reading the data dump' })
      .where(and(eq(imports.id, id), inArray(imports.status, unfinished)))
      .returning({ id: imports.id });
    if (!queued) {
      await removeSpool(id);
      return;
    }
  } catch (err) {
    await fs.rm(`${spoolFile(id)}.part`, { force: true }).catch(() => {});
    await removeSpool(id).catch(() => {});
    throw err;
  }
  schedule(db, id);
}
