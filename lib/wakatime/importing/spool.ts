import fs from 'node:fs';
import path from 'node:path';
import { config } from '../../config';
import { isUuid } from '../../ids';

// Where uploaded dumps wait to be read (DATA_DIR/imports, on the server that received them), and
// how many bytes they take: each upload is counted as it arrives and each file when it goes, so
// all of them together stay within IMPORT_SPOOL_MAX_BYTES (lib/wakatime/importing/imports.ts refuses the
// bytes that would pass it). The count is made from the files on first use, and again before a
// refusal (a file removed by hand no longer counts).

export function spoolDir(): string {
  return path.join(config().DATA_DIR, 'imports');
}

export const spoolFile = (id: string) => path.join(spoolDir(), `${id}.json`);

/** The imports whose files are in the spool. */
export function spooledIds(): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(spoolDir());
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith('.json') && isUuid(name.slice(0, -5))).map((name) => name.slice(0, -5));
}

/**
 * Bytes of each file in the spool, and their sum. One count per process, on globalThis: Next loads
 * this module once for its start hook (which removes files) and again for the routes (which add
 * them); a count per copy never saw the other's removals.
 */
interface Ledger {
  sizes: Map<string, number>;
  total: number;
}
const slot = globalThis as typeof globalThis & { __codetallySpool?: Ledger };

/** Counts the files on disk; an upload arriving keeps the bytes counted before they are written. */
function counted(before?: Ledger): Ledger {
  const ledger: Ledger = { sizes: new Map(), total: 0 };
  for (const id of spooledIds()) {
    const size = Math.max(before?.sizes.get(id) ?? 0, fs.statSync(spoolFile(id), { throwIfNoEntry: false })?.size ?? 0);
    ledger.sizes.set(id, size);
    ledger.total += size;
  }
  return ledger;
}

/** The ledger, made from the files on disk on first use (synchronously: nothing is added meanwhile). */
const ledger = () => (slot.__codetallySpool ??= counted());

/** Whether `bytes` more fit within `room`; counts the files again before saying no. */
export function fits(bytes: number, room: number): boolean {
  if (ledger().total + bytes <= room) return true;
  slot.__codetallySpool = counted(ledger());
  return ledger().total + bytes <= room;
}

/** Counts `bytes` more of import `id`'s upload, unless the spool would then hold more than `room`. */
export function reserve(id: string, bytes: number, room: number): boolean {
  if (!fits(bytes, room)) return false;
  const known = ledger();
  known.sizes.set(id, (known.sizes.get(id) ?? 0) + bytes);
  known.total += bytes;
  return true;
}

/** Removes import `id`'s file and its count. */
export async function removeSpool(id: string): Promise<void> {
  await fs.promises.rm(spoolFile(id), { force: true });
  const known = ledger();
  known.total -= known.sizes.get(id) ?? 0;
  known.sizes.delete(id);
}
