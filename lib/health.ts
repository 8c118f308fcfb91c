import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { dbHandle } from './db/client';
import { replicaStates } from './db/replicas';

// GET /health: a bounded database round trip, and with DATABASE_REPLICA_URL how each replica is
// (as its last poll found it: answering and within REPLICA_MAX_LAG_SECONDS, and how far behind).
// A replica that is out makes nothing degraded: the primary answers its reads.

const timeoutMs = 3000;

export const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    db: z.enum(['ok', 'unavailable']),
    replicas: z
      .array(
        z.object({
          ok: z.boolean().meta({ description: 'Serving reads: it answers and lags at most REPLICA_MAX_LAG_SECONDS.' }),
          lag_seconds: z.number().nullable().meta({ description: 'How long ago the primary first had changes this replica has not replayed (0: none); null when it does not answer.' }),
        }),
      )
      .optional()
      .meta({ description: 'With DATABASE_REPLICA_URL: each replica in the order given. Public reads go to the primary while one is not ok.' }),
  })
  .meta({ id: 'Health' });

/** A database round trip, bounded in time so a hung database still gets an answer. */
export async function checkHealth(): Promise<z.output<typeof healthSchema>> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const probe = (async () => {
      const { db } = await dbHandle();
      await db.execute(sql`SELECT 1`);
      return replicaStates(db);
    })();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('health check timed out')), timeoutMs);
    });
    const replicas = await Promise.race([probe, timeout]);
    return { status: 'ok', db: 'ok', ...(replicas ? { replicas } : {}) };
  } catch (err) {
    console.error('[codetally] health check failed:', (err as Error).message);
    return { status: 'degraded', db: 'unavailable' };
  } finally {
    clearTimeout(timer);
  }
}
