import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config, ConfigError } from '../config';

// The key that signs and encrypts sessions: whoever holds it can forge any session, so it is
// never stored in the database (a leaked backup must not hand it over). AUTH_SECRET, or, with
// the embedded database only, a key the service generates once and stores in a file of its own
// next to the database (mode 0600): a fresh install needs no setup. With PostgreSQL, several
// processes must share one key and nothing but the environment can give it to them.

const FILE = 'auth-secret';

/** Why this configuration cannot sign sessions, or null. */
export function authSecretProblem(cfg = config()): string | null {
  if (cfg.AUTH_SECRET || !cfg.DATABASE_URL) return null;
  return 'AUTH_SECRET is required with DATABASE_URL: every server process must sign sessions with the same key. Generate one with `openssl rand -base64 32` and set it in the environment of every process.';
}

let cached: string | undefined;

/** The session key (reads or creates the embedded install's key file on first use). */
export function authSecret(): string {
  const cfg = config();
  if (cfg.AUTH_SECRET) return cfg.AUTH_SECRET;
  const problem = authSecretProblem(cfg);
  if (problem) throw new ConfigError(problem);
  if (cached) return cached;
  const file = path.join(cfg.DATA_DIR, FILE);
  try {
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  cached = fs.readFileSync(file, 'utf8').trim();
  return cached;
}
