import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { config } from '../../config';
import type { Db } from '../../db/client';
import { imports, users } from '../../db/schema';
import { DayImporter, ImportError } from './day-importer';
import { DumpError, DumpReader } from './dump';
import { readDumpOrigins } from './dump-origins';
import { checkHeartbeat, digestKey, liveTimes, type CheckContext } from '../sending/heartbeat-check';
import { readable, unfinished } from './import-status';
import { removeSpool, spooledIds, spoolFile } from './spool';
import { endInterruptedRemoteImports } from './remote';

// The imports of a process waiting and being read (lib/wakatime/importing/imports.ts receives them): their
// queue, the reading slot they share a chunk at a time, a stop of the server and a start that
// resumes them.

/** How many times reading an import may begin: the server dying in the last gives it up (a stop does not count). */
export const MAX_ATTEMPTS = 3;
/** Imports read at once by a process, holding the reading slot a chunk at a time (see `nextSlot`), unless one is read alone. */
const OPEN_IMPORTS = 4;
/** How often progress is written. */
const PROGRESS_EVERY_MS = 1_000;
/** The earliest heartbeat taken (WakaTime began in 2013). */
const EARLIEST = Date.UTC(2000, 0, 1);

// Up to OPEN_IMPORTS imports are read at once, the others wait in order. Those being read share one
// reading slot, holding it for a chunk at a time, in the order asked (round robin): a user's big
// import never holds up another's small one among those read at once. Requests wait behind one
// stretch of an import's CPU work at most: a chunk with the days it completes (at most three days
// are held, MAX_DAY_HEARTBEATS each, sorted unless in order), or an import's last days, credited
// after it last held the slot (outside the slot, so that a small import never waits for a big one's
// last writes). An import whose reading began before (the process died while reading it, or a
// stop's wait ran out) is read alone: should it bring the process down again, the start of no other
// import is counted.

/**
 * This process's uploads and readings. On globalThis: Next loads this module once for its start
 * hook (resumeImports) and again for the routes (receiveImport, lib/wakatime/importing/imports.ts), and the
 * serve program has a copy of its own (stopImports); a process has one queue and one reading slot.
 */
interface Scheduler {
  /** The uploads this process is receiving (a start of the process finds none of its own). */
  receiving: Set<string>;
  waiting: { db: Db; id: string; alone: boolean }[];
  reading: Map<string, Promise<void>>;
  /** The import being read alone, if any. */
  alone: string | null;
  /** Settles when the last import to ask for the reading slot has it (and given it back). */
  lastSlot: Promise<void>;
  /** The server is stopping: no import starts, those being read go back to the queue. */
  stopping: boolean;
}
const slot = globalThis as typeof globalThis & { __codetallyImports?: Scheduler };
const scheduler: Scheduler = (slot.__codetallyImports ??= {
  receiving: new Set(),
  waiting: [],
  reading: new Map(),
  alone: null,
  lastSlot: Promise.resolve(),
  stopping: false,
});
const { waiting, reading } = scheduler;
/** The uploads this process is receiving (lib/wakatime/importing/imports.ts adds and removes them). */
export const receiving = scheduler.receiving;

/** Queues an import to be read; `alone`: its reading began before (see the top of this file). */
export function schedule(db: Db, id: string, alone = false): void {
  if (reading.has(id) || waiting.some((w) => w.id === id)) return;
  waiting.push({ db, id, alone });
  startReading();
}

function startReading(): void {
  while (!scheduler.stopping && waiting.length > 0 && scheduler.alone === null) {
    const { db, id, alone } = waiting[0];
    if (reading.size >= (alone ? 1 : OPEN_IMPORTS)) return;
    waiting.shift();
    if (alone) scheduler.alone = id;
    const run = runImport(db, id)
      .catch((err) => console.error('[codetally] an import failed:', (err as Error)?.message))
      .finally(() => {
        reading.delete(id);
        if (scheduler.alone === id) scheduler.alone = null;
        startReading();
      });
    reading.set(id, run);
  }
}

/**
 * Waits for the reading slot to read a chunk; the slot is given back by calling what it resolves
 * to. The slot goes in the order asked, so imports being read alternate; the next holder starts
 * after pending I/O (requests) has run.
 */
function nextSlot(): Promise<() => void> {
  const before = scheduler.lastSlot;
  let giveBack!: () => void;
  scheduler.lastSlot = new Promise((resolve) => (giveBack = () => setImmediate(resolve)));
  return before.then(() => giveBack);
}

/** Resolves when every import queued in this process has been read (tests, benchmarks). */
export async function importsSettled(): Promise<void> {
  while (reading.size > 0) await Promise.all(reading.values());
}

/**
 * A stop of the server (scripts/serve.ts, before it closes the database): no import starts any
 * more, and those being read go back to the queue the next time they hold the reading slot, this
 * start of theirs not counted, their files kept for the next start. Waits for them up to `graceMs`;
 * one still being read then (its last days being written) keeps its start counted.
 */
export async function stopImports(graceMs: number): Promise<void> {
  scheduler.stopping = true;
  waiting.length = 0;
  await Promise.race([importsSettled(), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
}

const lost = 'The uploaded file was lost while the server stopped: import the dump again (nothing is counted twice).';
const cutShort = 'The upload stopped before it was whole (the server stopped): send the dump again.';

/**
 * Ends the uploads a crash of their server cut short (their senders saw them fail): marked failed,
 * their files removed. A live upload's file grows at least every HTTP_REQUEST_TIMEOUT_SECONDS
 * (the front server ends one stalled longer), so one unchanged for twice that is dead. With the
 * embedded database, every upload this process is not receiving is. With PostgreSQL one whose
 * file is not here is another process's (DATA_DIR is one per process). Returns whether some were
 * too recent to tell.
 */
async function endDeadUploads(db: Db): Promise<boolean> {
  const { DATABASE_URL, HTTP_REQUEST_TIMEOUT_SECONDS } = config();
  const staleBefore = Date.now() - 2 * HTTP_REQUEST_TIMEOUT_SECONDS * 1000;
  const uploads = await db.select({ id: imports.id }).from(imports).where(eq(imports.status, 'receiving'));
  let recent = false;
  for (const { id } of uploads) {
    if (receiving.has(id)) continue;
    const changed = await fs.stat(spoolFile(id)).then((s) => s.mtimeMs, () => undefined);
    if (DATABASE_URL && (changed === undefined || changed >= staleBefore)) {
      recent ||= changed !== undefined;
      continue;
    }
    await db
      .update(imports)
      .set({ status: 'failed', error: cutShort, finishedAt: new Date(), userAgents: null, machineNames: null })
      .where(and(eq(imports.id, id), eq(imports.status, 'receiving')));
    await removeSpool(id);
  }
  return recent;
}

/**
 * At a start: ends the uploads a crash cut short (endDeadUploads; one too recent to tell is looked
 * at again once it would have stalled too long), queues again the imports a stop interrupted whose
 * file is on this server (oldest first; one whose reading began before is read alone), and removes
 * the files of imports that ended or are gone. With the embedded database, an import whose file is
 * gone fails; with PostgreSQL it may be another process's.
 */
export async function resumeImports(db: Db): Promise<void> {
  const { DATABASE_URL, HTTP_REQUEST_TIMEOUT_SECONDS } = config();
  scheduler.stopping = false;
  // Imports by key whose run (and key) a stop took: ended, saying so (lib/wakatime/importing/remote.ts).
  await endInterruptedRemoteImports(db);
  if (await endDeadUploads(db)) {
    const again = () => endDeadUploads(db).catch((err) => console.error('[codetally] ending uploads cut short failed:', (err as Error)?.message));
    setTimeout(again, (2 * HTTP_REQUEST_TIMEOUT_SECONDS + 1) * 1000).unref();
  }
  const files = new Set(spooledIds());
  const unfinishedRows = await db
    .select({ id: imports.id, status: imports.status, attempts: imports.attempts })
    .from(imports)
    .where(inArray(imports.status, unfinished))
    .orderBy(imports.createdAt);
  for (const { id, status, attempts } of unfinishedRows) {
    const here = files.delete(id);
    if (status === 'receiving') continue;
    if (here) schedule(db, id, attempts > 0);
    else if (!DATABASE_URL) await db.update(imports).set({ status: 'failed', error: lost, finishedAt: new Date(), userAgents: null, machineNames: null }).where(eq(imports.id, id));
  }
  // Files of imports that ended (their end recorded, the file not yet removed) or are gone.
  for (const id of files) if (!receiving.has(id)) await removeSpool(id);
}

interface Progress {
  bytesRead: number;
  heartbeatsRead: number;
  heartbeatsSkipped: number;
}

async function saveProgress(db: Db, id: string, p: Progress, end?: { status: 'done' | 'failed'; error?: string }): Promise<boolean> {
  const done = await db
    .update(imports)
    .set({
      bytesRead: p.bytesRead,
      heartbeatsRead: p.heartbeatsRead,
      heartbeatsSkipped: p.heartbeatsSkipped,
      // The User-Agents and machine names from WakaTime serve the reading only: not kept past its end.
      ...(end ? { status: end.status, error: end.error ?? null, finishedAt: new Date(), userAgents: null, machineNames: null, stage: null } : { status: 'running' }),
    })
    // Only while it is being read: one given up meanwhile (claimImportSlot) stays so.
    .where(and(eq(imports.id, id), inArray(imports.status, readable)))
    .returning({ id: imports.id });
  return done.length > 0;
}

const interrupted = (times: number) =>
  `The server stopped while reading this import, ${times} times: it is not read again. Import the dump again if it is one (nothing is counted twice).`;

/** Reads one import's file to its end, or records why it could not. */
async function runImport(db: Db, id: string): Promise<void> {
  const progress: Progress = { bytesRead: 0, heartbeatsRead: 0, heartbeatsSkipped: 0 };
  // The file goes once the import's end is recorded (or the import is gone); when the end cannot
  // be recorded (the server stopping), it stays for the import to start over from.
  let keep = false;
  try {
    // Each start is counted before reading, in the statement that claims it: one that brought the
    // server down stays counted, so no file is read at every start forever.
    const [claimed] = await db
      .update(imports)
      .set({ status: 'running', attempts: sql`${imports.attempts} + 1`, bytesRead: 0, heartbeatsRead: 0, heartbeatsSkipped: 0 })
      .where(and(eq(imports.id, id), inArray(imports.status, readable), lt(imports.attempts, MAX_ATTEMPTS)))
      .returning({ attempts: imports.attempts });
    if (!claimed) {
      const [row] = await db.select({ status: imports.status, attempts: imports.attempts }).from(imports).where(eq(imports.id, id));
      // Ended, or gone: nothing to read.
      if (!row || !readable.includes(row.status)) return;
      console.error(`[codetally] import ${id} given up: the server stopped while reading it ${row.attempts} times`);
      throw new ImportError(interrupted(row.attempts));
    }
    const [job] = await db
      .select({ userId: users.id, timezone: users.timezone, since: users.heartbeatsSince, userAgents: imports.userAgents, machineNames: imports.machineNames })
      .from(imports)
      .innerJoin(users, eq(users.id, imports.userId))
      .where(eq(imports.id, id));
    if (!job) return;
    const now = Date.now();
    const importer = new DayImporter(db, { id: job.userId, timezone: job.timezone }, job.since, now);
    // The dump's list of User-Agents first: it may come after the days (lib/wakatime/importing/dump-origins.ts).
    const dump = await readDumpOrigins(spoolFile(id), nextSlot, () => scheduler.stopping);
    // Then those WakaTime listed at the import (lib/wakatime/importing/user-agents-fetch.ts): an id the
    // dump lists too keeps the dump's entry (the first one added).
    for (const entry of job.userAgents ?? []) dump.add(entry);
    for (const entry of job.machineNames ?? []) dump.addMachine(entry);
    const ctx: CheckContext = { key: await digestKey(db), userAgent: null, earliest: EARLIEST, latest: liveTimes(now).latest, tooOld: 'time must be after 2000 and at most one hour ahead', digests: new Map(), origins: new Map(), dump };
    const reader = new DumpReader();
    let saved = Date.now();
    for await (const chunk of createReadStream(spoolFile(id), { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
      const giveBack = await nextSlot();
      try {
        if (scheduler.stopping) {
          // The server stops (a deploy): back to the queue, this start not counted, the file kept.
          keep = true;
          await db
            .update(imports)
            .set({ status: 'queued', attempts: sql`${imports.attempts} - 1` })
            .where(and(eq(imports.id, id), eq(imports.status, 'running')));
          return;
        }
        for (const item of reader.push(chunk)) {
          progress.heartbeatsRead++;
          const heartbeat = checkHeartbeat(item, ctx);
          if (typeof heartbeat === 'string') progress.heartbeatsSkipped++;
          else await importer.add(heartbeat);
        }
      } finally {
        giveBack();
      }
      progress.bytesRead = reader.bytesRead;
      if (Date.now() - saved >= PROGRESS_EVERY_MS) {
        saved = Date.now();
        // The import ended meanwhile (given up by claimImportSlot) or is gone (its account
        // deleted): stop reading.
        if (!(await saveProgress(db, id, progress))) return;
      }
    }
    reader.end();
    await importer.finish();
    await saveProgress(db, id, progress, { status: 'done' });
  } catch (err) {
    // Put back in the queue failed (a stop): it stays as it was, its start counted, its file kept.
    if (keep) throw err;
    const known = err instanceof DumpError || err instanceof ImportError;
    if (!known) console.error(`[codetally] import ${id} stopped:`, (err as Error)?.message);
    const error = known ? (err as Error).message : 'The import stopped on a server error: import the dump again (nothing is counted twice).';
    await saveProgress(db, id, progress, { status: 'failed', error }).catch(() => (keep = true));
  } finally {
    if (!keep) await removeSpool(id).catch(() => {});
  }
}
