import { sql } from 'drizzle-orm';
import { isCalendarDate } from '../dates';
import { rows, type Db } from '../db/client';
import { heartbeats } from '../db/schema';
import { ApiError } from '../http/problem';
import { localDateHour, localDay } from '../local-time';
import { hiddenNames } from '../projects/read';
import { digestHex, GAP_MS, heartbeatKey } from './heartbeat';
import { machineId } from './machines';
import type { WakaUser } from './summaries';

// One day of the owner's heartbeats in WakaTime's shapes (GET users/current/heartbeats?date= and
// durations?date=), from the heartbeats themselves, so only for the 14 days they are kept (an
// older day answers an empty list). A heartbeat's entity is its stored digest, never a path; a
// hidden project's name shows in the owner's project list only, here as null.

interface BeatRow {
  at: number;
  until: number;
  type: string;
  digest: number;
  category: string;
  language: string;
  project: string;
  editor: string;
  os: string;
  machine: string;
  ai_agent: string;
  ai_lines: number;
  human_lines: number;
}

/** The local date a day read asks for (`date`, default today in the owner's timezone). */
function askedDate(params: URLSearchParams, timeZone: string): string {
  const date = (params.get('date') ?? localDateHour(timeZone).date).slice(0, 10);
  if (!isCalendarDate(date)) throw new ApiError('invalid_query', 'date must be a date, YYYY-MM-DD.');
  return date;
}

/** The heartbeats of the local date; with `lead`, also those that began so long before it (their credit may reach into it). */
async function dayBeats(db: Db, user: WakaUser, date: string, lead = 0): Promise<BeatRow[]> {
  const h = heartbeats;
  const day = localDay(date, user.timezone);
  const found = await rows<BeatRow>(
    db,
    sql`SELECT ${h.at}::float8 AS at, ${h.creditedUntil}::float8 AS until, ${h.type} AS type, ${h.entityDigest}::float8 AS digest,
               ${h.category} AS category, ${h.language} AS language, ${h.project} AS project, ${h.editor} AS editor, ${h.os} AS os,
               coalesce(${h.machine}, '') AS machine, coalesce(${h.aiAgent}, '') AS ai_agent, coalesce(${h.aiLines}, 0) AS ai_lines, coalesce(${h.humanLines}, 0) AS human_lines
        FROM ${h} WHERE ${h.userId} = ${user.id}::uuid AND ${h.at} >= ${day.start - lead} AND ${h.at} < ${day.end}
        ORDER BY ${h.at}, ${h.type}, ${h.entityDigest}`,
  );
  return found.map((r) => ({ ...r, at: Number(r.at), until: Number(r.until), digest: Number(r.digest) }));
}

function envelope(user: WakaUser, date: string) {
  const day = localDay(date, user.timezone);
  return { start: new Date(day.start).toISOString(), end: new Date(day.end - 1000).toISOString(), timezone: user.timezone };
}

const shownProject = (hidden: Set<string>, project: string) => (project && !hidden.has(project) ? project : null);

/** GET heartbeats?date=: the day's heartbeats, oldest first. */
export async function heartbeatsOfDay(db: Db, user: WakaUser, params: URLSearchParams) {
  const date = askedDate(params, user.timezone);
  const [beats, hidden] = await Promise.all([dayBeats(db, user, date), hiddenNames(db, user.id).then((names) => new Set(names))]);
  return {
    data: beats.map((b) => ({
      id: heartbeatKey(b),
      entity: digestHex(b.digest),
      type: b.type,
      time: b.at / 1000,
      project: shownProject(hidden, b.project),
      language: b.language || null,
      category: b.category,
      editor: b.editor || null,
      operating_system: b.os || null,
      machine_name_id: b.machine ? machineId(user.id, b.machine) : null,
      ai_agent: b.ai_agent || null,
      // Not kept: a heartbeat's credit is what counts here.
      is_write: null,
      ai_line_changes: b.ai_lines,
      human_line_changes: b.human_lines,
    })),
    ...envelope(user, date),
  };
}

export const sliceFields = ['project', 'language', 'editor', 'category', 'machine', 'operating_system'] as const;
type SliceBy = (typeof sliceFields)[number];

/**
 * GET durations?date=&project=&slice_by=: the day's coding time as runs, each heartbeat's credit
 * (up to the next heartbeat, at most 15 minutes: WakaTime's rule) joined to the run before it
 * when it begins where that ends and names the same project and slice.
 */
export async function durationsOfDay(db: Db, user: WakaUser, params: URLSearchParams) {
  const date = askedDate(params, user.timezone);
  const sliceBy = (params.get('slice_by') ?? 'project') as SliceBy;
  if (!sliceFields.includes(sliceBy)) throw new ApiError('invalid_query', `slice_by must be one of ${sliceFields.join(', ')}.`);
  const only = params.get('project');
  const [beats, hidden] = await Promise.all([dayBeats(db, user, date, GAP_MS), hiddenNames(db, user.id).then((names) => new Set(names))]);
  const day = localDay(date, user.timezone);
  const field = sliceBy === 'machine' ? 'machine_name_id' : sliceBy;
  const valueOf = (b: BeatRow): string | null => {
    switch (sliceBy) {
      case 'project': return shownProject(hidden, b.project);
      case 'machine': return b.machine ? machineId(user.id, b.machine) : null;
      case 'operating_system': return b.os || null;
      default: return b[sliceBy] || null;
    }
  };
  const runs: { start: number; end: number; project: string | null; value: string | null }[] = [];
  const open = new Map<string, (typeof runs)[number]>();
  for (const b of beats) {
    if (b.type === 'app' || b.until <= b.at) continue;
    const project = shownProject(hidden, b.project);
    if (only !== null && (project ?? '') !== only) continue;
    const value = valueOf(b);
    const key = `${project}\u0000${value}`;
    const start = Math.max(b.at, day.start);
    const end = Math.min(b.until, day.end);
    if (end <= start) continue;
    const last = open.get(key);
    if (last && last.end >= start) last.end = Math.max(last.end, end);
    else {
      const run = { start, end, project, value };
      runs.push(run);
      open.set(key, run);
    }
  }
  return {
    data: runs.map((r) => ({ time: r.start / 1000, duration: (r.end - r.start) / 1000, project: r.project, ...(sliceBy === 'project' ? {} : { [field]: r.value }) })),
    ...envelope(user, date),
  };
}
