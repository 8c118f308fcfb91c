import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { DesktopRow, IdeRow } from './buckets';

// Each batch is one statement: the rows travel as a single JSON parameter, are ordered by key
// (concurrent batches then lock shared rows in the same order and cannot deadlock), and are
// added to what is stored. Callers pass rows already grouped: a statement may touch a row once.

export async function upsertIdeRows(db: Db, userId: string, rows: IdeRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`
    INSERT INTO ide_activity AS a (user_id, date, hour, language, project, editor, millis, lines)
    SELECT ${userId}::uuid, r.date, r.hour, r.language, r.project, r.editor, r.millis, r.lines
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS r(date date, hour smallint, language text, project text, editor text, millis bigint, lines bigint)
    ORDER BY r.date, r.hour, r.language, r.project, r.editor
    ON CONFLICT (user_id, date, hour, language, project, editor) DO UPDATE
      SET millis = a.millis + excluded.millis, lines = a.lines + excluded.lines, updated_at = now()`);
}

export async function upsertDesktopRows(db: Db, userId: string, rows: DesktopRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`
    INSERT INTO desktop_activity AS a (user_id, date, hour, platform, app, millis)
    SELECT ${userId}::uuid, r.date, r.hour, r.platform, r.app, r.millis
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS r(date date, hour smallint, platform text, app text, millis bigint)
    ORDER BY r.date, r.hour, r.platform, r.app
    ON CONFLICT (user_id, date, hour, platform, app) DO UPDATE
      SET millis = a.millis + excluded.millis, updated_at = now()`);
}
