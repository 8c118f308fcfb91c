import { sql } from 'drizzle-orm';
import { getDb, rows, type Db } from '../../db/client';
import { leaderboardEntries, users } from '../../db/schema';
import { corsHeaders } from '../../http/public';
import { json } from '../../http/body';
import { listedOnLeaderboard } from '../../sharing/gate';
import { leaderboardPage, type LeaderboardEntry } from '../../stats/leaderboard/pages';
import { parseLeaderboardQuery } from '../../stats/leaderboard/query';
import { publicWakatime, wakatimeKey, withWakatimeKey, type WakaContext } from '../api-key';
import { durationText } from './summaries';

// GET /leaders: the public leaderboard (its members, rules and snapshot: the last 7 UTC dates) in
// WakaTime's shape, 100 a page, ranked by total or by one `language`. Without a key anyone may
// read it; with one, `current_user` says where the key's owner stands (ranked by total: null when
// they are not listed, or the page ranks one language).

const PAGE = 100;

/** A ranked user in WakaTime's leaderboard shape (wakaLeaderSchema): `days` of the range give the daily average. */
export function wakaLeader(e: { rank: number; seconds: number; languages: { name: string; seconds: number }[]; user: { id: string; handle: string; display_name: string } }, days: number) {
  const average = Math.round(e.seconds / days);
  return {
    rank: e.rank,
    running_total: {
      total_seconds: e.seconds,
      human_readable_total: durationText(e.seconds),
      daily_average: average,
      human_readable_daily_average: durationText(average),
      languages: e.languages.map((l) => ({ name: l.name, total_seconds: l.seconds })),
    },
    user: {
      id: e.user.id,
      username: e.user.handle,
      display_name: e.user.display_name,
      full_name: e.user.display_name,
      photo_public: false,
      is_email_public: false,
      is_hireable: false,
      email: null,
      website: null,
      human_readable_website: null,
      city: null,
    },
  };
}

/** Where a listed user stands by total in the 7-day snapshot: their rank, the page it is on, and who they are. */
async function standing(db: Db, userId: string) {
  const [e, u] = [leaderboardEntries, users];
  const [row] = await rows<{ rank: number; position: number; handle: string; display_name: string }>(
    db,
    sql`WITH me AS (
          SELECT ${e.totalMillis} AS total, ${u.handle} AS handle, ${u.displayName} AS display_name FROM ${e} JOIN ${u} ON ${u.id} = ${e.userId}
          WHERE ${e.range} = '7d' AND ${e.userId} = ${userId}::uuid AND ${e.listed} AND ${e.totalMillis} > 0 AND ${listedOnLeaderboard(u)}
        )
        SELECT (count(*) FILTER (WHERE ${e.totalMillis} > me.total) + 1)::int AS rank,
               (count(*) FILTER (WHERE ${e.totalMillis} > me.total OR (${e.totalMillis} = me.total AND ${e.userId} < ${userId}::uuid)) + 1)::int AS position,
               me.handle, me.display_name
        FROM me, ${e} WHERE ${e.range} = '7d' AND ${e.listed} AND ${e.totalMillis} > 0
        GROUP BY me.total, me.handle, me.display_name`,
  );
  return row ? { rank: row.rank, page: Math.ceil(row.position / PAGE), user: { id: userId, username: row.handle, display_name: row.display_name } } : null;
}

async function leaders(db: Db, request: Request, viewer: string | null) {
  const params = new URL(request.url).searchParams;
  const q = parseLeaderboardQuery(new URLSearchParams({ range: '7d', limit: String(PAGE), page: params.get('page') || '1', ...(params.get('language') ? { language: params.get('language')! } : {}) }));
  const page = await leaderboardPage(db, q);
  const data = page.entries.map((e: LeaderboardEntry) => wakaLeader({ ...e, seconds: e.total_seconds }, 7));
  const current_user = viewer !== null && page.language === null ? await standing(db, viewer) : null;
  return {
    data,
    current_user,
    page: page.page,
    total_pages: Math.max(1, Math.ceil(page.total / PAGE)),
    language: page.language,
    range: { start_date: page.range.from, end_date: page.range.to, name: 'last_7_days', text: 'Last 7 Days' },
    modified_at: page.generated_at,
    timeout: 15,
  };
}

const withKey = withWakatimeKey('stats', async ({ db, user, request }: WakaContext) =>
  json(await leaders(db, request, user.id), { headers: { 'cache-control': 'private, no-store', ...corsHeaders } }),
);

/** GET /leaders, with or without a key (an empty `?api_key=` is none). */
export async function leadersGet(request: Request): Promise<Response> {
  if (wakatimeKey(request) !== null) return withKey(request);
  return publicWakatime(async () => json(await leaders(await getDb(), request, null), { headers: { 'cache-control': 'public, max-age=60, s-maxage=60', ...corsHeaders } }));
}
