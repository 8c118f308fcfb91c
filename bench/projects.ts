// The owner's project figures on the read benchmark's data set (bench/read.ts): the project list
// and a project's days over a year of a heavy user (goal <= 20 ms p50), and a rename of a project
// with a year of history (goal <= 2 s), renamed back afterwards so the kept data set stays as made.
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../lib/db/client';
import { addDays } from '../lib/dates';
import { listProjects, projectDays } from '../lib/projects/read';
import { renameProject } from '../lib/projects/rename';

type Timed = (fn: () => Promise<unknown>, runs: number) => Promise<{ p50_ms: number; max_ms: number }>;

export async function projectsBench(db: Db, heavyUsers: number, timed: Timed) {
  // The heavy users with the most buckets (all of them hold a year: bench/dataset.ts).
  const users = await rows<{ id: string }>(
    db,
    sql`SELECT a.user_id AS id FROM ide_activity a JOIN users u ON u.id = a.user_id
        WHERE substr(u.handle, 2)::int <= ${heavyUsers} AND a.date > current_date - 400
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 20`,
  );
  const today = new Date().toISOString().slice(0, 10);
  const year = { from: addDays(today, -364), to: today };
  let i = 0;
  const next = () => users[i++ % users.length].id;
  const results = {
    list_year: await timed(() => listProjects(db, next(), year), 40),
    days_year: await timed(() => projectDays(db, next(), 'proj0', year), 40),
    rename_year: await timed(async () => {
      const id = next();
      await renameProject(db, id, 'proj0', 'proj0-renamed');
      await renameProject(db, id, 'proj0-renamed', 'proj0');
    }, 5),
  };
  console.log('project list and days, one year (goal <= 20 ms p50); a rename there and back (goal <= 2 s each):', JSON.stringify(results));
  return results;
}
