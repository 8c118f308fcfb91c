import { noticeText } from '@/lib/web/account/notices';
import type { Metadata } from 'next';
import { createTeamAction, joinTeamAction } from './actions';
import { getDb } from '@/lib/db/client';
import { myTeams } from '@/lib/teams/teams';
import { requireUser } from '@/lib/web/account/session';

// Teams (GET/POST /teams and POST /teams/join, as a page): my teams, making one, and joining one
// by its code. An invite link is this page with `?code=`: the join form comes filled in.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Teams', description: 'Your teams.', robots: { index: false } };

const shareLabels = { none: 'nothing', total: 'your total', languages: 'your total and languages' } as const;

export default async function TeamsPage({ searchParams }: { searchParams: Promise<{ code?: string; error?: string }> }) {
  const { code, error } = await searchParams;
  const user = await requireUser(code ? `/dashboard/teams?code=${encodeURIComponent(code)}` : '/dashboard/teams');
  const teams = await myTeams(await getDb(), user.id);
  return (
    <>
      <h1>Teams</h1>
      <p className="muted">A team sees its members&apos; coding time, each member choosing what of theirs it sees. Nothing of a team is public.</p>
      {noticeText(error) && (
        <p className="form-error" role="alert">
          {noticeText(error)}
        </p>
      )}
      {teams.length === 0 ? (
        <p className="muted">You are in no team yet.</p>
      ) : (
        <ul>
          {teams.map((t) => (
            <li key={t.id}>
              <a href={`/dashboard/teams/${t.id}`}>{t.name}</a> — {t.role}, {t.members} {t.members === 1 ? 'member' : 'members'}; you share {shareLabels[t.share]}
            </li>
          ))}
        </ul>
      )}
      <h2>Join a team</h2>
      <form action={joinTeamAction} className="inline">
        <div>
          <label htmlFor="team-code">Invite code</label>
          <input id="team-code" name="code" required maxLength={100} defaultValue={code ?? ''} autoComplete="off" />
        </div>
        <button type="submit">Join</button>
      </form>
      {code && <p className="muted">You share your total with a team you join; change it on the team&apos;s page at any time.</p>}
      <h2>Make a team</h2>
      <form action={createTeamAction} className="inline">
        <div>
          <label htmlFor="team-name">Name</label>
          <input id="team-name" name="name" required maxLength={100} />
        </div>
        <button type="submit">Make the team</button>
      </form>
    </>
  );
}
