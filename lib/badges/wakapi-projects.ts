import { and, eq, notExists, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { hiddenProjects, projectBadges } from '../db/schema';
import { hasProject, unknownProject } from '../projects/read';

// The per-project setting behind Wakapi's project badge URLs (`…/project:{name}`,
// lib/badges/wakapi.ts): off until the owner makes the project's badge public (PUT
// /me/projects/{name}/badge, or the project's page on the dashboard), since a project's name and
// time can say what the owner works on for whom. A renamed project's badge stays with the old
// name, which then shows nothing: the owner makes the new name's badge public if they want it.

export const projectBadgeSchema = z.object({ public: z.boolean({ error: 'public must be true or false' }) }).meta({ id: 'ProjectBadge' });
export const projectBadgeStateSchema = z.object({ project: z.string(), public: z.boolean() }).meta({ id: 'ProjectBadgeState' });

/**
 * Whether the owner made this project's badge public (the name exactly as their list shows it)
 * and has not hidden the project since: a hidden project's name shows on no public surface.
 */
export async function isPublicProjectBadge(db: Db, userId: string, name: string): Promise<boolean> {
  const hidden = db
    .select({ one: sql`1` })
    .from(hiddenProjects)
    .where(and(eq(hiddenProjects.userId, userId), eq(hiddenProjects.project, name)));
  const [found] = await db
    .select({ one: sql<number>`1` })
    .from(projectBadges)
    .where(and(eq(projectBadges.userId, userId), eq(projectBadges.project, name), notExists(hidden)))
    .limit(1);
  return found !== undefined;
}

/** Makes a project's badge public or private again; 404 for a project the user has no time in (making one private always works). */
export async function setProjectBadge(db: Db, userId: string, name: string, on: boolean): Promise<{ project: string; public: boolean }> {
  if (!on) {
    await db.delete(projectBadges).where(and(eq(projectBadges.userId, userId), eq(projectBadges.project, name)));
  } else {
    if (!(await hasProject(db, userId, name))) throw unknownProject();
    await db.insert(projectBadges).values({ userId, project: name }).onConflictDoNothing();
  }
  return { project: name, public: on };
}
