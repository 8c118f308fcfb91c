import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

// The bytes the uploads waiting to be read take (lib/wakatime/importing/spool.ts): a file that goes no
// longer counts, whoever removed it, so the room of IMPORT_SPOOL_MAX_BYTES comes back.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-spool-'));
process.env.DATA_DIR = dir;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const file = (id: string) => path.join(dir, 'imports', `${id}.json`);
function place(id: string, bytes: number): void {
  fs.mkdirSync(path.dirname(file(id)), { recursive: true });
  fs.writeFileSync(file(id), Buffer.alloc(bytes, ' '));
}

describe('the spool', () => {
  it('gives back the room of a file removed by another copy of the module or by hand', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    place(a, 600);
    place(b, 300);
    const spool = await import('../../lib/wakatime/importing/spool');
    expect(spool.reserve(c, 101, 1000)).toBe(false);
    // Next loads the module once for its start hook, which removes the files of imports it read,
    // and again for the routes, which take uploads.
    vi.resetModules();
    const other = await import('../../lib/wakatime/importing/spool');
    await other.removeSpool(a);
    expect(spool.reserve(c, 700, 1000)).toBe(true);
    place(c, 700);
    expect(spool.reserve(c, 1, 1000)).toBe(false);
    // An operator removes a file by hand.
    fs.rmSync(file(b));
    expect(spool.reserve(c, 300, 1000)).toBe(true);
    await spool.removeSpool(c);
    expect(spool.reserve(randomUUID(), 1000, 1000)).toBe(true);
  });
});
