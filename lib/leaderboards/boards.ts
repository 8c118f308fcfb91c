import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { cols } from '../db/names';
import { privateLeaderboardMembers, privateLeaderboards, users } from '../db/schema';
import { ApiError } from '../http/problem';
import { isUuid } from '../ids';
import { assertWithin, limitsOf } from '../plans/limits';

// Private leaderboards: made by anyone, joined by invite code, read by members only. A non-member
// gets the same 404 as for an unknown id, so nobody learns that a board exists. The boards a user
// makes are bounded by their plan's `private_leaderboards` (createBoard); joining is not.

const [b, m] = [privateLeaderboards, privateLeaderboardMembers];

export type BoardRole = 'owner' | 'member';

export interface MemberBoard {
  id: string;
  name: string;
  role: BoardRole;
  members_count: number;
  /** The owner's only: other members cannot hand the board on. */
  invite_code: string | null;
  created_at: string;
  modified_at: string;
}

export const boardNotFound = () => new ApiError('not_found', 'No private leaderboard with that id among yours.');
const codeNotFound = () =>
  new ApiError('not_found', 'No private leaderboard has that invite code.', {
    errors: [{ path: 'code', code: 'not_found', message: 'code: no private leaderboard has this invite code (it may have been replaced)' }],
  });

/** 128 random bits, URL-safe: too many to guess, short enough to paste. */
const newInviteCode = () => randomBytes(16).toString('base64url');

/** Creates a board with its creator as owner and first member. */
export async function createBoard(db: Db, userId: string, input: { name: string }): Promise<{ id: string; name: string; invite_code: string }> {
  return db.transaction(async (tx) => {
    // The user's row is the lock every creation of theirs takes: two at once cannot both pass the limit.
    await tx.execute(sql`SELECT 1 FROM ${users} WHERE ${users.id} = ${userId}::uuid FOR UPDATE`);
    await assertWithin(tx, userId, 'private_leaderboards', await boardsOwned(tx, userId));
    const [board] = await rows<{ id: string; name: string; invite_code: string }>(
      tx,
      sql`INSERT INTO ${b} (${cols(b.name, b.inviteCode, b.ownerId)}) VALUES (${input.name}, ${newInviteCode()}, ${userId}::uuid)
          RETURNING id, name, invite_code`,
    );
    await tx.execute(sql`INSERT INTO ${m} (${cols(m.boardId, m.userId)}) VALUES (${board.id}::uuid, ${userId}::uuid)`);
    return board;
  });
}

/** Joins the board of an invite code; joining one I am on already changes nothing. */
export async function joinBoard(db: Db, userId: string, code: string): Promise<{ id: string; name: string }> {
  // One statement: a board deleted or given a new code meanwhile is joined by nobody.
  const [board] = await rows<{ id: string; name: string }>(
    db,
    sql`WITH board AS (SELECT id, name FROM ${b} WHERE ${b.inviteCode} = ${code} FOR SHARE),
        joined AS (INSERT INTO ${m} (${cols(m.boardId, m.userId)}) SELECT id, ${userId}::uuid FROM board ON CONFLICT DO NOTHING)
        SELECT id, name FROM board`,
  );
  if (!board) throw codeNotFound();
  return board;
}

/** What a board's invite link leads to, as the page it opens shows it before anyone joins. */
export type BoardInvitation = { status: 'open' | 'member'; id: string; name: string; owner: string; members: number } | { status: 'unknown' };

/**
 * The board of an invite code, named for whoever holds the code (the code is what lets one in):
 * its name, its owner's handle, its members, and whether `userId` (if signed in) is on it already.
 */
export async function boardInvitation(db: Db, code: string, userId: string | null): Promise<BoardInvitation> {
  if (code === '' || code.length > 64) return { status: 'unknown' };
  const [board] = await rows<{ id: string; name: string; owner: string; members: number; mine: boolean }>(
    db,
    sql`SELECT ${b.id} AS id, ${b.name} AS name, ${users.handle} AS owner,
               (SELECT count(*)::int FROM ${m} a WHERE a.board_id = ${b.id}) AS members,
               EXISTS (SELECT 1 FROM ${m} a WHERE a.board_id = ${b.id} AND a.user_id = ${userId}::uuid) AS mine
        FROM ${b} JOIN ${users} ON ${users.id} = ${b.ownerId}
        WHERE ${b.inviteCode} = ${code}`,
  );
  if (!board) return { status: 'unknown' };
  return { status: board.mine ? 'member' : 'open', id: board.id, name: board.name, owner: board.owner, members: Number(board.members) };
}

const summary = (where: ReturnType<typeof sql>, userId: string) => sql`
  SELECT ${b.id} AS id, ${b.name} AS name, CASE WHEN ${b.ownerId} = ${userId}::uuid THEN 'owner' ELSE 'member' END AS role,
         (SELECT count(*)::int FROM ${m} a WHERE a.board_id = ${b.id}) AS members_count,
         CASE WHEN ${b.ownerId} = ${userId}::uuid THEN ${b.inviteCode} END AS invite_code,
         to_char(${b.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
         to_char(${b.modifiedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS modified_at
  FROM ${b} JOIN ${m} ON ${m.boardId} = ${b.id} AND ${m.userId} = ${userId}::uuid
  WHERE ${where}`;

/** The boards I am a member of, the newest first. */
export function myBoards(db: Db, userId: string): Promise<MemberBoard[]> {
  return rows<MemberBoard>(db, sql`${summary(sql`true`, userId)} ORDER BY ${b.createdAt} DESC, ${b.id}`);
}

/** A board I am a member of; 404 for any other id (unknown, malformed, or not mine alike). */
export async function memberBoard(db: Db, userId: string, boardId: string): Promise<MemberBoard> {
  if (!isUuid(boardId)) throw boardNotFound();
  const [board] = await rows<MemberBoard>(db, summary(sql`${b.id} = ${boardId}::uuid`, userId));
  if (!board) throw boardNotFound();
  return board;
}

/** A board I own; 404 if I am not on it, 403 if I am a member but not its owner. */
async function ownedBoard(db: Db, userId: string, boardId: string): Promise<MemberBoard> {
  const board = await memberBoard(db, userId, boardId);
  if (board.role !== 'owner') throw new ApiError('forbidden', 'Only the owner of this private leaderboard may do that.');
  return board;
}

/**
 * Leaves a board: my row goes, so the next read of any member no longer ranks me. The owner, who
 * alone can replace its code or delete it, leaves only a board no one else is on (it is deleted
 * with them); otherwise 409 `last_owner`: delete it instead.
 */
export async function leaveBoard(db: Db, userId: string, boardId: string): Promise<void> {
  if (!isUuid(boardId)) throw boardNotFound();
  await db.transaction(async (tx) => {
    const [board] = await rows<{ owner: boolean; others: number }>(
      tx,
      sql`SELECT ${b.ownerId} = ${userId}::uuid AS owner,
                 (SELECT count(*)::int FROM ${m} WHERE ${m.boardId} = ${b.id} AND ${m.userId} <> ${userId}::uuid) AS others
          FROM ${b} JOIN ${m} ON ${m.boardId} = ${b.id} AND ${m.userId} = ${userId}::uuid
          WHERE ${b.id} = ${boardId}::uuid FOR UPDATE OF ${b}`,
    );
    if (!board) throw boardNotFound();
    if (board.owner && board.others > 0) throw new ApiError('last_owner', 'The owner cannot leave a private leaderboard others are on: delete it instead.');
    await tx.execute(sql`DELETE FROM ${m} WHERE ${m.boardId} = ${boardId}::uuid AND ${m.userId} = ${userId}::uuid`);
    await tx.execute(sql`DELETE FROM ${b} WHERE ${b.id} = ${boardId}::uuid AND NOT EXISTS (SELECT 1 FROM ${m} WHERE ${m.boardId} = ${boardId}::uuid)`);
  });
}

/** The boards the user owns. */
async function boardsOwned(db: Db, userId: string): Promise<number> {
  const [made] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${b} WHERE ${b.ownerId} = ${userId}::uuid`);
  return Number(made.n);
}

/**
 * Before an account is deleted: each board it owns passes to its longest-standing other member
 * whose plan has room for one more (fewer boards owned than their `private_leaderboards`, counted
 * under their row lock as createBoard counts), so that someone can still replace its code or
 * delete it; a board no other member has room for, or with no other member, goes with it. A
 * hand-over never gives anyone more boards than their plan allows.
 */
export async function handOverBoards(db: Db, userId: string): Promise<void> {
  const owned = await rows<{ id: string }>(db, sql`SELECT id FROM ${b} WHERE ${b.ownerId} = ${userId}::uuid ORDER BY id FOR UPDATE`);
  for (const { id } of owned) {
    const others = await rows<{ user_id: string }>(
      db,
      sql`SELECT ${m.userId} AS user_id FROM ${m} WHERE ${m.boardId} = ${id}::uuid AND ${m.userId} <> ${userId}::uuid ORDER BY ${m.joinedAt}, ${m.userId}`,
    );
    let heir: string | undefined;
    for (const { user_id: candidate } of others) {
      await db.execute(sql`SELECT 1 FROM ${users} WHERE ${users.id} = ${candidate}::uuid FOR UPDATE`);
      const allowed = (await limitsOf(db, candidate)).private_leaderboards;
      if (allowed === null || (await boardsOwned(db, candidate)) < allowed) {
        heir = candidate;
        break;
      }
    }
    if (heir) await db.execute(sql`UPDATE ${b} SET owner_id = ${heir}::uuid WHERE ${b.id} = ${id}::uuid`);
    else await db.execute(sql`DELETE FROM ${b} WHERE ${b.id} = ${id}::uuid`);
  }
}

/** Replaces the invite code (the owner's): the old one joins nobody from now on. */
export async function rotateInviteCode(db: Db, userId: string, boardId: string): Promise<{ id: string; invite_code: string }> {
  await ownedBoard(db, userId, boardId);
  const [row] = await rows<{ id: string; invite_code: string }>(
    db,
    sql`UPDATE ${b} SET invite_code = ${newInviteCode()}, modified_at = now() WHERE ${b.id} = ${boardId}::uuid RETURNING id, invite_code`,
  );
  return row;
}

/** Deletes a board with its memberships (the owner's). */
export async function deleteBoard(db: Db, userId: string, boardId: string): Promise<void> {
  await ownedBoard(db, userId, boardId);
  await db.execute(sql`DELETE FROM ${b} WHERE ${b.id} = ${boardId}::uuid`);
}
