import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { users } from '../db/schema';

// A renamed project's old name keeps arriving: plugins send what the folder is called, imports
// carry the old name. users.project_aliases maps each old name to the name its time counts under
// now, and every write maps its projects through it in the statement that stores them (no extra
// round trip). The map is kept flat: a value is never a key, so one lookup resolves a chain of
// renames, and a rename back onto an old name removes that name's entry instead of looping.
//
// Why the map lives on the users row: a write reads it with FOR KEY SHARE and a rename takes the
// row FOR UPDATE before anything else, so a write that starts while a rename runs waits for it and
// then reads the new map (a locking read in READ COMMITTED returns the row's latest version). A
// map in a table of its own would be read from the write's snapshot, taken before the wait.

export type ProjectAliases = Record<string, string>;

/** The project a write stores for `project` (an SQL expression), read with the row locked (see above). */
export const aliasesCte = (userId: string | Placeholder | SQL) =>
  sql`project_aliases AS MATERIALIZED (SELECT ${users.projectAliases} AS map FROM ${users} WHERE ${users.id} = ${userId}::uuid FOR KEY SHARE)`;

/** `project` mapped through the map `aliasesCte` read. */
export const aliased = (project: SQL) => sql`coalesce((SELECT map FROM project_aliases) ->> (${project}), ${project})`;

/**
 * `project` mapped through the map of the statement's snapshot: for a statement that has made
 * sure on its own that no rename committed since its snapshot (the heartbeat statement checks
 * the user's stats version, which a rename moves).
 */
export const aliasedInSnapshot = (userId: string | Placeholder | SQL, project: SQL) =>
  sql`coalesce((SELECT ${users.projectAliases} FROM ${users} WHERE ${users.id} = ${userId}::uuid) ->> (${project}), ${project})`;

/** The user's map, the row held FOR KEY SHARE until the transaction ends (a rename waits for it). */
export async function lockedAliases(tx: Db, userId: string): Promise<ProjectAliases> {
  const [found] = await rows<{ map: ProjectAliases }>(tx, sql`SELECT ${users.projectAliases} AS map FROM ${users} WHERE ${users.id} = ${userId}::uuid FOR KEY SHARE`);
  return found?.map ?? {};
}

/**
 * The map after `from` (stored names) became `to`: what pointed at a source points at `to`, each
 * source points at `to` (except '', which is no name a plugin sends: future time without a project
 * stays without one), and `to` is a live name again, so its own entry goes.
 */
export function renamedAliases(map: ProjectAliases, from: readonly string[], to: string): ProjectAliases {
  const next: ProjectAliases = {};
  for (const [old, now] of Object.entries(map)) next[old] = from.includes(now) ? to : now;
  for (const name of from) if (name !== '') next[name] = to;
  delete next[to];
  for (const [old, now] of Object.entries(next)) if (old === now) delete next[old];
  return next;
}
