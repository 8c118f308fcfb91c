import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { config } from '../config';
import { rows, type Db } from '../db/client';
import { col, cols } from '../db/names';
import { importedDays, imports, users } from '../db/schema';
import { bodyChunks, isJsonMediaType } from '../http/body';
import { isUuid } from '../ids';
import { ApiError } from '../http/problem';
import { DayHeartbeats } from './day-heartbeats';
import { DumpError, DumpReader, dumpStartProblem } from './dump';
import { fits, removeSpool, reserve, spoolDir, spooledIds, spoolFile } from './spool';
import { announce, Deltas, type Credits } from './credits';
import { DistinctHeartbeats } from './distinct-heartbeats';
import { LATE_LIMIT_MS, MAX_HEARTBEATS, type Heartbeat } from './heartbeat';
import { checkHeartbeat, digestKey, liveTimes, type CheckContext } from './heartbeat-check';
import { heartbeatSchema } from './heartbeat-input';
import { storeHeartbeats } from './heartbeat-store';

// Imports of WakaTime data dumps (POST /me/imports). The upload is written to a file as it
// arrives (a dump can be gigabytes), then read back in the background one heartbeat at a time
// (lib/wakatime/dump.ts), under the heartbeat routes' rules except their 14-day age limit:
// - heartbeats of the last 14 days go through the heartbeat path itself (storeHeartbeats), so one
//   the user's plugins also sent is counted once;
// - older ones at or after the user's `heartbeats_since` are already counted by that path: left;
// - older ones before it are credited by UTC day, and what each day credited is kept
//   (imported_days): importing a day again takes back its credits and adds the new ones when the
//   new import holds at least as many of the day's heartbeats (a later export of a day holds what
//   an earlier one did), so the same dump twice, or two dumps that overlap, in any order, count
//   every day once, as the fullest dump has it.
// A dump is read in date order (as WakaTime writes them); its heartbeats may be in any order
// within two days. An import stopped part way starts over from its file: every day is counted
// once however often it is read. A stop of the server puts the imports being read back in the
// queue (stopImports); one the process died in is read alone at the next start, and one whose
// reading began MAX_ATTEMPTS times is given up.
// What an import holds is bounded whatever its file holds: the reader's (lib/wakatime/dump.ts),
// at most three days of heartbeats (MAX_DAY_HEARTBEATS and MAX_DAY_NAMES each, below; a day is
// held in columns, lib/wakatime/day-heartbeats.ts), credits of up to DAYS_PER_WRITE days waiting
// to be written; uploads waiting take at most IMPORT_MAX_BYTES each and IMPORT_SPOOL_MAX_BYTES
// together (lib/wakatime/spool.ts).

const DAY_MS = 86_400_000;
/**
 * Days whose credits are written in one transaction, and at most so many of their credits in it,
 * unless one day alone holds more (a day credits at most 25 hours of each combination it names),
 * besides what earlier imports credited to those days, taken back.
 */
const DAYS_PER_WRITE = 64;
const CREDITS_PER_WRITE = 20_000;
/**
 * The most heartbeats one UTC day may hold (about six a second all day; a busy day of editing
 * holds a few tens of thousands): a day is held whole until it is credited, at most three at once.
 */
export const MAX_DAY_HEARTBEATS = 500_000;
/** The most different combinations of type, language, project, editor, operating system and application one UTC day may name. */
export const MAX_DAY_NAMES = 2_000;
/** How many times reading an import may begin: the server dying in the last gives it up (a stop does not count). */
export const MAX_ATTEMPTS = 3;
/** Imports read at once by a process, taking turns a chunk each (see `nextTurn`), unless one is read alone. */
const OPEN_IMPORTS = 4;
/** How often progress is written. */
const PROGRESS_EVERY_MS = 1_000;
/** The earliest heartbeat taken (WakaTime began in 2013). */
const EARLIEST = Date.UTC(2000, 0, 1);

/** What a dump looks like (for openapi.json: the reader follows only `days` and their `heartbeats`). */
export const wakatimeDumpSchema = z
  .object({
    user: z.unknown().optional(),
    range: z.unknown().optional(),
    days: z.array(z.object({ date: z.string(), heartbeats: z.array(heartbeatSchema) })),
  })
  .meta({ id: 'WakaTimeDump', description: 'A WakaTime data dump of heartbeats; a bare array of heartbeats is read too.' });

export const importStatuses = ['receiving', 'queued', 'running', 'done', 'failed'] as const;
/** The statuses of an import that has not ended, and of one that may be read. */
const unfinished = ['receiving', 'queued', 'running'];
const readable = ['queued', 'running'];

export const importSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(importStatuses).meta({ description: 'receiving: the upload is arriving; queued: received, waiting its turn; running; done; failed: `error` says why.' }),
    bytes: z.number().int().meta({ description: 'The size of the uploaded dump.' }),
    bytes_read: z.number().int(),
    heartbeats_read: z.number().int().meta({ description: 'Heartbeats read from the dump so far, skipped ones included.' }),
    heartbeats_skipped: z.number().int().meta({ description: 'Heartbeats left out: not valid under the heartbeat rules, or more than an hour ahead.' }),
    done: z.boolean().meta({ description: 'True once the import has ended, done or failed.' }),
    error: z.string().nullable(),
    created_at: z.iso.datetime({ offset: true }),
    finished_at: z.iso.datetime({ offset: true }).nullable(),
  })
  .meta({ id: 'Import' });

export const importListSchema = z.object({ imports: z.array(importSchema) }).meta({ id: 'ImportList' });

export type ImportStatus = z.infer<typeof importSchema>;

type ImportRow = typeof imports.$inferSelect;

function present(row: ImportRow): ImportStatus {
  return {
    id: row.id,
    status: row.status as ImportStatus['status'],
    bytes: row.bytes,
    bytes_read: row.bytesRead,
    heartbeats_read: row.heartbeatsRead,
    heartbeats_skipped: row.heartbeatsSkipped,
    done: row.status === 'done' || row.status === 'failed',
    error: row.error,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

const notADump = (message: string) => new ApiError('invalid_payload', message, { errors: [{ path: 'body', code: 'not_a_dump', message }] });

function tooLarge(limit: number): ApiError {
  const message = `at most ${limit} bytes (IMPORT_MAX_BYTES)`;
  return new ApiError('payload_too_large', `The dump is larger than this server takes: ${message}.`, { errors: [{ path: 'body', code: 'too_big', message }] });
}

/** No room for the upload now: uploads waiting to be read fill the spool (or the disk). */
const noRoom = (why: string) => new ApiError('import_space_full', `${why}: send the dump again later.`, { headers: { 'retry-after': '600' } });
const spoolFull = (room: number) => noRoom(`The uploads waiting to be read on this server would pass IMPORT_SPOOL_MAX_BYTES (${room} bytes)`);

/**
 * Counts the upload's bytes as they arrive, refusing it past its limit, past the spool's room, or
 * when it cannot be a dump.
 */
function uploadCheck(id: string, limit: number, room: number): (chunk: Uint8Array) => void {
  let size = 0;
  let looked = false;
  return (chunk) => {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    if (!reserve(id, chunk.length, room)) throw spoolFull(room);
    if (looked) return;
    const problem = dumpStartProblem(chunk);
    looked = problem !== undefined;
    if (problem) throw notADump(problem);
  };
}

/** An unfinished import older than this no longer holds its user's turn (its server is gone). */
const ABANDONED_AFTER_MS = 24 * 3_600_000;

/**
 * Takes the user's one turn to import (a partial unique index holds one unfinished import per
 * user): a row `receiving`. An unfinished one older than a day is marked failed and gives way.
 */
async function takeTurn(db: Db, id: string, userId: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const taken = await db.insert(imports).values({ id, userId, status: 'receiving', bytes: 0 }).onConflictDoNothing().returning({ id: imports.id });
    if (taken.length > 0) return;
    const abandoned = await db
      .update(imports)
      .set({ status: 'failed', error: 'The server reading this import stopped for good: import the dump again (nothing is counted twice).', finishedAt: new Date() })
      .where(and(eq(imports.userId, userId), inArray(imports.status, unfinished), lt(imports.createdAt, new Date(Date.now() - ABANDONED_AFTER_MS))))
      .returning({ id: imports.id });
    if (abandoned.length === 0) break;
  }
  throw new ApiError('import_in_progress', 'An import of yours is still being received or read: wait until it is done (GET /me/imports shows it).', {
    headers: { 'retry-after': '60' },
  });
}

/** Why the upload could not be stored, for its sender. */
function uploadFailed(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    console.error('[codetally] no room for an import upload:', code);
    return noRoom('The server has no room on its disk for the upload now');
  }
  return new ApiError('malformed_json', 'The upload was cut short: send the dump again.');
}

// Up to OPEN_IMPORTS imports are read at once, the others wait in order. Those being read take
// turns, a chunk each: a user's big import never holds up another's small one among those read
// at once. Requests wait behind one stretch of an import's CPU work at most: a chunk with the days
// it completes (at most three days are held, MAX_DAY_HEARTBEATS each, sorted unless in order), or
// an import's last days, credited after its last turn (outside the turns, so that a small import
// never waits for a big one's last writes). An import whose reading
// began before (the process died while reading it, or a stop's wait ran out) is read alone:
// should it bring the process down again, the start of no other import is counted.

/**
 * This process's uploads and readings. On globalThis: Next loads this module once for its start
 * hook (resumeImports) and again for the routes (receiveImport), and the serve program has a copy
 * of its own (stopImports); a process has one queue and one turn.
 */
interface Scheduler {
  /** The uploads this process is receiving (a start of the process finds none of its own). */
  receiving: Set<string>;
  waiting: { db: Db; id: string; alone: boolean }[];
  reading: Map<string, Promise<void>>;
  /** The import being read alone, if any. */
  alone: string | null;
  lastTurn: Promise<void>;
  /** The server is stopping: no import starts, those being read go back to the queue. */
  stopping: boolean;
}
const slot = globalThis as typeof globalThis & { __codetallyImports?: Scheduler };
const scheduler: Scheduler = (slot.__codetallyImports ??= {
  receiving: new Set(),
  waiting: [],
  reading: new Map(),
  alone: null,
  lastTurn: Promise.resolve(),
  stopping: false,
});
const { receiving, waiting, reading } = scheduler;

/**
 * Receives a dump: written to a file as it arrives, then queued for reading. Answers once the
 * whole upload is stored, before it is read. One import per user at a time.
 */
export async function receiveImport(db: Db, userId: string, request: Request): Promise<ImportStatus> {
  const { IMPORT_MAX_BYTES: limit, IMPORT_SPOOL_MAX_BYTES: room } = config();
  if (!isJsonMediaType(request.headers.get('content-type'))) {
    throw new ApiError('unsupported_media_type', 'Send the dump as JSON with Content-Type: application/json.');
  }
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) throw notADump('The body is empty: send the dump.');
  if (!fits(Number.isFinite(declared) ? declared : 0, room)) throw spoolFull(room);
  const id = randomUUID();
  const file = spoolFile(id);
  // Known as arriving before its row exists: a start's cleanup (endDeadUploads) never ends it.
  receiving.add(id);
  try {
    await takeTurn(db, id, userId);
  } catch (err) {
    receiving.delete(id);
    throw err;
  }
  try {
    await fs.mkdir(spoolDir(), { recursive: true, mode: 0o700 });
    // Chunk by chunk (bodyChunks): a refused upload stops being read between two reads.
    const check = uploadCheck(id, limit, room);
    const out = await fs.open(file, 'w', 0o600);
    try {
      for await (const chunk of bodyChunks(request.body)) {
        check(chunk);
        await out.write(chunk);
      }
    } finally {
      await out.close();
    }
    const { size } = await fs.stat(file);
    if (size === 0) throw notADump('The body is empty: send the dump.');
    const [row] = await db.update(imports).set({ status: 'queued', bytes: size }).where(eq(imports.id, id)).returning();
    schedule(db, id);
    return present(row);
  } catch (err) {
    await removeSpool(id);
    await db.delete(imports).where(eq(imports.id, id));
    throw uploadFailed(err);
  } finally {
    receiving.delete(id);
  }
}

export async function getImport(db: Db, userId: string, id: string): Promise<ImportStatus | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(imports).where(and(eq(imports.id, id), eq(imports.userId, userId)));
  return row ? present(row) : null;
}

export async function listImports(db: Db, userId: string): Promise<ImportStatus[]> {
  const found = await db.select().from(imports).where(eq(imports.userId, userId)).orderBy(desc(imports.createdAt)).limit(20);
  return found.map(present);
}

/** Queues an import to be read; `alone`: its reading began before (see above). */
function schedule(db: Db, id: string, alone = false): void {
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
 * Waits for this import's turn to read a chunk; the turn is given back by calling what it
 * resolves to. Turns go in the order asked, so imports being read alternate; the next turn
 * starts after pending I/O (requests) has run.
 */
function nextTurn(): Promise<() => void> {
  const before = scheduler.lastTurn;
  let giveBack!: () => void;
  scheduler.lastTurn = new Promise((resolve) => (giveBack = () => setImmediate(resolve)));
  return before.then(() => giveBack);
}

/** Resolves when every import queued in this process has been read (tests, benchmarks). */
export async function importsSettled(): Promise<void> {
  while (reading.size > 0) await Promise.all(reading.values());
}

/**
 * A stop of the server (scripts/serve.ts, before it closes the database): no import starts any
 * more, and those being read go back to the queue at their next turn, this start of theirs not
 * counted, their files kept for the next start. Waits for them up to `graceMs`; one still being
 * read then (its last days being written) keeps its start counted.
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
      .set({ status: 'failed', error: cutShort, finishedAt: new Date() })
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
    else if (!DATABASE_URL) await db.update(imports).set({ status: 'failed', error: lost, finishedAt: new Date() }).where(eq(imports.id, id));
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
      ...(end ? { status: end.status, error: end.error ?? null, finishedAt: new Date() } : { status: 'running' }),
    })
    // Only while it is being read: one given up meanwhile (takeTurn) stays so.
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
      .select({ userId: users.id, timezone: users.timezone, since: users.heartbeatsSince })
      .from(imports)
      .innerJoin(users, eq(users.id, imports.userId))
      .where(eq(imports.id, id));
    if (!job) return;
    const now = Date.now();
    const importer = new DayImporter(db, { id: job.userId, timezone: job.timezone }, job.since, now);
    const ctx: CheckContext = { key: await digestKey(db), userAgent: null, earliest: EARLIEST, latest: liveTimes(now).latest, tooOld: 'time must be after 2000 and at most one hour ahead', digests: new Map(), origins: new Map() };
    const reader = new DumpReader();
    let saved = Date.now();
    for await (const chunk of createReadStream(spoolFile(id), { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
      const giveBack = await nextTurn();
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
        // The import ended meanwhile (given up by takeTurn) or is gone (its account deleted): stop reading.
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

const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Why an import's heartbeats cannot be counted, in words for its owner. */
class ImportError extends Error {}

/** What a day's credits are, for telling whether an import changes them. */
const creditsKey = (c: Credits) => JSON.stringify([c.ide, c.desktop]);

/** One UTC day as an import credits it. */
interface Day {
  day: number;
  credits: Credits;
  heartbeats: number;
  continues: boolean;
}

/** Whether `next` holds at least as much of its day as `stored` did (a later export holds what an earlier one did). */
const fuller = (next: Day, stored: Day) => next.heartbeats > stored.heartbeats || (next.heartbeats === stored.heartbeats && (next.continues || !stored.continues));

/**
 * Routes a dump's heartbeats (see the top of this file) and credits the older ones by UTC day.
 * `since`: the user's heartbeats_since.
 */
class DayImporter {
  /** Heartbeats before the cutoff, by UTC day, not yet credited (at most three days). */
  private readonly days = new Map<number, DayHeartbeats>();
  /** Days credited and waiting to be written, and how many credits they hold. */
  private ready: Day[] = [];
  private readyCredits = 0;
  private live = new DistinctHeartbeats();
  /** Heartbeats from here on go through the heartbeat path. */
  private readonly liveFrom: number;
  /** Heartbeats from here on are the heartbeat path's: sent now, or counted when they were sent. */
  private readonly cutoff: number;
  /** The earliest heartbeat at or after the cutoff (the heartbeat path's first one, if any). */
  private firstAfterCutoff: number;
  /** The latest heartbeat time seen. */
  private latestSeen = -Infinity;
  /** Days before this one have been credited. */
  private creditedBefore = -Infinity;

  constructor(
    private readonly db: Db,
    private readonly user: { id: string; timezone: string },
    since: number | null,
    now: number,
  ) {
    // The heartbeat routes take the last 14 days from now on: none of these can be sent there again.
    this.liveFrom = now - LATE_LIMIT_MS;
    this.cutoff = Math.min(since ?? Infinity, this.liveFrom);
    this.firstAfterCutoff = since ?? Infinity;
  }

  async add(h: Heartbeat): Promise<void> {
    this.latestSeen = Math.max(this.latestSeen, h.at);
    if (h.at >= this.cutoff) {
      this.firstAfterCutoff = Math.min(this.firstAfterCutoff, h.at);
      if (h.at >= this.liveFrom) {
        this.live.add(h);
        if (this.live.size >= MAX_HEARTBEATS) await this.flushLive();
      }
      return;
    }
    const day = Math.floor(h.at / DAY_MS);
    if (day < this.creditedBefore) {
      throw new ImportError(`The dump is not in date order: a heartbeat of ${dateOf(day)} comes after later days (export it again from WakaTime).`);
    }
    let found = this.days.get(day);
    if (!found) this.days.set(day, (found = new DayHeartbeats()));
    if (found.size >= MAX_DAY_HEARTBEATS) {
      throw new ImportError(
        `The dump holds more than ${MAX_DAY_HEARTBEATS} heartbeats on ${dateOf(day)} (UTC), more than a day of editing sends: it is not imported.`,
      );
    }
    found.add(h);
    if (found.named > MAX_DAY_NAMES) {
      throw new ImportError(
        `The dump names more than ${MAX_DAY_NAMES} different combinations of type, language, project, editor, operating system and application on ${dateOf(day)} (UTC), more than a day of editing does: it is not imported.`,
      );
    }
    // A day is complete once the dump has gone two days past it (and its successor day is known).
    const complete = Math.floor(this.latestSeen / DAY_MS) - 2;
    if (complete > this.creditedBefore) await this.creditDays(complete);
  }

  async finish(): Promise<void> {
    await this.creditDays(Infinity);
    await this.writeDays();
    await this.flushLive();
  }

  private async flushLive(): Promise<void> {
    const batch = this.live.list;
    this.live = new DistinctHeartbeats();
    await storeHeartbeats(this.db, this.user, batch);
  }

  /** Credits every waiting day before `before`. */
  private async creditDays(before: number): Promise<void> {
    const days = [...this.days.keys()].filter((d) => d < before).sort((a, b) => a - b);
    this.creditedBefore = Math.max(this.creditedBefore, Number.isFinite(before) ? before : this.creditedBefore);
    for (const day of days) {
      const beats = this.days.get(day)!;
      this.days.delete(day);
      const firstNext = Math.min(this.firstAfterCutoff, this.days.get(day + 1)?.earliest ?? Infinity);
      const deltas = new Deltas();
      const heartbeats = beats.credit(firstNext, this.user.timezone, deltas);
      // Whether this dump goes on past the day (so it knew what followed the day's last heartbeat).
      const continues = this.latestSeen >= (day + 1) * DAY_MS;
      const credits = deltas.credits();
      const count = credits.ide.length + credits.desktop.length;
      if (this.readyCredits + count > CREDITS_PER_WRITE) await this.writeDays();
      this.ready.push({ day, credits, heartbeats, continues });
      this.readyCredits += count;
      if (this.ready.length >= DAYS_PER_WRITE) await this.writeDays();
    }
  }

  /** Replaces what earlier imports credited for the ready days with what they credit now. */
  private async writeDays(): Promise<void> {
    if (this.ready.length === 0) return;
    const ready = this.ready;
    this.ready = [];
    this.readyCredits = 0;
    const d = importedDays;
    // Under the user's import lock: two imports never replace the same day at once (one import
    // per user runs at a time, but one given up as stuck may still be running somewhere).
    const changed = await this.db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`codetally:imports:${this.user.id}`}, 0))`);
      const before = await rows<Omit<Day, 'credits'> & { credits: string }>(
        tx,
        sql`SELECT ${d.day} AS day, ${d.credits}::text AS credits, ${d.heartbeats} AS heartbeats, ${d.continues} AS continues FROM ${d}
            WHERE ${d.userId} = ${this.user.id}::uuid AND ${d.day} = ANY(${`{${ready.map((r) => r.day).join(',')}}`}::int[])`,
      );
      const stored = new Map(before.map((r): [number, Day] => [r.day, { ...r, credits: JSON.parse(r.credits) as Credits }]));
      const deltas = new Deltas();
      const replaced = ready.filter((r) => {
        const old = stored.get(r.day);
        return !old || (fuller(r, old) && (creditsKey(old.credits) !== creditsKey(r.credits) || old.heartbeats !== r.heartbeats || old.continues !== r.continues));
      });
      for (const r of replaced) {
        const old = stored.get(r.day);
        if (old) deltas.addCredits(old.credits, -1);
        deltas.addCredits(r.credits, 1);
      }
      if (replaced.length === 0) return false;
      const tuples = replaced.map((r) => [r.day, r.credits, r.heartbeats, r.continues]);
      await tx.execute(
        sql`INSERT INTO ${d} (${cols(d.userId, d.day, d.credits, d.heartbeats, d.continues)})
            SELECT ${this.user.id}::uuid, (e->>0)::int, e->1, (e->>2)::int, (e->>3)::boolean
            FROM jsonb_array_elements(${JSON.stringify(tuples)}::text::jsonb) AS e ORDER BY 2
            ON CONFLICT (${cols(d.userId, d.day)}) DO UPDATE
              SET ${col(d.credits)} = excluded.${col(d.credits)}, ${col(d.heartbeats)} = excluded.${col(d.heartbeats)}, ${col(d.continues)} = excluded.${col(d.continues)}`,
      );
      return deltas.write(tx, this.user.id);
    });
    if (changed) await announce(this.db, this.user.id);
  }
}
