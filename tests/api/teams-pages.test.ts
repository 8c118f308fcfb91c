import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/db/client';
import { joinTeam, setShare, createTeam } from '@/lib/teams/teams';
import { newUser } from '../helpers/api';

// The dashboard's team pages rendered as the server renders them, for a signed-in user (the
// session stubbed): what each role sees, and a 404 for anyone else.

const session = vi.hoisted(() => ({ user: null as null | { id: string; handle: string; displayName: string; timezone: string } }));
vi.mock('@/lib/web/account/session', () => ({
  requireUser: async () => session.user,
  currentUser: async () => session.user,
  requestOrigin: async () => 'https://codetally.test',
}));

const { default: TeamsPage } = await import('@/app/dashboard/teams/page');
const { default: TeamPage } = await import('@/app/dashboard/teams/[id]/page');

async function signedIn() {
  const u = await newUser();
  return { id: u.user.id, handle: u.user.handle, displayName: u.user.handle, timezone: 'UTC' };
}

const render = async (page: Promise<React.ReactElement>) => renderToStaticMarkup(await page);

describe('team pages', () => {
  it('lists my teams, fills in an invite link, and shows a team by role and consent', async () => {
    const db = await getDb();
    const [owner, member, outsider] = await Promise.all([signedIn(), signedIn(), signedIn()]);
    const team = await createTeam(db, owner.id, 'Render <team>');
    await joinTeam(db, member.id, team.inviteCode);
    await setShare(db, member.id, team.id, 'none');

    session.user = member;
    const list = await render(TeamsPage({ searchParams: Promise.resolve({ code: 'abc' }) }));
    expect(list).toContain('Render &lt;team&gt;');
    expect(list).toContain('value="abc"');

    const asMember = await render(TeamPage({ params: Promise.resolve({ id: team.id }), searchParams: Promise.resolve({ range: '30d' }) }));
    expect(asMember).toContain('aria-current="page">Last 30 days');
    expect(asMember).toContain('not shared');
    expect(asMember).not.toContain(team.inviteCode);
    expect(asMember).not.toContain('Delete the team');

    session.user = owner;
    const asOwner = await render(TeamPage({ params: Promise.resolve({ id: team.id }), searchParams: Promise.resolve({ error: 'Only owners.' }) }));
    expect(asOwner).toContain(`https://codetally.test/dashboard/teams?code=${team.inviteCode}`);
    expect(asOwner).toContain('Delete the team');
    expect(asOwner).toContain(`Remove ${member.handle} from the team`);
    expect(asOwner).toContain('Only owners.');

    session.user = outsider;
    await expect(TeamPage({ params: Promise.resolve({ id: team.id }), searchParams: Promise.resolve({}) })).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404|NEXT_NOT_FOUND/);
  });
});
