import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { isCalendarDate } from '../../dates';
import type { Db } from '../../db/client';
import { keysetPages } from '../../db/keyset';
import { heartbeats } from '../../db/schema';
import { ApiError } from '../../http/problem';
import { parseQuery, wholeNumber } from '../../http/query';
import { localDateHour, localDay, type LocalDay } from '../../local-time';
import { hiddenNames } from '../../projects/read';
import { allColumns, beatPages, DAY_PAGE, pageCte, parseCursor, tailColumns, tailProgress, type BeatCursor, type BeatRow, type PageTail } from './day-beats';
import { digestHex, GAP_MS, heartbeatKey } from '../sending/heartbeat';
import { machineId } from './machines';
import type { WakaUser } from './summaries';

// One day of the owner's heartbeats in WakaTime's shapes (GET users/current/heartbeats?date= and
// durations?date=), from the heartbeats themselves, so only for the 14 days they are kept (an
// older day answers an empty list). A heartbeat's entity is its stored digest, never a path; a
// hidden project's name shows in the owner's project list only, here as null.
//
// A day may hold hundreds of thousands of heartbeats (docs/decisions/0029-a-day-read-a-page-at-a-time.md):
// heartbeats?date= answers a page of them with the way to the next, and durations?date= reads the
// day a page at a time, keeping only the runs it answers.

/** The local date a day read asks for (`date`, default today in the owner's timezone). */
function askedDate(params: URLSearchParams, timeZone: string): string {
  const date = (params.get('date') ?? localDateHour(timeZone).date).slice(0, 10);
  if (!isCalendarDate(date)) throw new ApiError('invalid_query', 'date must be a date, YYYY-MM-DD.');
  return date;
}

function envelope(user: WakaUser, date: string) {
  const day = localDay(date, user.timezone);
  return { start: new Date(day.start).toISOString(), end: new Date(day.end - 1000).toISOString(), timezone: user.timezone };
}

const shownProject = (hidden: Set<string>, project: string) => (project && !hidden.has(project) ? project : null);

/** The id of each of the user's machines by name (null for none), each hashed once: a day names few machines. */
function machineIds(userId: string): (name: string) => string | null {
  const ids = new Map<string, string>();
  return (name) => (name ? (ids.get(name) ?? ids.set(name, machineId(userId, name)).get(name)!) : null);
}

const pageQuerySchema = z.object({
  limit: wholeNumber(1, DAY_PAGE, DAY_PAGE),
  after: z
    .string()
    .refine((text) => parseCursor(text) !== null, 'must be the id of a heartbeat (an earlier page\'s next_after)')
    .optional(),
});

/**
 * GET heartbeats?date=&limit=&after=: the day's heartbeats, oldest first (by time, then type and
 * entity, as their ids sort), at most `limit` of them after the heartbeat `after` names;
 * `next_after` is the id to ask after for the rest, null once the day is whole.
 */
export async function heartbeatsOfDay(db: Db, user: WakaUser, params: URLSearchParams) {
  const date = askedDate(params, user.timezone);
  const { limit, after } = parseQuery(pageQuerySchema, params);
  const day = localDay(date, user.timezone);
  const hidden = new Set(await hiddenNames(db, user.id));
  // One more than asked tells whether the day goes on, without a count of it.
  const beats: BeatRow[] = [];
  const read = { columns: allColumns, after: after === undefined ? null : parseCursor(after), most: limit + 1 };
  for await (const page of beatPages(db, user.id, day.start, day.end, read)) beats.push(...page);
  const machine = machineIds(user.id);
  const page = beats.slice(0, limit);
  return {
    data: page.map((b) => ({
      id: heartbeatKey(b),
      entity: digestHex(b.digest),
      type: b.type,
      time: b.at / 1000,
      project: shownProject(hidden, b.project),
      language: b.language || null,
      category: b.category,
      editor: b.editor || null,
      operating_system: b.os || null,
      machine_name_id: machine(b.machine),
      ai_agent: b.ai_agent || null,
      // As sent (kept from migration 0025 on: NULL, read as false, for rows before it and for anything but `true`).
      is_write: b.is_write,
      ai_line_changes: b.ai_lines,
      human_line_changes: b.human_lines,
    })),
    ...envelope(user, date),
    next_after: beats.length > limit ? heartbeatKey(page[page.length - 1]) : null,
  };
}

export const sliceFields = ['project', 'language', 'editor', 'category', 'machine', 'operating_system'] as const;
type SliceBy = (typeof sliceFields)[number];

/** The most runs durations?date= answers (a run every 9 seconds of the day, about 700 KB): the rest of such a day is left out, saying so. */
export const MAX_DAY_RUNS = 10_000;

/** A stretch of one page: the same project and value throughout, each heartbeat's credit beginning by the end of the one before. */
interface Stretch extends PageTail {
  /** Null on the one row of a page without a stretch (every credit outside the day). */
  project: string | null;
  value: string | null;
  start_at: number | null;
  end_at: number | null;
}

const h = heartbeats;
const sliceColumn: Record<SliceBy, SQL> = {
  project: sql`''`,
  language: sql`${h.language}`,
  editor: sql`${h.editor}`,
  category: sql`${h.category}`,
  machine: sql`coalesce(${h.machine}, '')`,
  operating_system: sql`${h.os}`,
};

/**
 * One page of the day's credited heartbeats made into stretches in the statement (the database
 * reads a row far faster than it hands one over): a stretch is a run of consecutive heartbeats of
 * one project and value, each credit (cut to the day) beginning by the end of the one before.
 */
function stretchStatement(user: WakaUser, day: LocalDay, sliceBy: SliceBy, after: BeatCursor | null, size: number): SQL {
  const columns = sql`${h.project} AS project, ${sliceColumn[sliceBy]} AS value, greatest(${h.at}, ${day.start}::bigint) AS s, least(${h.creditedUntil}, ${day.end}::bigint) AS e`;
  return sql`
    WITH ${pageCte(user.id, day.start - GAP_MS, day.end, after, size, columns)},
    marked AS (
      SELECT at, type, digest, project, value, s, e,
             CASE WHEN project = lag(project) OVER w AND value = lag(value) OVER w AND s <= lag(e) OVER w THEN 0 ELSE 1 END AS fresh
      FROM page WHERE e > s WINDOW w AS (ORDER BY at, type, digest)
    ),
    numbered AS (SELECT sum(fresh) OVER (ORDER BY at, type, digest) AS n, project, value, s, e FROM marked),
    stretches AS (SELECT n, project, value, min(s) AS s, max(e) AS e FROM numbered GROUP BY n, project, value)
    SELECT ${tailColumns}, stretches.project, stretches.value, stretches.s::float8 AS start_at, stretches.e::float8 AS end_at
    FROM tail LEFT JOIN stretches ON true
    ORDER BY stretches.n`;
}

/**
 * GET durations?date=&project=&slice_by=: the day's coding time as runs, each heartbeat's credit
 * (up to the next heartbeat, at most 15 minutes: WakaTime's rule) joined to the run of its
 * project and slice when it begins by the end of that run. The day is read a page at a time, each
 * page made into stretches by the statement (a stretch joins a run as its heartbeats would, one
 * by one), and only the runs are kept: an hour of one project is one run, so the answer is small
 * however many heartbeats made it; a day switching back and forth more than MAX_DAY_RUNS times
 * ends there, `truncated`.
 */
export async function durationsOfDay(db: Db, user: WakaUser, params: URLSearchParams) {
  const date = askedDate(params, user.timezone);
  const sliceBy = (params.get('slice_by') ?? 'project') as SliceBy;
  if (!sliceFields.includes(sliceBy)) throw new ApiError('invalid_query', `slice_by must be one of ${sliceFields.join(', ')}.`);
  const only = params.get('project');
  const hidden = new Set(await hiddenNames(db, user.id));
  const day = localDay(date, user.timezone);
  const field = sliceBy === 'machine' ? 'machine_name_id' : sliceBy;
  const machine = machineIds(user.id);
  const valueOf = (project: string | null, value: string): string | null => {
    switch (sliceBy) {
      case 'project': return project;
      case 'machine': return machine(value);
      default: return value || null;
    }
  };
  const runs: { start: number; end: number; project: string | null; value: string | null }[] = [];
  const open = new Map<string, (typeof runs)[number]>();
  let truncated = false;
  // Heartbeats from 15 minutes before the day may credit its first minutes (pageWhere's `from`).
  const pages = keysetPages<Stretch, BeatCursor>(db, (after, size) => stretchStatement(user, day, sliceBy, after, size), { progress: tailProgress });
  pages: for await (const page of pages) {
    for (const b of page) {
      if (b.start_at === null || b.end_at === null) continue;
      const project = shownProject(hidden, b.project ?? '');
      if (only !== null && (project ?? '') !== only) continue;
      const value = valueOf(project, b.value ?? '');
      const key = `${project}\u0000${value}`;
      const last = open.get(key);
      if (last && last.end >= b.start_at) last.end = Math.max(last.end, b.end_at);
      else if (runs.length === MAX_DAY_RUNS) {
        truncated = true;
        break pages;
      } else {
        const run = { start: b.start_at, end: b.end_at, project, value };
        runs.push(run);
        open.set(key, run);
      }
    }
  }
  return {
    data: runs.map((r) => ({ time: r.start / 1000, duration: (r.end - r.start) / 1000, project: r.project, ...(sliceBy === 'project' ? {} : { [field]: r.value }) })),
    ...envelope(user, date),
    ...(truncated ? { truncated: true as const } : {}),
  };
}
