import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { and, eq, inArray, isNotNull, lt, notInArray } from 'drizzle-orm';
import { z } from 'zod';
import { attemptPolicies, takeAttempt } from '../../auth/attempts';
import { config } from '../../config';
import type { Db } from '../../db/client';
import { imports, users } from '../../db/schema';
import { checkedUrlField, hostList, userAddresses, type OutboundPolicy } from '../../http/outbound';
import { isUuid } from '../../ids';
import { remoteText } from '../../text';
import { ImportError } from './day-importer';
import { DumpError } from './dump';
import { claimImportSlot } from './imports';
import { present, unfinished, type ImportStatus } from './import-status';
import { importCompatible } from './remote-compatible';
import { RemoteError } from './remote-client';
import { importWakatime } from './remote-wakatime';
import { removeSpool, spoolFile } from './spool';

// Imports by key (POST /me/imports/remote): the user's history read from WakaTime (its data dump,
// lib/wakatime/importing/remote-wakatime.ts) or from a compatible server day by day
// (lib/wakatime/importing/remote-compatible.ts), credited as an upload's is
// (lib/wakatime/importing/day-importer.ts): importing the same days again counts nothing twice.
//
// The key is held in memory by the run and nowhere else: no row, log line or error carries it
// (docs/decisions). So a run cannot outlive its process: while it holds the key its row says when it
// last made progress (`remote_seen_at`), and a start of the server ends the runs whose process is
// gone, saying so; the days they credited stay and count once when imported again. A WakaTime dump
// that was downloaded whole no longer needs the key: it is read like an upload, and resumes so.
//
// Every request goes through lib/http/outbound.ts: a user-given `api_url` only to public addresses
// or IMPORT_ALLOWED_HOSTS, WakaTime to WAKATIME_API_URL's host, a dump's download only from
// IMPORT_DOWNLOAD_HOSTS; each answer bounded in time and size (lib/wakatime/importing/remote-client.ts).

/** A run that made no progress for this long is taken for dead by another process's start (PostgreSQL). */
export const STALE_AFTER_MS = 5 * 60_000;

const wakatimeKey = z
  .string()
  .trim()
  .refine((v) => isUuid(v.toLowerCase().startsWith('waka_') ? v.slice(5) : v), {
    message: 'must be a WakaTime API key (waka_ and a UUID, or a UUID: wakatime.com, Settings, API Key)',
    params: { code: 'not_a_key' },
  });
const anyKey = z
  .string()
  .trim()
  .min(1, 'must be the API key of your account there')
  .max(512, 'must be at most 512 characters')
  .refine((v) => !/[\u0000-\u001f\u007f\s]/.test(v), { message: 'must not hold spaces or control characters', params: { code: 'not_a_key' } });
const address = (what: string) => z.string().trim().min(1, `must be ${what}`).max(2048, 'must be at most 2048 characters');

export const remoteImportSchema = z
  .discriminatedUnion(
    'from',
    [
      z.strictObject({
        from: z.literal('wakatime'),
        api_key: wakatimeKey.meta({ description: 'Your WakaTime API key: used for this import only, never stored or logged.', examples: ['waka_4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f'] }),
        download_url: address('the download link of a WakaTime data dump')
          .optional()
          .meta({ description: 'A data dump link you copied from wakatime.com (Settings, Export), when WakaTime will not make a dump by key. Only from IMPORT_DOWNLOAD_HOSTS.' }),
      }),
      z.strictObject({
        from: z.literal('compatible'),
        api_url: address('the API base of the server, such as https://host/api/v1').meta({
          description: 'The WakaTime-compatible API base of a Wakapi, Hackatime or Codetally server, such as `https://host/api/v1` or `https://host/api`.',
        }),
        api_key: anyKey.meta({ description: 'Your API key on that server: used for this import only, never stored or logged.' }),
      }),
    ],
    { error: (issue) => (issue.code === 'invalid_union' ? 'must be "wakatime" or "compatible"' : undefined) },
  )
  .meta({ id: 'RemoteImport' });

export type RemoteImportInput = z.infer<typeof remoteImportSchema>;

/** Where a dump is downloaded from: the operator's list only. */
export const downloadPolicy = (): OutboundPolicy => ({ hosts: hostList(config().IMPORT_DOWNLOAD_HOSTS), publicAddresses: false });

/** This process's runs, by import (on globalThis: Next may load this module more than once). */
const slot = globalThis as typeof globalThis & { __codetallyRemoteImports?: Map<string, Promise<void>> };
const runs: Map<string, Promise<void>> = (slot.__codetallyRemoteImports ??= new Map());

/** Resolves when every import by key this process runs has ended (tests). */
export async function remoteImportsSettled(): Promise<void> {
  while (runs.size > 0) await Promise.all(runs.values());
}

/**
 * Starts an import by key: the input checked (a 422 naming the field), the user's budget of
 * look-ups taken, the user's one import slot claimed (409 when an import of theirs is unfinished),
 * then run in the background. Answers the import as it starts.
 */
export async function startRemoteImport(db: Db, userId: string, input: RemoteImportInput): Promise<ImportStatus> {
  let apiUrl: string | null = null;
  let downloadUrl: string | null = null;
  if (input.from === 'compatible') {
    apiUrl = checkedUrlField('api_url', input.api_url, userAddresses(), { base: true });
  } else if (input.download_url !== undefined) {
    downloadUrl = checkedUrlField('download_url', input.download_url, downloadPolicy());
  }
  await takeAttempt(db, [{ policy: attemptPolicies.wakatimeLookup, subject: `user:${userId}` }]);
  const id = randomUUID();
  await claimImportSlot(db, id, userId, { status: 'running', source: input.from, stage: 'Starting', remoteSeenAt: new Date() });
  const [row] = await db.select().from(imports).where(eq(imports.id, id));
  const run = runRemote(db, id, userId, input.api_key, apiUrl, downloadUrl)
    .catch((err) => console.error('[codetally] an import by key failed:', (err as Error)?.name))
    .finally(() => runs.delete(id));
  runs.set(id, run);
  return present(row);
}

/** What a run may change of its row while it holds the key. */
export type RemoteProgress = Partial<Pick<typeof imports.$inferInsert, 'stage' | 'daysTotal' | 'daysDone' | 'heartbeatsRead' | 'heartbeatsSkipped' | 'bytes' | 'bytesRead'>>;
/** Records a run's progress (and that it is alive); false when the import ended meanwhile (given up) or is gone. */
export type Touch = (progress?: RemoteProgress) => Promise<boolean>;

function toucher(db: Db, id: string): Touch {
  return async (progress = {}) => {
    const done = await db
      .update(imports)
      .set({ ...progress, remoteSeenAt: new Date() })
      .where(and(eq(imports.id, id), inArray(imports.status, unfinished), isNotNull(imports.remoteSeenAt)))
      .returning({ id: imports.id });
    return done.length > 0;
  };
}

/** The run of one import by key: its end recorded, done or failed; `key` dropped with it. */
async function runRemote(db: Db, id: string, userId: string, key: string, apiUrl: string | null, downloadUrl: string | null): Promise<void> {
  const touch = toucher(db, id);
  try {
    const [user] = await db.select({ id: users.id, timezone: users.timezone, since: users.heartbeatsSince }).from(users).where(eq(users.id, userId));
    if (!user) return;
    if (apiUrl) {
      await importCompatible(db, user, key, apiUrl, touch);
      await end(db, id, { status: 'done' });
    } else {
      // Once downloaded, the dump is read as an upload is (lib/wakatime/importing/import-queue.ts), which records its end.
      await importWakatime(db, id, key, downloadUrl, touch);
    }
  } catch (err) {
    const known = err instanceof RemoteError || err instanceof ImportError || err instanceof DumpError;
    if (!known) console.error(`[codetally] import ${id} by key stopped:`, (err as Error)?.message);
    const error = known ? (err as Error).message : 'The import stopped on a server error: start it again (the days already imported are kept and will not count twice).';
    await fs.rm(`${spoolFile(id)}.part`, { force: true }).catch(() => {});
    await removeSpool(id).catch(() => {});
    await end(db, id, { status: 'failed', error });
  }
}

async function end(db: Db, id: string, how: { status: 'done' | 'failed'; error?: string }): Promise<void> {
  // An error may quote what the other server said (a dump's status, a reason): made fit for the database here, whatever its source.
  await db
    .update(imports)
    .set({ status: how.status, error: how.error === undefined ? null : remoteText(how.error), stage: null, finishedAt: new Date(), remoteSeenAt: null, userAgents: null, machineNames: null })
    .where(and(eq(imports.id, id), inArray(imports.status, unfinished)));
}

export const interruptedByRestart = 'Interrupted by a restart: start it again; the days already imported are kept and will not count twice.';

/**
 * At a start (lib/wakatime/importing/import-queue.ts resumeImports): the imports by key whose run
 * held its key in a process that is gone end failed, saying so. With the embedded database every
 * such run was this server's; with PostgreSQL one that made progress within STALE_AFTER_MS may be
 * another process's, and is looked at again once it would be stale.
 */
export async function endInterruptedRemoteImports(db: Db): Promise<void> {
  const shared = Boolean(config().DATABASE_URL);
  const before = shared ? new Date(Date.now() - STALE_AFTER_MS) : new Date(Date.now() + 60_000);
  const mine = [...runs.keys()];
  const ended = await db
    .update(imports)
    .set({ status: 'failed', error: interruptedByRestart, stage: null, finishedAt: new Date(), remoteSeenAt: null, userAgents: null, machineNames: null })
    .where(
      and(
        inArray(imports.status, unfinished),
        isNotNull(imports.remoteSeenAt),
        lt(imports.remoteSeenAt, before),
        ...(mine.length > 0 ? [notInArray(imports.id, mine)] : []),
      ),
    )
    .returning({ id: imports.id });
  for (const { id } of ended) {
    await fs.rm(`${spoolFile(id)}.part`, { force: true }).catch(() => {});
    await removeSpool(id).catch(() => {});
  }
  if (shared) {
    const [alive] = await db
      .select({ id: imports.id })
      .from(imports)
      .where(and(inArray(imports.status, unfinished), isNotNull(imports.remoteSeenAt)))
      .limit(1);
    if (alive) {
      const again = () => endInterruptedRemoteImports(db).catch((err) => console.error('[codetally] ending interrupted imports by key failed:', (err as Error)?.message));
      setTimeout(again, STALE_AFTER_MS + 1_000).unref();
    }
  }
}
