import { sql } from 'drizzle-orm';
import { usersChanged } from '../db/changes';
import { rows, type Db } from '../db/client';
import { col, cols } from '../db/names';
import { heartbeats, hiddenProjects, ideActivity, users } from '../db/schema';
import { storedProjects, textArray, unknownProject } from './read';

// Hiding a project (PUT /me/projects/{name}/hidden): its time still counts in every total, but its
// name shows on no surface but the owner's project list (GET /me/projects with the session or an
// `account` token, and the dashboard's projects page; a `stats` key reads that list without it,
// lib/projects/read.ts). The owner's other lists of projects (the dashboard's, the
// WakaTime-compatible reads) leave it out: its time counts there in the totals only. The data export keeps every name:
// it is the owner's data, not a figure shown. Stored by the name lists show ("(no project)").

export async function setProjectHidden(db: Db, userId: string, name: string, hidden: boolean): Promise<{ project: string; hidden: boolean }> {
  const names = textArray(storedProjects(name));
  const h = hiddenProjects;
  const [found] = await rows<{ known: boolean; changed: boolean }>(
    db,
    sql`WITH known AS (
          SELECT EXISTS (SELECT 1 FROM ${ideActivity} WHERE ${ideActivity.userId} = ${userId}::uuid AND ${ideActivity.project} = ANY(${names}::text[]))
              OR EXISTS (SELECT 1 FROM ${heartbeats} WHERE ${heartbeats.userId} = ${userId}::uuid AND ${heartbeats.project} = ANY(${names}::text[]))
              OR EXISTS (SELECT 1 FROM ${h} WHERE ${h.userId} = ${userId}::uuid AND ${h.project} = ${name}) AS known
        ), changed AS (
          ${
            hidden
              ? sql`INSERT INTO ${h} (${cols(h.userId, h.project)}) SELECT ${userId}::uuid, ${name} FROM known WHERE known ON CONFLICT DO NOTHING RETURNING 1`
              : sql`DELETE FROM ${h} WHERE ${h.userId} = ${userId}::uuid AND ${h.project} = ${name} RETURNING 1`
          }
        ), version AS (
          UPDATE ${users} SET ${col(users.statsVersion)} = ${users.statsVersion} + 1 WHERE ${users.id} = ${userId}::uuid AND EXISTS (SELECT 1 FROM changed)
        )
        SELECT (SELECT known FROM known) AS known, EXISTS (SELECT 1 FROM changed) AS changed`,
  );
  if (!found.known) throw unknownProject();
  if (found.changed) await usersChanged(db, [userId]).catch((err) => console.error('[codetally] change announcement failed:', (err as Error)?.message));
  return { project: name, hidden };
}
