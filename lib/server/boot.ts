import { startControlSocket } from '../admin/control';
import { authSecretProblem } from '../auth/secret';
import { config, ConfigError, type Config } from '../config';
import { installCacheClock } from '../cache/clock';
import { expireTagsOnChange } from '../cache/vercel';
import { getDb } from '../db/client';
import { servicesOf } from '../db/services';
import { sessionSettingsProblem } from '../db/settings';
import { DataDirInUse } from '../db/embedded-lock';
import { startWeeklyReports } from '../mail/weekly';
import { startTrustChecks } from '../leaderboards/trust/check';
import { resumeImports } from '../wakatime/importing/import-queue';
import { startRelays } from '../wakatime/relaying/sender';
import { defaultPlanLine } from '../plans/default-plan';

function refuseToStart(message: string): never {
  console.error(`[codetally] ${message}`);
  process.exit(1);
}

/**
 * What a server process does when it starts: check the configuration and what only a server
 * needs (a session key every process shares), and with the embedded database, open it (taking
 * its lock) and the operator socket. A second process on the same data directory stops here, saying why. Then
 * the page cache starts receiving changes (lib/cache/clock.ts: until then it serves nothing; on
 * Vercel, lib/cache/vercel.ts), a PostgreSQL database is checked for the session settings of the
 * service's role (lib/db/settings.ts: a warning naming what is missing),
 * imports left unfinished on this server are queued again, with mail configured the weekly
 * reports' check starts (lib/mail/weekly.ts), the leaderboard's signals and hides are checked
 * every minute (lib/leaderboards/trust/check.ts), the relays' sender starts
 * (lib/wakatime/relaying/sender.ts), and the plan new accounts start on is said (or a
 * DEFAULT_PLAN naming no plan stops the server).
 */
export async function boot(): Promise<void> {
  let cfg: Config;
  try {
    cfg = config();
  } catch (err) {
    // However the server was started (npm start, the standalone server.js, a bare next start).
    if (err instanceof ConfigError) refuseToStart(err.message);
    throw err;
  }
  const problem = authSecretProblem(cfg);
  if (problem) refuseToStart(problem);
  if (!cfg.DATABASE_URL) {
    try {
      await startControlSocket();
    } catch (err) {
      // Whatever stops the embedded database or its socket (a second process, a folder that
      // cannot be made or written): one line saying so, and exit 1, never a server left hanging.
      refuseToStart(err instanceof DataDirInUse ? err.message : `the embedded database in ${cfg.DATA_DIR} could not be opened: ${(err as Error)?.message ?? err}`);
    }
  }
  // Imports a stop interrupted start over, in the background.
  void getDb()
    .then((db) => {
      const changes = servicesOf(db)?.changes;
      if (changes) (process.env.VERCEL ? expireTagsOnChange : installCacheClock)(changes);
      if (cfg.DATABASE_URL) {
        void sessionSettingsProblem(db).then(
          (missing) => missing && console.warn(`[codetally] warning: ${missing}`),
          (err) => console.warn('[codetally] warning: the session settings could not be checked:', (err as Error)?.message),
        );
      }
      startWeeklyReports(db);
      startRelays(db);
      startTrustChecks(db);
      void defaultPlanLine(db, cfg.DEFAULT_PLAN).then(
        (line) => console.log(`[codetally] ${line}`),
        (err) => (err instanceof ConfigError ? refuseToStart(err.message) : console.warn('[codetally] warning: the default plan could not be read:', (err as Error)?.message)),
      );
      return resumeImports(db);
    })
    .catch((err) => console.error('[codetally] starting the page cache or resuming imports failed:', (err as Error)?.message));
}
