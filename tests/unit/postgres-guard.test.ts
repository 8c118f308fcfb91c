import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const { applyGuard, missingGuard } = createRequire(import.meta.url)('../../scripts/patch-postgres.cjs') as {
  applyGuard: (root?: string) => string[];
  missingGuard: (root?: string) => string | null;
};

function fakeInstall(source: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-guard-'));
  fs.mkdirSync(path.join(root, 'src'));
  fs.writeFileSync(path.join(root, 'src', 'connection.js'), source);
  return root;
}

describe('the postgres.js closed-socket guard', () => {
  it('is applied to the driver version it was written for, once', () => {
    const root = fakeInstall('function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n}');
    expect(missingGuard(root)).toMatch(/without Codetally's closed-socket guard/);
    expect(applyGuard(root)).toEqual([]);
    expect(missingGuard(root)).toBeNull();
    const guarded = fs.readFileSync(path.join(root, 'src', 'connection.js'), 'utf8');
    expect(guarded).toContain("error(Errors.connection('CONNECTION_CLOSED', options, socket))");
    expect(applyGuard(root)).toEqual([]);
    expect(fs.readFileSync(path.join(root, 'src', 'connection.js'), 'utf8')).toBe(guarded);
  });

  it('reports a driver it cannot guard, and the build and the server refuse to run with it', () => {
    const root = fakeInstall('function nextWrite(fn) { /* rewritten upstream */ }');
    expect(applyGuard(root)).toEqual([path.join(root, 'src', 'connection.js')]);
    expect(missingGuard(root)).toMatch(/without Codetally's closed-socket guard/);
  });

  it('is in place in this installation', () => {
    expect(missingGuard()).toBeNull();
  });
});
