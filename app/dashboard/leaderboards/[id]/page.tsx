import { LeaderboardFilter } from '../../../components/leaderboard-filter';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { formatDuration } from '@/lib/badges/format';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/problem';
import { memberBoard } from '@/lib/leaderboards/boards';
import { boardEntries, rangeDates, sharedLanguages } from '@/lib/leaderboards/entries';
import { boardQuerySchema } from '@/lib/leaderboards/schemas';
import { localDateHour } from '@/lib/local-time';
import { requestOrigin, requireUser, siteAddress } from '@/lib/web/account/session';
import { deleteBoardAction, leaveBoardAction, rotateCodeAction } from '../actions';
import { InviteLink } from '../../invite-link';

// One private leaderboard (GET /leaderboards/{id}, as a page): its ranking with the public
// leaderboard's range and language choice; the invite link for its owner; leave.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Private leaderboard', robots: { index: false } };

type Search = Promise<{ range?: string | string[]; language?: string | string[] }>;
const one = (v: string | string[] | undefined) => (typeof v === 'string' ? v : undefined);

/** The languages members who share them coded in over 30 days: what the board can be ranked by. */
async function rankableLanguages(boardId: string, today: string): Promise<string[]> {
  const db = await getDb();
  const names = new Map<string, string>();
  for (const list of (await sharedLanguages(db, boardId, rangeDates('30d', today))).values()) for (const l of list) if (!names.has(l.name.toLowerCase())) names.set(l.name.toLowerCase(), l.name);
  return [...names.values()].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
}

export default async function BoardPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Search }) {
  const { id } = await params;
  const user = await requireUser(`/dashboard/leaderboards/${id}`);
  const db = await getDb();
  const board = await memberBoard(db, user.id, id).catch((err) => {
    if (err instanceof ApiError && err.code === 'not_found') notFound();
    throw err;
  });
  const search = await searchParams;
  const parsed = boardQuerySchema.safeParse({ range: one(search.range), language: one(search.language) });
  const query = parsed.success ? parsed.data : { range: '7d' as const, language: null };
  // The range ends today in the viewer's time zone, as every dashboard page's does.
  const today = localDateHour(user.timezone).date;
  const [ranked, languages] = await Promise.all([boardEntries(db, board.id, query.range, query.language, today), rankableLanguages(board.id, today)]);
  const invite = board.invite_code ? `${await requestOrigin()}/dashboard/leaderboards/join?code=${encodeURIComponent(board.invite_code)}` : null;
  return (
    <>
      <p>
        <a href="/dashboard/leaderboards">← Private leaderboards</a>
      </p>
      <h1>{board.name}</h1>
      <p className="muted">
        {board.members_count} {board.members_count === 1 ? 'member' : 'members'}; you are {board.role === 'owner' ? 'its owner' : 'a member'}. Coding time over the last{' '}
        {query.range === '7d' ? '7' : '30'} days, {ranked.from} to {ranked.to}, ending today in your time zone ({user.timezone}); each member&apos;s time is counted on
        their own dates, each hour at most 60 minutes; members with equal time share a rank.
        {query.language ? ' Ranked by one language: only members whose public profile shows their languages.' : ''}
      </p>
      <LeaderboardFilter action={`/dashboard/leaderboards/${board.id}`} range={query.range} languages={languages} chosen={query.language ?? ''} />
      {ranked.entries.length === 0 ? (
        <p className="muted">No member has coding time {query.language ? `in ${ranked.language} ` : ''}in this range yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Ranking of {board.name}</caption>
            <thead>
              <tr>
                <th scope="col">Rank</th>
                <th scope="col">Member</th>
                <th scope="col">{ranked.language ? `Time in ${ranked.language}` : 'Coding time'}</th>
              </tr>
            </thead>
            <tbody>
              {ranked.entries.map((e) => (
                <tr key={e.user_id} aria-current={e.user_id === user.id ? 'true' : undefined}>
                  <td>{e.rank}</td>
                  <td>
                    {e.display_name} <span className="muted">@{e.handle}</span>
                  </td>
                  <td>{formatDuration(e.seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {invite && (
        <section aria-labelledby="invite">
          <h2 id="invite">Invite</h2>
          <InviteLink link={invite} site={await siteAddress()} />
          <p className="muted">Anyone with the link or the code {board.invite_code} can join. A new code stops the old one from working; members stay.</p>
          <form action={rotateCodeAction}>
            <input type="hidden" name="id" value={board.id} />
            <button type="submit" className="secondary">
              New invite code
            </button>
          </form>
        </section>
      )}
      <h2>{board.role === 'owner' && board.members_count > 1 ? 'Delete' : 'Leave'}</h2>
      {board.role === 'owner' && board.members_count > 1 ? (
        <p className="muted">As its owner you can leave only once no one else is on it; you can delete it for everyone.</p>
      ) : (
        <form action={leaveBoardAction}>
          <input type="hidden" name="id" value={board.id} />
          <button type="submit" className="secondary">
            Leave this leaderboard
          </button>
        </form>
      )}
      {board.role === 'owner' && (
        <form action={deleteBoardAction}>
          <input type="hidden" name="id" value={board.id} />
          <button type="submit" className="secondary">
            Delete this leaderboard for everyone
          </button>
        </form>
      )}
    </>
  );
}
