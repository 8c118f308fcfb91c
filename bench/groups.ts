// Private leaderboards and teams on the read benchmark's data set (bench/read.ts): a member's read
// of a private leaderboard of 1 000 members (by total over 30 and 7 days, and by a language) and
// WakaTime's shape of it, and a member's read of a team page of 200 members over 30 days, a third
// sharing nothing, a third their total and a third their languages (goals <= 50 ms p50). The
// members are users with a year of history and users with a month; what is made here is removed
// afterwards, so the kept data set stays as made.
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../lib/db/client';
import { createBoard } from '../lib/leaderboards/boards';
import { parseBoardQuery, readBoard, wakaBoard } from '../lib/leaderboards/read';
import { teamPage } from '../lib/teams/answers';
import { createTeam } from '../lib/teams/teams';

type Timed = (fn: () => Promise<unknown>, runs: number) => Promise<{ p50_ms: number; max_ms: number }>;

const BOARD_MEMBERS = 1_000;
const TEAM_MEMBERS = 200;

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
    return { ...results, team: await teamBench(db, await someUsers(db, heavyUsers, TEAM_MEMBERS), timed) };
  } finally {
    await db.execute(sql`DELETE FROM private_leaderboards WHERE id = ${board.id}::uuid`);
  }
}

async function teamBench(db: Db, members: string[], timed: Timed) {
  const [owner] = members;
  const team = await createTeam(db, owner, 'bench team');
  try {
    await db.execute(sql`INSERT INTO team_members (team_id, user_id, role, share)
      SELECT ${team.id}::uuid, id, 'member', (ARRAY['none', 'total', 'languages'])[1 + n % 3]
      FROM unnest(${`{${members.slice(1).join(',')}}`}::uuid[]) WITH ORDINALITY AS m(id, n)`);
    await db.execute(sql`ANALYZE team_members`);
    const results = {
      team_page_30d: await timed(() => teamPage(db, owner, team.id, '30d'), 20),
      team_page_7d: await timed(() => teamPage(db, owner, team.id, '7d'), 20),
    };
    console.log(`team page of ${members.length} members, a member's read (goal <= 50 ms p50):`, JSON.stringify(results));
    return results;
  } finally {
    await db.execute(sql`DELETE FROM teams WHERE id = ${team.id}::uuid`);
  }
}
