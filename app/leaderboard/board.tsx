import { LeaderboardFilter } from '../components/leaderboard-filter';
import type { Metadata } from 'next';
import { formatDuration } from '@/lib/badges/format';
import { daysBetween } from '@/lib/dates';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/problem';
import { languagesOnLeaderboard, leaderboardPage } from '@/lib/stats/leaderboard/pages';
import { parseLeaderboardQuery, type LeaderboardQuery } from '@/lib/stats/leaderboard/query';

// The leaderboard page: the default view at /leaderboard (cached, page.tsx), any other view at
// /leaderboard/view, where next.config.ts sends /leaderboard with a query (rendered per request).

export const leaderboardMetadata: Metadata = {
  title: 'Leaderboard',
  description: 'Who coded the most in the last 7 or 30 days, among people who chose to be listed.',
};

export type Search = Record<string, string | string[] | undefined>;

export function queryOf(search: Search): { query: LeaderboardQuery; error?: string } {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) if (typeof v === 'string' && v !== '') params.set(k, v);
  try {
    return { query: parseLeaderboardQuery(params) };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { query: parseLeaderboardQuery(new URLSearchParams()), error: err.detail };
  }
}

const link = (q: LeaderboardQuery, language: string | null, page: number) =>
  `/leaderboard?${new URLSearchParams({ range: q.range, ...(language ? { language } : {}), page: String(page) })}`;

/** The leaderboard as the query asks for it; `error` says why the query was set aside. */
export async function Board({ query, error }: { query: LeaderboardQuery; error?: string }) {
  const db = await getDb();
  const [board, ranked] = await Promise.all([leaderboardPage(db, { ...query, limit: 25 }), languagesOnLeaderboard(db)]);
  // A choice of the languages people are ranked by (matched in any case): the one asked for stays
  // chosen, in the spelling the board answers with, even when nobody is ranked by it.
  const chosen = board.language ?? '';
  const languages = chosen && !ranked.some((l) => l.toLowerCase() === chosen.toLowerCase()) ? [chosen, ...ranked] : ranked;
  const pages = Math.max(1, Math.ceil(board.total / 25));
  return (
    <>
      <h1>Leaderboard</h1>
      <p className="lead">
        Coding time from {board.range.from} to {board.range.to} (UTC) of people who opted in. Ties share a rank. Updated{' '}
        <time dateTime={board.generated_at}>{board.generated_at.replace('T', ' ').slice(0, 16)} UTC</time>.
      </p>
      <LeaderboardFilter action="/leaderboard" range={query.range} languages={languages} chosen={chosen} />
      {error && <p className="form-error">{error}</p>}
      {board.entries.length === 0 ? (
        <p className="muted">Nobody is listed for this {query.language ? 'language and ' : ''}range yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Leaderboard, {query.range}</caption>
            <thead>
              <tr>
                <th scope="col" className="num">Rank</th>
                <th scope="col">Coder</th>
                <th scope="col" className="num">Total</th>
                {/* The contract's daily average is over every date of the range (API.md, Leaderboard), not the days with coding of one's own figures: said so. */}
                <th scope="col" className="num wide-only">Daily average, over all {daysBetween(board.range.from, board.range.to) + 1} days</th>
              </tr>
            </thead>
            <tbody>
              {board.entries.map((e) => (
                <tr key={e.user.id}>
                  <td className="num">{e.rank}</td>
                  <td>
                    <a href={`/u/${encodeURIComponent(e.user.handle)}`}>{e.user.display_name}</a> <span className="muted">@{e.user.handle}</span>
                    <span className="muted small">{e.languages.length > 0 ? e.languages.slice(0, 3).map((l) => l.name).join(', ') : 'languages not shared'}</span>
                  </td>
                  <td className="num">{formatDuration(e.total_seconds)}</td>
                  <td className="num wide-only">{formatDuration(e.daily_average_seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="pager" aria-label="Pages">
        {query.page > 1 && <a href={link(query, board.language, query.page - 1)}>← Previous</a>}
        <span className="muted">
          Page {query.page} of {pages}
        </span>
        {query.page < pages && <a href={link(query, board.language, query.page + 1)}>Next →</a>}
      </nav>
    </>
  );
}
