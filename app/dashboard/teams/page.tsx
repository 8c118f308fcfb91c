import { noticeText } from '@/lib/web/account/notices';
import type { Metadata } from 'next';
import { createTeamAction, joinTeamAction } from './actions';
import { getDb } from '@/lib/db/client';
import { myTeams, roomText } from '@/lib/teams/teams';
import { teamInvitation, type TeamInvitation } from '@/lib/teams/invitations';
import { joinPath } from '@/lib/web/account/invitation';
import { requireUser } from '@/lib/web/account/session';

// Teams (GET/POST /teams and POST /teams/join, as a page): my teams, making one, and joining one
// by its code. An invite link is this page with `?code=`: it names the team (and its owner)
// before anyone joins, says why it cannot be joined (full, expired), and the join form comes
// filled in. Opening the link alone never joins: a link another site loads could otherwise put
// a visitor in a team, showing their coding time to its members.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Teams', description: 'Your teams.', robots: { index: false } };

const shareLabels = { none: 'nothing', total: 'your total', languages: 'your total and languages' } as const;

/** What the invite link opens, said before the join form: the team, or why it cannot be joined. */
function Invitation({ invitation }: { invitation: TeamInvitation }) {
  if (!('name' in invitation)) {
    return (
      <p className="form-error" role="alert">
        {invitation.status === 'expired'
          ? 'This invite link has expired. Ask the person who sent it for a new link.'
          : 'This invite link opens no team: it was replaced by a new one, or the team is gone. Ask the person who sent it for a new link.'}
      </p>
    );
  }
  return (
    <section aria-labelledby="invitation" className="notice" data-invitation={invitation.status}>
      <h2 id="invitation">
        {invitation.status === 'member' ? 'You are in ' : 'Join '}
        <span>«{invitation.name}»</span>
      </h2>
      <p>
        {invitation.owner && <>A team of @{invitation.owner}&apos;s, </>}
        {roomText(invitation)}. The team&apos;s name is its owner&apos;s words, not Codetally&apos;s.
      </p>
      {invitation.status === 'member' && (
        <p>
          <a href={`/dashboard/teams/${invitation.id}`}>Open the team&apos;s page</a>.
        </p>
      )}
      {invitation.status === 'full' && (
        <p role="alert">
          This team is full: {invitation.members} of {invitation.limit} members. Ask its owners to make room (they see that the team is full), then open this link again.
        </p>
      )}
    </section>
  );
}

export default async function TeamsPage({ searchParams }: { searchParams: Promise<{ code?: string; error?: string }> }) {
  const { code: asked, error } = await searchParams;
  const code = typeof asked === 'string' ? asked.trim().slice(0, 100) : undefined;
  const user = await requireUser(code ? joinPath('team', code) : '/dashboard/teams');
  const db = await getDb();
  const teams = await myTeams(db, user.id);
  const invitation = code ? await teamInvitation(db, code, user.id) : null;
  return (
    <>
      <h1>Teams</h1>
      <p className="muted">A team sees its members&apos; coding time, each member choosing what of theirs it sees. Nothing of a team is public.</p>
      {noticeText(error) && (
        <p className="form-error" role="alert">
          {noticeText(error)}
        </p>
      )}
      {invitation && <Invitation invitation={invitation} />}
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
          <input id="team-code" name="code" required maxLength={100} defaultValue={invitation?.status === 'open' ? code : ''} autoComplete="off" />
        </div>
        <button type="submit">Join</button>
      </form>
      {invitation?.status === 'open' && <p className="muted">You share your total with a team you join; change it on the team&apos;s page at any time.</p>}
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
