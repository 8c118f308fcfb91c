import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { trustFlags } from '../../db/schema';
import { endExpiredHides } from './hides';
import { scanSignals } from './signals';

// The minute check every server process runs (lib/server/boot.ts): the signals of whoever wrote
// since the last scan (and, with LEADERBOARD_AUTO_HIDE=on, their hides), then the hides whose end
// has passed, and flags of days more than FLAGS_KEPT_DAYS ago are let go. One at a time in a process; across processes the scan takes an advisory lock and the
// ends skip rows another process holds. A failed check is logged and the next one tries again.

const CHECK_EVERY_MS = 60_000;
/** Flags are kept for this many days after the day they name: the queue is for recent behaviour. */
export const FLAGS_KEPT_DAYS = 180;

declare global {
  var __codetallyTrustCheck: NodeJS.Timeout | undefined;
}

export async function trustCheck(db: Db): Promise<void> {
  await scanSignals(db);
  await endExpiredHides(db);
  await db.execute(sql`DELETE FROM ${trustFlags} WHERE ${trustFlags.day} < current_date - ${FLAGS_KEPT_DAYS}::int`);
}

export function startTrustChecks(db: Db): void {
  if (globalThis.__codetallyTrustCheck) return;
  let running = false;
  const check = () => {
    if (running) return;
    running = true;
    trustCheck(db)
      .catch((err) => console.error('[codetally] the leaderboard trust check failed:', (err as Error)?.message))
      .finally(() => (running = false));
  };
  globalThis.__codetallyTrustCheck = setInterval(check, CHECK_EVERY_MS);
  globalThis.__codetallyTrustCheck.unref();
}
