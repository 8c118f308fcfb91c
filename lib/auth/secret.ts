import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { config } from '../config';
import { rows, type Db } from '../db/client';

let cached: Promise<string> | undefined;

/**
 * The key that signs and encrypts sessions: AUTH_SECRET, or else one the service generated
 * for itself and keeps in the database, so a fresh install needs no setup and every process
 * of one installation agrees on it.
 */
export function authSecret(db: Db): Promise<string> {
  const fromEnv = config().AUTH_SECRET;
  if (fromEnv) return Promise.resolve(fromEnv);
  cached ??= (async () => {
    const [row] = await rows<{ value: string }>(
      db,
      // The no-op update returns the row another process may have just created.
      sql`INSERT INTO server_secrets (name, value) VALUES ('auth_secret', ${randomBytes(32).toString('base64url')})
          ON CONFLICT (name) DO UPDATE SET value = server_secrets.value RETURNING value`,
    );
    return row.value;
  })().catch((err) => {
    cached = undefined;
    throw err;
  });
  return cached;
}
