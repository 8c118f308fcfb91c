import { noticeText } from '@/lib/web/account/notices';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { RangeLinks } from '../../range-picker';
import { deleteTeamAction, inviteAction, removeMemberAction, roleAction, rotateCodeAction, shareAction } from '../actions';
import { formatDuration } from '@/lib/badges/format';
import { mailConfigured } from '@/lib/mail/transport';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/problem';
import { teamPage } from '@/lib/teams/answers';
import { teamDays } from '@/lib/teams/figures';
import { roomText, teamRoom } from '@/lib/teams/teams';
import { joinPath } from '@/lib/web/account/invitation';
import { InviteLink } from '../../invite-link';
import styles from './team.module.css';
import { eachDay } from '@/lib/dates';
import { wallClock } from '@/lib/local-time';
import { Card } from '../../../components/card';
import { Breakdown } from '../../../components/chart-figures';
import { StackedDays } from '../../../components/stacked-days';
import { MAX_INVITE_DAYS, teamRanges, teamRoles, type TeamRange } from '@/lib/teams/schemas';
import { requestOrigin, requireUser, siteAddress } from '@/lib/web/account/session';

// A team's page (GET /teams/{id}, as a page): the members' totals over a range, languages of those
// who share them, what I share, and, by role, the invite code, roles and removals. Not a member:
// the same 404 as an unknown team.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Team', robots: { index: false } };

type Team = Awaited<ReturnType<typeof teamPage>>;

/** The team's charts: each sharing member's time per day (stacked, the most time first), and the languages of those who share them. */
function teamCharts(team: Team, days: Map<string, Map<string, number>>) {
  const shown = team.members.filter((m) => (m.seconds ?? 0) > 0 && days.has(m.handle));
  const names = shown.map((m) => `@${m.handle}`);
  const daily = eachDay(team.range.from, team.range.to).map((date) => {
    const parts = shown.map((m) => ({ name: `@${m.handle}`, seconds: days.get(m.handle)?.get(date) ?? 0 }));
    return { date, seconds: parts.reduce((sum, p) => sum + p.seconds, 0), parts };
  });
  const byLanguage = new Map<string, number>();
  for (const m of team.members) for (const l of m.languages ?? []) byLanguage.set(l.name, (byLanguage.get(l.name) ?? 0) + l.seconds);
  const languages = [...byLanguage].map(([name, seconds]) => ({ name, seconds })).sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name));
  return { daily, names, languages };
}

const shareLabels = { none: 'Nothing (listed without figures)', total: 'My total', languages: 'My total and languages' } as const;

export default async function TeamPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ range?: string; error?: string; sent?: string }> }) {
  const { id } = await params;
  const { range: asked, error, sent } = await searchParams;
  const path = `/dashboard/teams/${id}`;
  const user = await requireUser(path);
  const range: TeamRange = (teamRanges as readonly string[]).includes(asked ?? '') ? (asked as TeamRange) : '7d';
  const db = await getDb();
  // The range ends today in the viewer's time zone.
  const team = await teamPage(db, user.id, id, range, new Date(), user.timezone).catch((err) => {
    if (err instanceof ApiError && err.code === 'not_found') notFound();
    throw err;
  });
  const { daily, names, languages } = teamCharts(team, await teamDays(db, team.id, team.range));
  const manager = team.role !== 'member';
  const link = team.invite_code ? `${await requestOrigin()}${joinPath('team', team.invite_code)}` : null;
  // The team's room against its limit (its first owner's plan): full is said before an invitation goes out.
  const room = await teamRoom(db, team.id);
  const hidden = <input type="hidden" name="team" value={team.id} />;
  return (
    <>
      <p>
        <a href="/dashboard/teams">← Teams</a>
      </p>
      <h1>{team.name}</h1>
      <p className="muted">
        You are {team.role === 'admin' ? 'an admin' : `the team's ${team.role === 'owner' ? 'owner' : 'member'}`}. {team.range.from} to {team.range.to}, ending today in your time zone ({user.timezone}); each member&apos;s time is
        counted on their own dates (so no one&apos;s hours show), each hour at most 60 minutes.
      </p>
      {noticeText(error) && (
        <p className="form-error" role="alert">
          {noticeText(error)}
        </p>
      )}
      {sent === '1' && <p role="status">Invitation sent.</p>}
      <p data-testid="team-size">
        {roomText(room)}
        {room.full && <strong> — the team is full</strong>}
      </p>
      <RangeLinks path={path} names={teamRanges} current={range} />
      <div className="grid">
        <Card id="t-daily" title="Time per day, by member">
          {names.length === 0 ? <p className="muted">No member shares time in this range.</p> : <StackedDays days={daily} names={names} caption={`Time per day of ${team.name}, by member`} />}
        </Card>
        <Card id="t-languages" title="The team's languages">
          <p className="muted">Of the members who share their languages with the team.</p>
          <Breakdown donut items={languages} empty="No member shares languages in this range." caption={`Languages of ${team.name}`} />
        </Card>
      </div>
      <div className="table-wrap">
        <table className={styles.members}>
          <caption className="sr-only">Members and what each shares with the team</caption>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              <th scope="col">Coding time</th>
              <th scope="col">Languages</th>
              {manager && (
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {team.members.map((m) => {
              const me = m.handle.toLowerCase() === user.handle.toLowerCase();
              const removable = !me && (team.role === 'owner' || (team.role === 'admin' && m.role === 'member'));
              return (
                <tr key={m.handle}>
                  <td data-label="Member">
                    {m.display_name} <span className="muted">@{m.handle}</span>
                  </td>
                  <td data-label="Role">
                    {team.role === 'owner' ? (
                      <form action={roleAction} className="inline">
                        {hidden}
                        <input type="hidden" name="handle" value={m.handle} />
                        <label className="sr-only" htmlFor={`role-${m.handle}`}>{`Role of ${m.handle}`}</label>
                        <select id={`role-${m.handle}`} name="role" defaultValue={m.role}>
                          {teamRoles.map((r) => (
                            <option key={r} value={r}>
                              {r}
                            </option>
                          ))}
                        </select>
                        <button type="submit" className="secondary">
                          Set
                        </button>
                      </form>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td data-label="Coding time">{m.seconds === null ? <span className="muted">not shared</span> : formatDuration(m.seconds)}</td>
                  <td data-label="Languages">
                    {m.languages
                      ? m.languages.length === 0
                        ? '—'
                        : m.languages
                            .slice(0, 5)
                            .map((l) => `${l.name} ${formatDuration(l.seconds)}`)
                            .join(', ')
                      : <span className="muted">not shared</span>}
                  </td>
                  {manager && (
                    <td>
                      {removable && (
                        <form action={removeMemberAction}>
                          {hidden}
                          <input type="hidden" name="handle" value={m.handle} />
                          <button type="submit" className="secondary" aria-label={`Remove ${m.handle} from the team`}>
                            Remove
                          </button>
                        </form>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      <h2>What you share with this team</h2>
      <form action={shareAction} className="inline">
        {hidden}
        <label className="sr-only" htmlFor="team-share">
          What you share
        </label>
        <select id="team-share" name="share" defaultValue={team.share}>
          {Object.entries(shareLabels).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <button type="submit">Save</button>
      </form>
      <p className="muted">Honoured at once. Projects, editors and the hours you code are never shown to a team.</p>

      {link && (
        <>
          <h2>Invite</h2>
          {room.full && (
            <p className="form-error" role="status" data-testid="team-full">
              This team is full: {room.members} of {room.limit} members. Anyone who opens the link now is told so and not let in, and no invitation is mailed: remove a member to make room.
            </p>
          )}
          <p>
            Code <code>{team.invite_code}</code>
            {team.invite_expires_at ? `, until ${wallClock(team.invite_expires_at, user.timezone)} (${user.timezone})` : ', without an end'}. The link opens a page that names the team; signed out, it comes back to it through sign-in or sign-up.
          </p>
          <InviteLink link={link} site={await siteAddress()} />
          <form action={rotateCodeAction} className="inline">
            {hidden}
            <div>
              <label htmlFor="invite-days">Expires after (days, empty: never)</label>
              <input id="invite-days" name="expires_in_days" type="number" min={1} max={MAX_INVITE_DAYS} step={1} />
            </div>
            <button type="submit" className="secondary">
              New code (the old one stops working)
            </button>
          </form>
          {mailConfigured() && !room.full && (
            <form action={inviteAction} className="inline">
              {hidden}
              <div>
                <label htmlFor="invite-email">Send the link to</label>
                <input id="invite-email" name="email" type="email" required maxLength={254} autoComplete="off" />
              </div>
              <button type="submit" className="secondary">
                Invite by mail
              </button>
            </form>
          )}
        </>
      )}

      <h2>Leave{team.role === 'owner' ? ' or delete' : ''}</h2>
      <form action={removeMemberAction} className="inline">
        {hidden}
        <input type="hidden" name="handle" value={user.handle} />
        <button type="submit" className="secondary">
          Leave the team
        </button>
      </form>
      {team.role === 'owner' && (
        <form action={deleteTeamAction} className="inline">
          {hidden}
          <button type="submit" className="danger">
            Delete the team
          </button>
        </form>
      )}
      {team.role === 'owner' && <p className="muted">The only owner cannot leave: make another member owner first, or delete the team.</p>}
    </>
  );
}
