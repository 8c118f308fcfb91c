// Private leaderboards and teams on the read benchmark's data set (bench/read.ts): a member's read
// of a private leaderboard of 1 000 members (by total over 30 and 7 days, and by a language) and
// WakaTime's shape of it (goal <= 50 ms p50). The members are users with a year of history and
// users with a month; what is made here is removed afterwards, so the kept data set stays as made.
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../lib/db/client';
import { createBoard } from '../lib/leaderboards/boards';
import { parseBoardQuery, readBoard, wakaBoard } from '../lib/leaderboards/read';

type Timed = (fn: () => Promise<unknown>, runs: number) => Promise<{ p50_ms: number; max_ms: number }>;

const BOARD_MEMBERS = 1_000;

/** `count` users, half of them from the heavy ones (a year of history), half from the rest. */
async function someUsers(db: Db, heavyUsers: number, count: number): Promise<string[]> {
  const picked = await rows<{ id: string }>(
    db,
    sql`(SELECT id FROM users WHERE substr(handle, 2)::int <= ${heavyUsers} ORDER BY handle LIMIT ${count / 2})
        UNION ALL
        (SELECT id FROM users WHERE substr(handle, 2)::int > ${heavyUsers} ORDER BY handle LIMIT ${count / 2})`,
  );
  return picked.map((u) => u.id);
}

export async function groupsBench(db: Db, heavyUsers: number, timed: Timed) {
  const members = await someUsers(db, heavyUsers, BOARD_MEMBERS);
  const [owner] = members;
  const board = await createBoard(db, owner, { name: 'bench board' });
  try {
    await db.execute(sql`INSERT INTO private_leaderboard_members (board_id, user_id)
      SELECT ${board.id}::uuid, unnest(${`{${members.join(',')}}`}::uuid[]) ON CONFLICT DO NOTHING`);
    await db.execute(sql`ANALYZE private_leaderboard_members`);
    const results = {
      private_leaderboard_30d: await timed(() => readBoard(db, owner, board.id, parseBoardQuery(new URLSearchParams('range=30d'))), 20),
      private_leaderboard_7d: await timed(() => readBoard(db, owner, board.id, parseBoardQuery(new URLSearchParams('range=7d'))), 20),
      private_leaderboard_language_30d: await timed(() => readBoard(db, owner, board.id, parseBoardQuery(new URLSearchParams('range=30d&language=go'))), 20),
      private_leaderboard_wakatime_7d: await timed(() => wakaBoard(db, owner, board.id, new URLSearchParams()), 20),
    };
    console.log(`private leaderboard of ${members.length} members, a member's read (goal <= 50 ms p50):`, JSON.stringify(results));
    return results;
  } finally {
    await db.execute(sql`DELETE FROM private_leaderboards WHERE id = ${board.id}::uuid`);
  }
}
