import { eq, sql, type SQLWrapper } from 'drizzle-orm';
import { addDays, daysBetween, eachDay, isCalendarDate } from '../../dates';
import { rows, type Db } from '../../db/client';
import { heartbeats, hiddenProjects, ideActivity, users } from '../../db/schema';
import { ApiError } from '../../http/problem';
import { localDateHour, localDay } from '../../local-time';
import { textProblem } from '../../text';
import { codedDayAverage } from '../../stats/average';
import { dayTotals, earliestDate } from '../../stats/queries';
import { AI_FIGURES, durationText, figures, type WakaUser } from './summaries';
import { userSpan } from '../../plans/history';
import { projectParam, unknownProject } from '../../projects/read';
import { historyStart } from '../../plans/limits';

// The WakaTime-compatible read routes (scope `stats`): the owner's own figures, private ones
// included, in WakaTime's shapes.

/** The longest span summaries answer in one request. */
export const MAX_SUMMARY_DAYS = 366;

const digital = (s: number) => `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}`;
const decimal = (s: number) => (s / 3600).toFixed(2);

/** WakaTime's named summary ranges, as local dates ending today. */
function namedRange(name: string, today: string): { from: string; to: string } | null {
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  const monthStart = `${today.slice(0, 8)}01`;
  const ranges: Record<string, () => { from: string; to: string }> = {
    today: () => ({ from: today, to: today }),
    yesterday: () => ({ from: addDays(today, -1), to: addDays(today, -1) }),
    'last 7 days': () => ({ from: addDays(today, -6), to: today }),
    'last 7 days from yesterday': () => ({ from: addDays(today, -7), to: addDays(today, -1) }),
    'last 14 days': () => ({ from: addDays(today, -13), to: today }),
    'last 30 days': () => ({ from: addDays(today, -29), to: today }),
    'this week': () => ({ from: addDays(today, -weekday), to: today }),
    'last week': () => ({ from: addDays(today, -weekday - 7), to: addDays(today, -weekday - 1) }),
    'this month': () => ({ from: monthStart, to: today }),
    'last month': () => {
      const lastDay = addDays(monthStart, -1);
      return { from: `${lastDay.slice(0, 8)}01`, to: lastDay };
    },
  };
  // WakaTime writes them `Last 7 Days`; clients send them in any case, some with underscores (`last_7_days`).
  const key = name.toLowerCase().replaceAll('_', ' ');
  // Own names only: `constructor` or `__proto__` is no range.
  return Object.hasOwn(ranges, key) ? ranges[key]() : null;
}

const RANGE_NAMES = 'Today, Yesterday, Last 7 Days, Last 7 Days from Yesterday, Last 14 Days, Last 30 Days, This Week, Last Week, This Month or Last Month';

/**
 * The dates a summaries request asks for: `start` and `end`, or `range`. `start` and `end` may
 * each be one of range='s names too (oh-my-posh and wakatime_exporter send
 * `start=today&end=today`): `start` is that range's first date, `end` its last.
 */
export function summaryRange(params: URLSearchParams, timeZone: string): { from: string; to: string } {
  const today = localDateHour(timeZone).date;
  const range = params.get('range');
  if (range !== null) {
    const found = namedRange(range, today);
    if (!found) throw new ApiError('invalid_query', `range must be ${RANGE_NAMES}.`);
    return found;
  }
  const date = (name: 'start' | 'end') => {
    const given = params.get(name) ?? '';
    const value = given.slice(0, 10);
    if (isCalendarDate(value)) return value;
    const named = namedRange(given, today);
    if (named) return name === 'start' ? named.from : named.to;
    throw new ApiError('invalid_query', `${name} must be a date, YYYY-MM-DD, or a range name (${RANGE_NAMES}); or use range=.`);
  };
  const from = date('start');
  const to = date('end');
  if (to < from) throw new ApiError('invalid_query', 'end must not be before start.');
  if (daysBetween(from, to) >= MAX_SUMMARY_DAYS) throw new ApiError('invalid_query', `A summary spans at most ${MAX_SUMMARY_DAYS} days.`);
  return { from, to };
}

const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A date as WakaTime writes it in `range.text`: `Sun Jan 29th 2023` (Raycast's extension parses
 * exactly that). English names from a table: a summary of a year writes 366 of them, and a
 * locale formatter made per call took most of that request's time.
 */
export function rangeText(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return `${WEEKDAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${ordinal(d.getUTCDate())} ${d.getUTCFullYear()}`;
}

/** WakaTime's daily average (lib/stats/average.ts): the total over the days with coding time; the other days are holidays. */
function dailyAverage(dayTotals: readonly number[]) {
  const { average, coded, days } = codedDayAverage(dayTotals);
  return { holidays: days - coded, days_including_holidays: days, days_minus_holidays: coded, seconds: Math.round(average) };
}

/**
 * GET summaries: one entry per date, with the cumulative total (also as `cummulative_total`,
 * WakaTime's old spelling, which older scripts read) and the daily average. Each date's
 * `range.text` is WakaTime's date text (rangeText), today and yesterday included: Raycast's
 * extension keys each day by it. The dates
 * are asked and shown in `zone`: the user's own, or for a teammate's the team's (UTC, as the team
 * page's; lib/wakatime/reading/teams.ts), which shows nothing of where the teammate lives.
 */
export async function summaries(db: Db, user: WakaUser, params: URLSearchParams, zone = user.timezone) {
  const { from, to } = summaryRange(params, zone);
  const project = params.get('project');
  if (project !== null && (project.length > 1000 || textProblem(project))) throw new ApiError('invalid_query', 'project must be at most 1000 characters of well-formed text.');
  // A project is named as projects/{name} names it: a hidden one is not found, as one never used is
  // (so that asking cannot tell them apart), and neither its time nor its name shows.
  if (project !== null && !(await isListedProject(db, user, project))) throw unknownProject();
  const perDay = await figures(db, user, from, to, 'day', { project: project ?? undefined });
  const data = [...perDay].map(([date, f]) => ({
    ...f,
    dependencies: [],
    range: { date, start: `${date}T00:00:00`, end: `${date}T23:59:59`, text: rangeText(date), timezone: zone },
  }));
  const total = data.reduce((sum, d) => sum + d.grand_total.total_seconds, 0);
  const { seconds: average, ...days } = dailyAverage(data.map((d) => d.grand_total.total_seconds));
  const cumulative = { seconds: total, text: durationText(total), digital: digital(total), decimal: decimal(total) };
  return {
    data,
    cumulative_total: cumulative,
    cummulative_total: cumulative,
    daily_average: { ...days, seconds: average, text: durationText(average), seconds_including_other_language: average, text_including_other_language: durationText(average) },
    start: `${from}T00:00:00`,
    end: `${to}T23:59:59`,
  };
}

export const statsRanges = ['last_7_days', 'last_30_days', 'last_6_months', 'last_year', 'all_time'] as const;
export type StatsRange = (typeof statsRanges)[number];
/** The range of a stats URL that names none (users/{user}/stats), as WakaTime's. */
export const DEFAULT_STATS_RANGE: StatsRange = 'last_7_days';
const rangeNames: Record<StatsRange, string> = { last_7_days: 'Last 7 Days', last_30_days: 'Last 30 Days', last_6_months: 'Last 6 Months', last_year: 'Last Year', all_time: 'All Time' };

export const isStatsRange = (range: string): range is StatsRange => (statsRanges as readonly string[]).includes(range);

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A stats range that is a year (`2026`) or a month (`2026-12`), WakaTime's documented forms: its
 * first and last local dates and its name; null for any other text. Years from 2000 (the earliest
 * a heartbeat may be) to 9999.
 */
export function calendarRange(range: string): { first: string; last: string; name: string } | null {
  const found = /^(\d{4})(?:-(0[1-9]|1[0-2]))?$/.exec(range);
  if (!found || found[1] < '2000') return null;
  const [year, month] = [found[1], found[2]];
  if (month === undefined) return { first: `${year}-01-01`, last: `${year}-12-31`, name: year };
  const next = month === '12' ? `${Number(year) + 1}-01-01` : `${year}-${String(Number(month) + 1).padStart(2, '0')}-01`;
  return { first: `${year}-${month}-01`, last: addDays(next, -1), name: `${MONTH_NAMES[Number(month) - 1]} ${year}` };
}

/** The query parameters that filter stats (as summaries?project= does), in the order a 400 names them. */
export const statsFilterNames = ['project', 'language'] as const;

/** What stats?project=&language= ask for: a project GET projects lists (else 404, as projects/{name}), a language by name in any case. */
export interface StatsFilter {
  project?: string;
  language?: string;
}

/** The filters of a stats request, checked: text PostgreSQL takes, of a name's length. */
export async function statsFilter(db: Db, user: WakaUser, params: URLSearchParams): Promise<StatsFilter> {
  const filter: StatsFilter = {};
  for (const name of statsFilterNames) {
    const value = params.get(name);
    if (value === null) continue;
    if (value.length === 0 || value.length > 1000 || textProblem(value)) throw new ApiError('invalid_query', `${name} must be 1 to 1000 characters of well-formed text.`);
    filter[name] = value;
  }
  if (filter.project !== undefined && !(await isListedProject(db, user, filter.project))) throw unknownProject();
  return filter;
}

/** An instant as WakaTime writes `start` and `end`: UTC to the second, `2024-05-01T22:00:00Z` (README generators parse exactly that). */
const utcSecond = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/**
 * GET stats/{range}: the range's figures together, every list whole (the owner's own answer). A
 * named range ends today; a year or a month (calendarRange) is that period in the owner's
 * timezone, its days counted up to today at most. With `filter`, the time of that project or
 * language alone.
 */
export async function stats(db: Db, user: WakaUser & { handle: string }, range: string, filter: StatsFilter = {}) {
  const calendar = calendarRange(range);
  if (!isStatsRange(range) && !calendar) {
    throw new ApiError('not_found', `No such stats range: use ${statsRanges.join(', ')}, a year (YYYY) or a month (YYYY-MM).`);
  }
  const today = localDateHour(user.timezone).date;
  let asked: string;
  if (calendar) asked = calendar.first;
  else {
    const days = { last_7_days: 7, last_30_days: 30, last_6_months: 183, last_year: 365 }[range as Exclude<StatsRange, 'all_time'>];
    asked = days ? addDays(today, 1 - days) : ((await earliestDate(db, { userId: user.id })) ?? today);
  }
  // The days counted: up to today (a period not yet over is counted so far).
  const last = calendar && calendar.last < today ? calendar.last : today;
  // No day before the plan's window of history (lib/plans/history.ts).
  const { from } = await userSpan(db, user.id, asked, last, today);
  const filtered = filter.project !== undefined || filter.language !== undefined;
  // The day totals once: the figures' total and the best day and holidays alike.
  const whole = !filtered && from <= last ? await dayTotals(db, { userId: user.id }, from, last) : [];
  const perDay = filtered && from <= last ? await filteredDayTotals(db, user, from, last, filter) : whole;
  const found = (await figures(db, user, from, last, 'range', filtered ? filter : { days: whole })).get('')!;
  const total = found.grand_total.total_seconds;
  const seconds = new Map(perDay.map((d) => [d.date, Math.round(d.millis / 1000)]));
  const dates = from <= last ? eachDay(from, last) : [];
  const { seconds: average, ...holidays } = dailyAverage(dates.map((date) => seconds.get(date) ?? 0));
  const best = dates.reduce<string | null>((b, date) => ((seconds.get(date) ?? 0) > (b === null ? 0 : seconds.get(b)!) ? date : b), null);
  return {
    data: {
      ...found,
      dependencies: [],
      best_day: best === null ? null : { date: best, total_seconds: seconds.get(best)!, text: durationText(seconds.get(best)!) },
      ...holidays,
      total_seconds: total,
      total_seconds_including_other_language: total,
      human_readable_total: durationText(total),
      human_readable_total_including_other_language: durationText(total),
      daily_average: average,
      daily_average_including_other_language: average,
      human_readable_daily_average: durationText(average),
      human_readable_daily_average_including_other_language: durationText(average),
      range,
      human_readable_range: calendar ? calendar.name : rangeNames[range as StatsRange],
      start: utcSecond(localDay(calendar ? calendar.first : from, user.timezone).start),
      end: utcSecond(localDay(calendar ? calendar.last : today, user.timezone).end - 1000),
      timezone: user.timezone,
      is_including_today: !calendar || (calendar.first <= today && today <= calendar.last),
      is_up_to_date: true,
      percent_calculated: 100,
      status: 'ok',
      timeout: 15,
      writes_only: false,
      is_coding_activity_visible: true,
      is_other_usage_visible: true,
      is_language_usage_visible: true,
      is_editor_usage_visible: true,
      is_os_usage_visible: true,
      is_category_usage_visible: true,
      user_id: user.id,
      username: user.handle,
      // The AI figures of grand_total again, flat, where waka-readme-stats reads them.
      ...Object.fromEntries(AI_FIGURES.map((name) => [name, found.grand_total[name]])) as Pick<typeof found.grand_total, (typeof AI_FIGURES)[number]>,
    },
  };
}

/** The day totals of the filtered figures (stats' best day and average), in dayTotals' shape. */
async function filteredDayTotals(db: Db, user: WakaUser, from: string, to: string, filter: StatsFilter) {
  const perDay = await figures(db, user, from, to, 'day', filter);
  return [...perDay].map(([date, f]) => ({ date, millis: f.grand_total.total_seconds * 1000 }));
}

/** GET all_time_since_today: every second ever counted. */
export async function allTimeSinceToday(db: Db, user: WakaUser) {
  const today = localDateHour(user.timezone).date;
  const { from: first } = await userSpan(db, user.id, (await earliestDate(db, { userId: user.id })) ?? today, today, today);
  const total = Math.round((await dayTotals(db, { userId: user.id }, first, today)).reduce((sum, d) => sum + d.millis, 0) / 1000);
  return {
    data: {
      total_seconds: total,
      text: durationText(total),
      digital: digital(total),
      decimal: decimal(total),
      is_up_to_date: true,
      percent_calculated: 100,
      range: { start_date: first, end_date: today, start_text: rangeText(first), end_text: 'Today', timezone: user.timezone },
      timeout: 15,
    },
  };
}

/** GET users/current: the owner. */
export async function currentUser(db: Db, userId: string, origin: string) {
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  if (!u) throw new ApiError('not_found', 'This account no longer exists.');
  return {
    data: {
      ...publicUserFields({ id: u.id, handle: u.handle, display_name: u.displayName }, origin),
      timezone: u.timezone,
      created_at: u.createdAt.toISOString(),
    },
  };
}

/** A user's fields in WakaTime's shape that their public profile shows anyway (GET users/{user} without a key). */
export function publicUserFields(u: { id: string; handle: string; display_name: string }, origin: string) {
  return {
    id: u.id,
    username: u.handle,
    display_name: u.display_name,
    full_name: u.display_name,
    profile_url: `${origin}/u/${encodeURIComponent(u.handle)}`,
    photo: null,
    photo_public: false,
    is_hireable: false,
    has_premium_features: false,
  };
}

/** The user's hidden project of this name, if any: a hidden project's name is not listed (lib/projects/hidden.ts). */
const hiddenOf = (userId: string, project: SQLWrapper) =>
  sql`SELECT 1 FROM ${hiddenProjects} WHERE ${hiddenProjects.userId} = ${userId}::uuid AND ${hiddenProjects.project} = ${project}`;

/**
 * The buckets GET projects names a project by: the user's, of a project (not ''), with time, in the
 * plan's window of history (from `floor`), not hidden.
 */
const listedBuckets = (userId: string, floor: string) => {
  const a = ideActivity;
  return sql`${a.userId} = ${userId}::uuid AND ${a.project} <> '' AND ${a.date} >= ${floor} AND ${a.millis} > 0 AND NOT EXISTS (${hiddenOf(userId, a.project)})`;
};

/** The first date GET projects reads: a project last used before the plan's window of history is not named. */
const listFloor = async (db: Db, user: WakaUser) => (await historyStart(db, user.id, localDateHour(user.timezone).date)) ?? '0001-01-01';

/** Whether GET projects lists a project of this name (so that projects/{name} answers it). */
export async function isListedProject(db: Db, user: WakaUser, name: string): Promise<boolean> {
  const a = ideActivity;
  const [found] = await rows<{ listed: boolean }>(db, sql`SELECT EXISTS (SELECT 1 FROM ${a} WHERE ${listedBuckets(user.id, await listFloor(db, user))} AND ${a.project} = ${name}) AS listed`);
  return Boolean(found?.listed);
}

/** How many projects a page of GET projects holds. */
const PROJECTS_PAGE = 100;

/** "3 hours ago", as WakaTime writes human_readable_last_heartbeat_at. */
function ago(ms: number, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - ms) / 60_000));
  const [n, unit] = minutes < 60 ? [minutes, 'minute'] : minutes < 1440 ? [Math.floor(minutes / 60), 'hour'] : [Math.floor(minutes / 1440), 'day'];
  return n === 0 ? 'just now' : `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}

interface ProjectRow {
  name: string;
  first: string;
  /** The end of the last hour with time, in the owner's timezone (epoch ms). */
  last_hour: number;
  /** The last kept heartbeat's time (epoch ms), if one is kept. */
  last_beat: number | null;
}

/**
 * GET projects: the owner's projects (not the hidden ones), the most recently used first, in pages
 * of 100; `q` filters by name. A project's last heartbeat is the last one kept (14 days), else the
 * end of its last hour with time.
 */
export async function projects(db: Db, user: WakaUser, params: URLSearchParams, origin: string, exact?: string) {
  const q = params.get('q');
  if (q !== null && (q.length > 100 || textProblem(q))) throw new ApiError('invalid_query', 'q must be at most 100 characters of well-formed text.');
  const page = params.get('page') ?? '1';
  if (!/^[1-9]\d{0,5}$/.test(page)) throw new ApiError('invalid_query', 'page must be a whole number from 1.');
  const [a, h] = [ideActivity, heartbeats];
  const found = await rows<ProjectRow>(
    db,
    sql`WITH p AS (
          SELECT ${a.project} AS name, min(${a.date}) AS first, max(${a.date} + make_interval(hours => ${a.hour} + 1)) AS last_local
          FROM ${a}
          WHERE ${listedBuckets(user.id, await listFloor(db, user))}
            ${q ? sql`AND strpos(lower(${a.project}), lower(${q})) > 0` : sql``} ${exact === undefined ? sql`` : sql`AND ${a.project} = ${exact}`}
          GROUP BY 1
        ), beats AS (
          SELECT ${h.project} AS name, max(${h.at}) AS at FROM ${h} WHERE ${h.userId} = ${user.id}::uuid GROUP BY 1
        )
        SELECT p.name, to_char(p.first, 'YYYY-MM-DD') AS first,
               (extract(epoch FROM p.last_local AT TIME ZONE ${user.timezone}) * 1000)::float8 AS last_hour, beats.at::float8 AS last_beat
        FROM p LEFT JOIN beats USING (name)`,
  );
  const listed = found
    .map((r) => {
      const [hourEnd, beat] = [Number(r.last_hour), r.last_beat === null ? null : Number(r.last_beat)];
      // The heartbeat's own time when it is the one of the last hour with time.
      return { ...r, last: beat !== null && beat >= hourEnd - 3_600_000 && beat <= hourEnd ? beat : hourEnd };
    })
    .sort((x, y) => y.last - x.last || x.name.localeCompare(y.name));
  const total = listed.length;
  const totalPages = Math.max(1, Math.ceil(total / PROJECTS_PAGE));
  const n = Number(page);
  return {
    data: listed.slice((n - 1) * PROJECTS_PAGE, n * PROJECTS_PAGE).map((p) => {
      const encoded = encodeURIComponent(p.name);
      return {
        id: p.name,
        name: p.name,
        urlencoded_name: encoded,
        last_heartbeat_at: new Date(p.last).toISOString(),
        human_readable_last_heartbeat_at: ago(p.last),
        created_at: `${p.first}T00:00:00Z`,
        badge: null,
        color: null,
        url: `${origin}/dashboard/projects/${encoded}`,
        has_public_url: false,
        repository: null,
      };
    }),
    total,
    total_pages: totalPages,
    page: n,
    prev_page: n > 1 ? n - 1 : null,
    next_page: n < totalPages ? n + 1 : null,
  };
}

/** GET projects/{project}: one of the owner's projects (not a hidden one), as GET projects lists it; 404 for none. */
export async function oneProject(db: Db, user: WakaUser, name: string, origin: string) {
  // A name no write could have stored (NUL, an unpaired surrogate, too long) names no project: 404, never asked of the database.
  const [found] = (await projects(db, user, new URLSearchParams(), origin, projectParam(name))).data;
  if (!found) throw unknownProject();
  return { data: found };
}

/** GET projects/{project}/commits: WakaTime's shape with no commits (no repository is linked here). */
export async function projectCommits(db: Db, user: WakaUser, name: string, origin: string) {
  const { data: project } = await oneProject(db, user, name, origin);
  return { commits: [], project, status: 'ok', author: null, branch: null, branches: [], total: 0, total_pages: 0, page: 1, next_page: null, prev_page: null };
}
