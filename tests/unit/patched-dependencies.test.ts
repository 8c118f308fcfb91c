import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json';

// The dependencies patched at install (patches/, by patch-package): each patch is made for the
// exact version installed, and what it changes is in place in this installation. The guard's
// behaviour on a dying connection is tested on PostgreSQL (tests/api/unavailable.test.ts).

const root = path.resolve(import.meta.dirname, '..', '..');
const patches = fs.readdirSync(path.join(root, 'patches')).filter((file) => file.endsWith('.patch'));
const installedVersion = (name: string) => (JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
const pinned: Record<string, string> = { ...pkg.dependencies, ...pkg.devDependencies };

describe('patched dependencies', () => {
  it.each(patches)('%s is for the version installed and pinned (a bump fails until the patch is remade or dropped)', (patch) => {
    const [, name, version] = /^(.+)\+(\d[^+]*)\.patch$/.exec(patch)!;
    expect(installedVersion(name)).toBe(version);
    expect(pinned[name]).toBe(version);
  });

  it('postgres.js carries the closed-socket guard in each of its builds', () => {
    for (const build of ['src', 'cjs/src', 'cf/src']) {
      const source = fs.readFileSync(path.join(root, 'node_modules', 'postgres', build, 'connection.js'), 'utf8');
      expect(source).toContain('/* codetally: closed-socket guard */');
      expect(source).toContain("error(Errors.connection('CONNECTION_CLOSED', options, socket))");
    }
  });

  it("drizzle's DrizzleQueryError names the statement, never its parameters (ESM and CommonJS builds)", () => {
    const { DrizzleQueryError: DrizzleQueryErrorCjs } = createRequire(import.meta.url)('drizzle-orm/errors') as { DrizzleQueryError: typeof DrizzleQueryError };
    for (const QueryError of [DrizzleQueryError, DrizzleQueryErrorCjs]) {
      const err = new QueryError('SELECT $1::uuid', ['param-secret-value'], new Error('cause'));
      expect(err.message).toBe('Failed query: SELECT $1::uuid');
      for (const printed of [String(err), inspect(err, { depth: 10 }), JSON.stringify(err)]) expect(printed).not.toContain('param-secret-value');
    }
  });

  it('a start with a patch missing from the installed files is refused, naming them', () => {
    const fake = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-patches-'));
    try {
      fs.mkdirSync(path.join(fake, 'scripts'));
      fs.copyFileSync(path.join(root, 'scripts', 'launch.mjs'), path.join(fake, 'scripts', 'launch.mjs'));
      fs.mkdirSync(path.join(fake, 'patches'));
      fs.writeFileSync(path.join(fake, 'patches', 'dep+1.0.0.patch'), '--- a/node_modules/dep/index.js\n+++ b/node_modules/dep/index.js\n');
      fs.mkdirSync(path.join(fake, 'node_modules', 'dep'), { recursive: true });
      fs.writeFileSync(path.join(fake, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
      const result = spawnSync(process.execPath, [path.join(fake, 'scripts', 'launch.mjs'), 'migrate'], { encoding: 'utf8' });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('installed without their patches (node_modules/dep/index.js)');
    } finally {
      fs.rmSync(fake, { recursive: true, force: true });
    }
  });
});
