import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client';
import { perDatabase } from '../../db/services';

// This install's id, sent with every relayed heartbeat as X-Origin-Instance: made once, by the
// first process that asks, and kept in the database (server_secrets), so every process of the
// install, and every restart, sends the same one. It is no secret: it only names the install.

async function readInstallId(db: Db): Promise<string> {
  const [row] = await rows<{ value: string }>(
    db,
    sql`WITH made AS (
          INSERT INTO server_secrets (name, value) VALUES ('install_id', gen_random_uuid()::text) ON CONFLICT (name) DO NOTHING RETURNING value)
        SELECT value FROM made UNION ALL SELECT value FROM server_secrets WHERE name = 'install_id' LIMIT 1`,
  );
  return row.value;
}

/** This install's id, read once per database (a failed read is read again next time). */
export function installId(db: Db): Promise<string> {
  const slot = perDatabase<{ id?: Promise<string> }>(db, 'installId', () => ({}));
  if (!slot) return readInstallId(db);
  return (slot.id ??= readInstallId(db).catch((err) => {
    slot.id = undefined;
    throw err;
  }));
}
