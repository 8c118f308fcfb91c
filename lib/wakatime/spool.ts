import fs from 'node:fs';
import path from 'node:path';
import { config } from '../config';
import { isUuid } from '../ids';

// Where uploaded dumps wait to be read (DATA_DIR/imports, on the server that received them), and
// how many bytes they take: each upload is counted as it arrives and each file when it goes, so
// all of them together stay within IMPORT_SPOOL_MAX_BYTES (lib/wakatime/imports.ts refuses the
// bytes that would pass it). Files a previous run left are counted when the spool is first used.

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

/** Bytes of each file in the spool, and their sum. */
let sizes: Map<string, number> | null = null;
let total = 0;

/** The ledger, made from the files on disk on first use (synchronously: nothing is added meanwhile). */
function ledger(): Map<string, number> {
  if (!sizes) {
    sizes = new Map();
    for (const id of spooledIds()) {
      const size = fs.statSync(spoolFile(id), { throwIfNoEntry: false })?.size ?? 0;
      sizes.set(id, size);
      total += size;
    }
  }
  return sizes;
}

/** The bytes the spool holds. */
export function spooledBytes(): number {
  ledger();
  return total;
}

/** Counts `bytes` more of import `id`'s upload, unless the spool would then hold more than `room`. */
export function reserve(id: string, bytes: number, room: number): boolean {
  const known = ledger();
  if (total + bytes > room) return false;
  known.set(id, (known.get(id) ?? 0) + bytes);
  total += bytes;
  return true;
}

/** Removes import `id`'s file and its count. */
export async function removeSpool(id: string): Promise<void> {
  await fs.promises.rm(spoolFile(id), { force: true });
  const known = ledger();
  total -= known.get(id) ?? 0;
  known.delete(id);
}
