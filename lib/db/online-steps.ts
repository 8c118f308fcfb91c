import { sql } from 'drizzle-orm';
import { rows, type DbHandle } from './client';

// Schema changes that must not hold a lock for as long as the table is large, and so cannot run in
// a migration (drizzle runs every migration in one transaction, where CREATE INDEX CONCURRENTLY is
// refused). Each step says whether it is done, and is run after the migrations by whoever migrates
// (npm start, db:migrate, a deploy's build), under the migrations' advisory lock; a step cut short
// (an index left invalid by a crash) is begun again. Every step is idempotent.

interface OnlineStep {
  name: string;
  done: (handle: DbHandle) => Promise<boolean>;
  run: (handle: DbHandle) => Promise<void>;
}

const KEY_COLUMNS = '"user_id", "date", "hour", "language", "project", "editor", "category", "machine", "os", "ai_agent"';

/**
 * ide_activity's primary key with the dimensions of migration 0017: its index built CONCURRENTLY
 * (writes go on meanwhile; a large install takes minutes), then swapped for the old key in one
 * short ALTER. The embedded database builds it directly (it is small, and one process owns it).
 */
const ideActivityKey: OnlineStep = {
  name: 'ide_activity primary key with the dimensions',
  async done(handle) {
    const [row] = await rows<{ done: boolean }>(
      handle.db,
      sql`SELECT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'ide_activity'::regclass AND contype = 'p' AND conname = 'ide_activity_pkey') AS done`,
    );
    return row.done;
  },
  async run(handle) {
    const next = 'ide_activity_pkey_next';
    // An index a crashed build left invalid is dropped and built again.
    await handle.db.execute(
      sql.raw(`DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = '${next}' AND NOT i.indisvalid) THEN
          DROP INDEX "${next}";
        END IF;
      END $$`),
    );
    const concurrently = handle.kind === 'postgres' ? 'CONCURRENTLY ' : '';
    await handle.db.execute(sql.raw(`CREATE UNIQUE INDEX ${concurrently}IF NOT EXISTS "${next}" ON "ide_activity" (${KEY_COLUMNS})`));
    await handle.db.execute(
      sql.raw(`ALTER TABLE "ide_activity" DROP CONSTRAINT IF EXISTS "ide_activity_user_id_date_hour_language_project_editor_pk",
        ADD CONSTRAINT "ide_activity_pkey" PRIMARY KEY USING INDEX "${next}"`),
    );
  },
};

export const onlineSteps: readonly OnlineStep[] = [ideActivityKey];

/** Runs the steps not done yet, in order. */
export async function runOnlineSteps(handle: DbHandle): Promise<void> {
  for (const step of onlineSteps) {
    if (await step.done(handle)) continue;
    const started = Date.now();
    await step.run(handle);
    console.log(`[codetally] ${step.name}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
