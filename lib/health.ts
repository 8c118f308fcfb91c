import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from './db/client';

const timeoutMs = 3000;

export const healthSchema = z.object({ status: z.enum(['ok', 'degraded']), db: z.enum(['ok', 'unavailable']) }).meta({ id: 'Health' });

/** A database round trip, bounded in time so a hung database still gets an answer. */
export async function checkHealth(): Promise<z.output<typeof healthSchema>> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const probe = (async () => (await getDb()).execute(sql`SELECT 1`))();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('health check timed out')), timeoutMs);
    });
    await Promise.race([probe, timeout]);
    return { status: 'ok', db: 'ok' };
  } catch (err) {
    console.error('[codetally] health check failed:', (err as Error).message);
    return { status: 'degraded', db: 'unavailable' };
  } finally {
    clearTimeout(timer);
  }
}
