import { sql } from 'drizzle-orm';
import { usersChanged } from '../db/changes';
import { rows, type Db } from '../db/client';
import { addExcluded, col, cols } from '../db/names';
import { goals, heartbeats, hiddenProjects, ideActivity, importedDays, users } from '../db/schema';
import { renamedAliases, type ProjectAliases } from './aliases';
import { creditDigests, forgetMerges, recordMerge } from './merges';
import { storedProjects, textArray, unknownProject } from './read';
import { NO_PROJECT } from './schemas';

// Renaming a project (POST /me/projects/{name}/rename), in one transaction that locks only the
// owner's rows: the users row first (FOR UPDATE: every write of the user reads the alias map with
// FOR KEY SHARE, so none passes the rename; lib/projects/aliases.ts), then the buckets, the stored
// heartbeats and the imported days' credits move to the new name, the alias map learns the old
// name, and the stats version moves (per-user caches key on it) before the change is announced.
// The rollups carry no project and the hour cap is per user-hour: neither changes. Moving onto a
// project that has time merges the two: buckets with the same key are summed.

/** What a rename did: the name its time counts under now, and whether a project of that name had time before. */
export interface Renamed {
  project: string;
  merged: boolean;
}

export async function renameProject(db: Db, userId: string, name: string, to: string): Promise<Renamed> {
  const from = storedProjects(name);
  const target = to === NO_PROJECT ? '' : to;
  const shown = target === '' ? NO_PROJECT : target;
  const result = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [owner] = await rows<{ map: ProjectAliases }>(tx, sql`SELECT ${users.projectAliases} AS map FROM ${users} WHERE ${users.id} = ${userId}::uuid FOR UPDATE`);
    if (!owner) throw unknownProject();
    const names = textArray(from);
    const [{ source, merged }] = await rows<{ source: boolean; merged: boolean }>(
      tx,
      sql`SELECT EXISTS (SELECT 1 FROM ${ideActivity} WHERE ${ideActivity.userId} = ${userId}::uuid AND ${ideActivity.project} = ANY(${names}::text[]) AND ${ideActivity.project} <> ${target})
              OR EXISTS (SELECT 1 FROM ${heartbeats} WHERE ${heartbeats.userId} = ${userId}::uuid AND ${heartbeats.project} = ANY(${names}::text[]) AND ${heartbeats.project} <> ${target}) AS source,
                 EXISTS (SELECT 1 FROM ${ideActivity} WHERE ${ideActivity.userId} = ${userId}::uuid AND ${ideActivity.project} = ${target}) AS merged`,
    );
    if (!source) {
      // Nothing left under the old name: the same name again (a no-op if it exists), or this very
      // rename done before (every old name now stands for the new one); else no such project.
      const same = from.includes(target) && merged;
      const repeated = !from.includes(target) && from.every((n) => n === '' || owner.map[n] === target) && from.some((n) => n !== '');
      if (same || repeated) return { project: shown, merged: false, changed: false };
      throw unknownProject();
    }
    // A rename of either name ends the splits of earlier merges; a merge records what it moves.
    await forgetMerges(tx, userId, [name, shown]);
    if (merged) await recordMerge(tx, userId, { project: name, into: shown, names, target, aliases: owner.map });
    await moveBuckets(tx, userId, names, target);
    await tx.execute(sql`UPDATE ${heartbeats} SET ${col(heartbeats.project)} = ${target}
                         WHERE ${heartbeats.userId} = ${userId}::uuid AND ${heartbeats.project} = ANY(${names}::text[])`);
    await moveImportedCredits(tx, userId, names, target);
    if (merged) await creditDigests(tx, userId, name);
    // Goals on the project follow it (they match names in any case, as lib/figures/goals.ts does).
    await tx.execute(sql`UPDATE ${goals} SET ${col(goals.project)} = ${shown}
                         WHERE ${goals.userId} = ${userId}::uuid AND lower(${goals.project}) IN (SELECT lower(n) FROM unnest(${names}::text[]) AS n)`);
    // The hidden flag goes with the name, unless the name it merges into has one of its own.
    const [hidden] = await rows<{ was: boolean }>(
      tx,
      sql`WITH gone AS (DELETE FROM ${hiddenProjects} WHERE ${hiddenProjects.userId} = ${userId}::uuid AND ${hiddenProjects.project} = ${name} AND ${name} <> ${shown} RETURNING 1)
          SELECT EXISTS (SELECT 1 FROM gone) AS was`,
    );
    if (hidden.was && !merged) {
      await tx.execute(sql`INSERT INTO ${hiddenProjects} (${cols(hiddenProjects.userId, hiddenProjects.project)}) VALUES (${userId}::uuid, ${shown}) ON CONFLICT DO NOTHING`);
    }
    const map = renamedAliases(owner.map, from.filter((n) => n !== target), target);
    await tx.execute(sql`UPDATE ${users} SET ${col(users.projectAliases)} = ${JSON.stringify(map)}::jsonb, ${col(users.statsVersion)} = ${users.statsVersion} + 1
                         WHERE ${users.id} = ${userId}::uuid`);
    return { project: shown, merged, changed: true };
  });
  if (result.changed) await usersChanged(db, [userId]).catch((err) => console.error('[codetally] change announcement failed:', (err as Error)?.message));
  return { project: result.project, merged: result.merged };
}

/**
 * The buckets of `names` under `target`, each summed into the target's bucket of the same key if
 * there is one: every dimension of the key (category, machine, system, AI agent) and every sum
 * (time, lines, AI and human line changes) goes along.
 */
async function moveBuckets(tx: Db, userId: string, names: string, target: string): Promise<void> {
  const a = ideActivity;
  const others = [a.date, a.hour, a.language, a.editor, a.category, a.machine, a.os, a.aiAgent];
  const sums = [a.millis, a.lines, a.aiAdditions, a.aiDeletions, a.humanAdditions, a.humanDeletions, a.aiSessions, a.aiInputTokens, a.aiOutputTokens, a.aiPromptEvents, a.aiPromptLengthSum];
  const key = cols(a.userId, a.project, ...others);
  const names_ = (list: typeof others) => sql.join(list.map((c) => sql.identifier(c.name)), sql`, `);
  await tx.execute(sql`
    WITH moved AS (
      DELETE FROM ${a} WHERE ${a.userId} = ${userId}::uuid AND ${a.project} = ANY(${names}::text[]) AND ${a.project} <> ${target}
      RETURNING ${cols(...others, ...sums, a.updatedAt)}
    )
    INSERT INTO ${a} (${key}, ${cols(...sums, a.updatedAt)})
    SELECT ${userId}::uuid, ${target}, ${names_(others)}, ${sql.join(sums.map((c) => sql`sum(${sql.identifier(c.name)})`), sql`, `)}, max(updated_at)
    FROM moved GROUP BY ${names_(others)} ORDER BY ${names_(others)}
    ON CONFLICT (${key}) DO UPDATE SET ${sql.join(sums.map(addExcluded), sql`, `)}, ${col(a.updatedAt)} = greatest(${a.updatedAt}, excluded.${col(a.updatedAt)})`);
}

/**
 * The imported days' stored credits (what a later import of the day subtracts) under the new
 * name, so that they keep naming the buckets that hold their time.
 */
async function moveImportedCredits(tx: Db, userId: string, names: string, target: string): Promise<void> {
  const d = importedDays;
  const holds = sql`jsonb_array_elements(${d.credits} -> 'ide') WITH ORDINALITY AS e(c, n)`;
  await tx.execute(sql`
    UPDATE ${d} SET ${col(d.credits)} = jsonb_set(${d.credits}, '{ide}', (
      SELECT coalesce(jsonb_agg(CASE WHEN c ->> 3 = ANY(${names}::text[]) THEN jsonb_set(c, '{3}', to_jsonb(${target}::text)) ELSE c END ORDER BY n), '[]'::jsonb)
      FROM ${holds}))
    WHERE ${d.userId} = ${userId}::uuid
      -- Containment first (a cheap test on the stored jsonb: the name anywhere in a tuple), then the project's place.
      AND EXISTS (SELECT 1 FROM unnest(${names}::text[]) AS n WHERE ${d.credits} -> 'ide' @> jsonb_build_array(jsonb_build_array(n)))
      AND EXISTS (SELECT 1 FROM ${holds} WHERE c ->> 3 = ANY(${names}::text[]))`);
}
