import { sql } from 'drizzle-orm';
import { COMMUNITY_TAG, handleTag, LEADERBOARD_TAG } from '../../cache/tags';
import { usersChanged } from '../../db/changes';
import { rows, type Db } from '../../db/client';
import { col } from '../../db/names';
import { leaderboardEntries, users } from '../../db/schema';
import { ApiError } from '../../http/problem';
import { hiddenFromPublic } from '../../sharing/gate';
import { textProblem } from '../../text';
import { markUserDates } from '../../stats/community';
import { leaderboardUserChanged } from '../../stats/leaderboard/snapshot';
import { recordAction, type Actor } from './audit';

// Hiding an account from public boards: off the public leaderboard, /leaders and every site-wide
// figure at once, on every process, until an end or until shown again; the person's own figures,
// profile and private boards stay. The hide is two columns of the users row, read by the sharing
// gate (`hiddenFromPublic`) wherever it reads `leaderboard` and `community_stats`; taking effect
// works as a privacy change does: the site-wide cells of the user's dates are marked for
// recomputing, the leaderboard entries leave at once, and the change feed tells every process.
// Decision 0035.

export interface HiddenState {
  reason: string;
  until: string | null;
}

const userNotFound = () => new ApiError('not_found', 'No user with that handle.');

async function announce(db: Db, user: { id: string; handle: string }): Promise<void> {
  await usersChanged(db, [user.id], [handleTag(user.handle), handleTag(user.id), LEADERBOARD_TAG, COMMUNITY_TAG]);
}

/**
 * Hides a user (by handle, any case); a hidden user's reason and end are replaced. With
 * `onlyIfShown` (the automatic hide) a user hidden already is left as they are. Audited.
 */
export async function hideUser(
  db: Db,
  input: { handle: string; reason: string; until: string | null },
  operator: Actor,
  opts: { onlyIfShown?: boolean } = {},
): Promise<HiddenState & { handle: string }> {
  const u = users;
  if (textProblem(input.handle)) throw userNotFound(); // no handle holds it, and PostgreSQL refuses it
  const done = await db.transaction(async (tx) => {
    const [row] = await rows<{ id: string; handle: string; was_hidden: boolean }>(
      tx,
      sql`SELECT ${u.id} AS id, ${u.handle} AS handle, ${hiddenFromPublic(u)} AS was_hidden FROM ${u} WHERE lower(${u.handle}) = lower(${input.handle}) FOR UPDATE`,
    );
    if (!row) throw userNotFound();
    if (opts.onlyIfShown && row.was_hidden) return null;
    await tx.execute(sql`UPDATE ${u} SET ${col(u.hiddenReason)} = ${input.reason}, ${col(u.hiddenUntil)} = ${input.until}::timestamptz WHERE ${u.id} = ${row.id}::uuid`);
    if (!row.was_hidden) await markUserDates(tx, row.id); // site-wide figures lose this user
    await leaderboardUserChanged(tx, row.id, { leaderboard: false });
    await recordAction(tx, { operator, action: 'hide', handle: row.handle, reason: input.reason, until: input.until });
    return row;
  });
  if (done) await announce(db, done);
  return { handle: done?.handle ?? input.handle, reason: input.reason, until: input.until };
}

/** Shows a hidden user again; answers whether they were hidden. Audited when they were. */
export async function showUser(db: Db, handle: string, operator: Actor): Promise<boolean> {
  const u = users;
  if (textProblem(handle)) throw userNotFound();
  const done = await db.transaction(async (tx) => {
    const [row] = await rows<{ id: string; handle: string; was_hidden: boolean }>(
      tx,
      sql`SELECT ${u.id} AS id, ${u.handle} AS handle, ${u.hiddenReason} IS NOT NULL AS was_hidden FROM ${u} WHERE lower(${u.handle}) = lower(${handle}) FOR UPDATE`,
    );
    if (!row) throw userNotFound();
    if (!row.was_hidden) return null;
    await shown(tx, row.id);
    await recordAction(tx, { operator, action: 'show', handle: row.handle });
    return row;
  });
  if (done) await announce(db, done);
  return done !== null;
}

/**
 * The user is no longer hidden: their dates are marked for the site-wide cells, their leaderboard
 * entries listed again at once if they are on the leaderboard (kept up to date while hidden), and
 * summed afresh by the next rebuild.
 */
async function shown(tx: Db, userId: string): Promise<void> {
  const [u, e] = [users, leaderboardEntries];
  await tx.execute(sql`UPDATE ${u} SET ${col(u.hiddenReason)} = NULL, ${col(u.hiddenUntil)} = NULL WHERE ${u.id} = ${userId}::uuid`);
  await markUserDates(tx, userId);
  await leaderboardUserChanged(tx, userId, { leaderboard: true, share_languages: true });
  await tx.execute(sql`UPDATE ${e} SET ${col(e.listed)} = (SELECT ${u.leaderboard} FROM ${u} WHERE ${u.id} = ${userId}::uuid) WHERE ${e.userId} = ${userId}::uuid`);
}

/**
 * Ends the hides whose end has passed (the gate stops hiding them at that instant already; this
 * brings the leaderboard entries and site-wide cells back and tells every process). Run by the
 * minute check; returns the handles shown again.
 */
export async function endExpiredHides(db: Db): Promise<string[]> {
  const u = users;
  const ended = await db.transaction(async (tx) => {
    const due = await rows<{ id: string; handle: string }>(
      tx,
      sql`SELECT ${u.id} AS id, ${u.handle} AS handle FROM ${u} WHERE ${u.hiddenReason} IS NOT NULL AND ${u.hiddenUntil} <= now() ORDER BY ${u.hiddenUntil} LIMIT 100 FOR UPDATE SKIP LOCKED`,
    );
    for (const row of due) {
      await shown(tx, row.id);
      await recordAction(tx, { operator: 'automatic', action: 'hide_ended', handle: row.handle });
    }
    return due;
  });
  for (const row of ended) await announce(db, row);
  return ended.map((r) => r.handle);
}

/** The user's hide, if one is in effect now: what their dashboard and GET /me say. */
export async function hiddenState(db: Db, userId: string): Promise<HiddenState | null> {
  const u = users;
  const [row] = await rows<{ reason: string; until: string | Date | null }>(
    db,
    sql`SELECT ${u.hiddenReason} AS reason, ${u.hiddenUntil} AS until FROM ${u} WHERE ${u.id} = ${userId}::uuid AND ${hiddenFromPublic(u)}`,
  );
  return row ? { reason: row.reason, until: row.until === null ? null : new Date(row.until).toISOString() } : null;
}
