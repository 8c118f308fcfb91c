import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { config } from '../../config';
import type { Db } from '../../db/client';
import { imports } from '../../db/schema';
import { bodyChunks, isJsonMediaType } from '../../http/body';
import { isUuid } from '../../ids';
import { ApiError } from '../../http/problem';
import { dumpStartProblem } from './dump';
import { receiving, schedule } from './import-queue';
import { present, unfinished, type ImportStatus } from './import-status';
import { fits, removeSpool, reserve, spoolDir, spoolFile } from './spool';
import { lookUpOrigins, wakatimeKeyOf } from './user-agents-fetch';

// Imports of WakaTime data dumps (POST /me/imports). The upload is written to a file as it
// arrives (a dump can be gigabytes), then read back in the background one heartbeat at a time
// (lib/wakatime/importing/dump.ts), under the heartbeat routes' rules except their 14-day age limit:
// - heartbeats of the last 14 days go through the heartbeat path itself (storeHeartbeats), so one
//   the user's plugins also sent is counted once;
// - older ones at or after the user's `heartbeats_since` are already counted by that path: left;
// - older ones before it are credited by UTC day, and what each day credited is stored
//   (imported_days): importing a day again subtracts its credits and adds the new ones when the
//   new import holds at least as many of the day's heartbeats (a later export of a day holds what
//   an earlier one did), so the same dump twice, or two dumps that overlap, in any order, count
//   every day once, as the fullest dump has it.
// A dump is read in date order (as WakaTime writes them); its heartbeats may be in any order
// within two days. An import stopped part way starts over from its file: every day is counted
// once however often it is read. A stop of the server puts the imports being read back in the
// queue (stopImports); one the process died in is read alone at the next start, and one whose
// reading began MAX_ATTEMPTS times is given up.
// What an import holds is bounded whatever its file holds: the reader's (lib/wakatime/importing/dump.ts),
// at most three days of heartbeats (MAX_DAY_HEARTBEATS and MAX_DAY_NAMES each; a day is held in
// columns, lib/wakatime/importing/day-heartbeats.ts), credits of up to DAYS_PER_WRITE days waiting
// to be written; uploads waiting take at most IMPORT_MAX_BYTES each and IMPORT_SPOOL_MAX_BYTES
// together (lib/wakatime/importing/spool.ts).
//
// The parts: receiving an upload and the import routes' reads (this file), the queue and the
// reading (lib/wakatime/importing/import-queue.ts), crediting by day (lib/wakatime/importing/day-importer.ts), what an
// import is to its owner (lib/wakatime/importing/import-status.ts).

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
 * when it cannot be a dump. Returns true once the dump's first bytes have been judged (an object
 * or an array begins: it may be a dump).
 */
function uploadCheck(id: string, limit: number, room: number): (chunk: Uint8Array) => boolean {
  let size = 0;
  let looked = false;
  return (chunk) => {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    if (!reserve(id, chunk.length, room)) throw spoolFull(room);
    if (looked) return true;
    const problem = dumpStartProblem(chunk);
    looked = problem !== undefined;
    if (problem) throw notADump(problem);
    return looked;
  };
}

/** An unfinished import older than this no longer holds its user's import slot (its server is gone). */
const ABANDONED_AFTER_MS = 24 * 3_600_000;

/**
 * Claims the user's one import slot (a partial unique index holds one unfinished import per
 * user): a row `receiving` (or as `start` says: an import by key, lib/wakatime/importing/remote.ts). An
 * unfinished one older than a day is marked failed and gives way.
 */
export async function claimImportSlot(db: Db, id: string, userId: string, start: Partial<typeof imports.$inferInsert> = {}): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const taken = await db.insert(imports).values({ id, userId, status: 'receiving', bytes: 0, ...start }).onConflictDoNothing().returning({ id: imports.id });
    if (taken.length > 0) return;
    const abandoned = await db
      .update(imports)
      .set({ status: 'failed', error: 'The server reading this import stopped for good: import the dump again (nothing is counted twice).', finishedAt: new Date(), userAgents: null, machineNames: null })
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

/**
 * Receives a dump: written to a file as it arrives, then queued for reading. Answers once the
 * whole upload is stored, before it is read. One import per user at a time. With the user's
 * WakaTime key (X-WakaTime-Api-Key), their User-Agents and machine names are read from WakaTime and stored with the
 * import (lib/wakatime/importing/user-agents-fetch.ts), but only once the import slot is claimed and the
 * upload's first bytes may begin a dump, within the user's budget of look-ups: nothing that can be
 * refused here makes a request to WakaTime. A look-up that fails refuses the upload, nothing kept.
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
  const key = wakatimeKeyOf(request);
  const id = randomUUID();
  const file = spoolFile(id);
  // Known as arriving before its row exists: a start's cleanup (endDeadUploads) never ends it.
  receiving.add(id);
  try {
    await claimImportSlot(db, id, userId);
  } catch (err) {
    receiving.delete(id);
    throw err;
  }
  try {
    await fs.mkdir(spoolDir(), { recursive: true, mode: 0o700 });
    // Chunk by chunk (bodyChunks): a refused upload stops being read between two reads.
    const check = uploadCheck(id, limit, room);
    const out = await fs.open(file, 'w', 0o600);
    let judged = false;
    try {
      for await (const chunk of bodyChunks(request.body)) {
        const startsRight = check(chunk);
        if (key && startsRight && !judged) await db.update(imports).set(await lookUpOrigins(db, userId, key)).where(eq(imports.id, id));
        judged ||= startsRight;
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
