import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as renameRoute } from '@/app/main/api/v1/me/projects/[name]/rename/route';
import { POST as syncRoute } from '@/app/main/api/v1/sync/activities/route';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { addDays } from '@/lib/dates';
import { localDateHour } from '@/lib/local-time';
import { listProjects, ownRange } from '@/lib/projects/read';
import { mergeQuestion, projectPageData } from '@/lib/web/account/projects';
import { call, newUser, tokenWithScopes } from '../helpers/api';

// A merge gives the same project one size: the question before it ("“a” (30 mins, all time)"), the
// project list, and the list of merges that can be split back out after it, each hour capped at
// 3600 s as every figure counts it, over the same history, each saying which.

describe('the sizes of a merge', () => {
  it('are the same before and after it, an hour over the cap scaled down, and say their period', async () => {
    const { user, token: sync } = await newUser({ timezone: 'UTC' });
    const account = await tokenWithScopes(user.id, ['account']);
    const d = addDays(localDateHour('UTC').date, -3);
    const activities = [
      // Hour 9 holds 2 hours: each project's share of it is scaled down to half.
      { date: d, hour: 9, language: 'Go', time: 3600, project_name: 'a', ide_name: 'vscode' },
      { date: d, hour: 9, language: 'Go', time: 3600, project_name: 'c', ide_name: 'vscode' },
      { date: d, hour: 10, language: 'Go', time: 600, project_name: 'a', ide_name: 'vscode' },
      { date: d, hour: 11, language: 'Go', time: 900, project_name: 'b', ide_name: 'vscode' },
    ];
    expect((await call(syncRoute, '/sync/activities', { token: sync, body: { activities } })).status).toBe(200);
    const db = await getDb();
    const [session] = await db.select().from(users).where(eq(users.id, user.id));
    const { projects } = await listProjects(db, user.id, await ownRange(db, user.id, { name: 'all' }, 'UTC'));
    const listed = Object.fromEntries(projects.map((p) => [p.name, p.seconds]));
    expect(listed).toMatchObject({ a: 1800 + 600, b: 900 });

    const question = await mergeQuestion(session, 'a', 'b');
    expect(question).toEqual({ from: { name: 'a', seconds: 2400 }, into: { name: 'b', seconds: 900 }, period: 'all time' });

    const request = new Request('http://localhost/main/api/v1/me/projects/a/rename', {
      method: 'POST',
      headers: { authorization: `Bearer ${account}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: 'b' }),
    });
    expect((await renameRoute(request, { params: Promise.resolve({ name: 'a' }) })).status).toBe(200);
    const page = await projectPageData(session, 'b', {});
    expect(page?.merges.map((m) => [m.project, m.seconds])).toEqual([['a', question!.from.seconds]]);
    expect(page?.mergesPeriod).toBe('all time');
  });
});
