import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { authSecret, authSecretProblem } from '@/lib/auth/secret';
import { parseConfig, resetConfig } from '@/lib/config';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetConfig();
});

describe('the session key', () => {
  it('is required with PostgreSQL: the server refuses to start without AUTH_SECRET', () => {
    expect(authSecretProblem(parseConfig({ DATABASE_URL: 'postgres://db/codetally' }))).toMatch(/AUTH_SECRET is required with DATABASE_URL/);
    expect(authSecretProblem(parseConfig({ DATABASE_URL: 'postgres://db/codetally', AUTH_SECRET: 'x'.repeat(32) }))).toBeNull();
    expect(authSecretProblem(parseConfig({}))).toBeNull();
  });

  it('with the embedded database, is generated once into a file of its own (0600) outside the database', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-'));
    process.env = { ...saved, DATA_DIR: dir };
    delete process.env.AUTH_SECRET;
    delete process.env.DATABASE_URL;
    resetConfig();
    const key = authSecret();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(dir, 'auth-secret');
    expect(fs.readFileSync(file, 'utf8')).toBe(key);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(authSecret()).toBe(key);
  });

  it('is AUTH_SECRET when set', () => {
    process.env = { ...saved, AUTH_SECRET: 'k'.repeat(40) };
    resetConfig();
    expect(authSecret()).toBe('k'.repeat(40));
  });
});
