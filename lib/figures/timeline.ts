import { sql, type SQL } from 'drizzle-orm';
import { HOUR_CAP_MILLIS } from '../activity';
import { rows, type Db } from '../db/client';
import { keysetPages } from '../db/keyset';
import { heartbeats, ideActivity, userHours } from '../db/schema';
import { isoInZone, localDateHour, localDay, type LocalDay } from '../local-time';
import { historyStart } from '../plans/limits';
import { hoursOf, QUARTER_MS } from '../wakatime/sending/credits';
import { pageCte, tailColumns, tailProgress, type BeatCursor, type PageTail } from '../wakatime/reading/day-beats';
import { hiddenNames } from '../projects/read';

// When the owner coded on one day (GET /me/timeline). Two sources tell it:
//
// - Heartbeats, while they are kept (14 days): each holds its credit, from `at` to
//   `credited_until`, so the day is drawn to the second; a run of heartbeats of the same project,
//   language and editor, each credited up to the next, is one segment.
// - Hourly buckets (ide_activity): the sync routes' buckets, imported days and heartbeats already
//   purged. A bucket only says "this much in that hour", so its segment spans the whole hour.
//
// Heartbeat credits are also in the buckets (the heartbeat statement adds them there), so on a
// day with both, each bucket is drawn with what heartbeats do not explain: its time minus the
// credits of heartbeats to the same hour and key. Each hour counts at most an hour, as
// everywhere: when an hour's buckets hold more, the part not drawn by heartbeats is scaled down
// so the hour adds up to 3600 s. The segments' seconds thus add up to the day's total.
//
// A day may hold hundreds of thousands of heartbeats: they are read a page at a time, each page
// made into stretches and quarter-hour credits by its statement (decision 0029), so neither the
// memory nor any one statement grows with the day; a day of more than MAX_SEGMENTS segments is
// drawn up to there, `truncated`.

export interface Segment {
  start: string;
  end: string;
  project: string | null;
  language: string;
  editor: string | null;
  seconds: number;
}

interface BucketRow {
  hour: number;
  language: string;
  project: string;
  editor: string;
  millis: number;
  hour_millis: number;
}

const HOUR = 3_600_000;
/** The most heartbeat segments drawn (one every 9 seconds of the day): a day switching more often ends there, `truncated`. */
export const MAX_SEGMENTS = 10_000;
/** Leftovers under a second are rounding between the two sources, not time. */
const DUST_MS = 1000;
const keyOf = (hour: number, r: { language: string; project: string; editor: string }) => `${hour}\u0000${r.language}\u0000${r.project}\u0000${r.editor}`;

async function dayBuckets(db: Db, userId: string, date: string): Promise<BucketRow[]> {
  const [a, h] = [ideActivity, userHours];
  const found = await rows<BucketRow>(
    db,
    // A key's buckets of other categories, machines, systems or agents are one bucket here, as
    // heartbeats' credits are told apart by project, language and editor only.
    sql`SELECT ${a.hour}::int AS hour, ${a.language} AS language, ${a.project} AS project, ${a.editor} AS editor,
               sum(${a.millis})::float8 AS millis, max(${h.millis})::float8 AS hour_millis
        FROM ${a} JOIN ${h} ON ${h.userId} = ${a.userId} AND ${h.date} = ${a.date} AND ${h.hour} = ${a.hour}
        WHERE ${a.userId} = ${userId}::uuid AND ${a.date} = ${date}
        GROUP BY 1, 2, 3, 4
        ORDER BY 1, 2, 3, 4`,
  );
  return found.map((r) => ({ ...r, millis: Number(r.millis), hour_millis: Number(r.hour_millis) }));
}

interface Drawn {
  start: number;
  end: number;
  project: string;
  language: string;
  editor: string;
  millis: number;
}

/**
 * What one statement made of a page of the day's heartbeats: a stretch of heartbeats of one key
 * (`s`: consecutive, each credit, cut to the day, beginning where the one before ends), or the
 * credits of the page's heartbeats of one key and zone to one UTC quarter hour (`c`).
 */
interface Piece extends PageTail {
  kind: 's' | 'c' | null;
  language: string;
  project: string;
  editor: string;
  start_at: number | null;
  end_at: number | null;
  quarter: number | null;
  zone: string | null;
  millis: number | null;
}

/**
 * A page of the heartbeats that may credit the day made into pieces by the statement (the
 * database reads a row far faster than it hands one over, lib/wakatime/reading/day-beats.ts): the
 * stretches in time order, then the quarter hours' credits, which the process places in the
 * owner's local hours as hoursOf does (a quarter hour lies in one local hour in every zone).
 */
function pieceStatement(userId: string, date: string, day: LocalDay, after: BeatCursor | null, size: number): SQL {
  const h = heartbeats;
  const midnight = Date.parse(`${date}T00:00:00Z`);
  const q = sql`${QUARTER_MS}::bigint`;
  const columns = sql`${h.language} AS language, ${h.project} AS project, ${h.editor} AS editor, ${h.zone} AS zone, ${h.creditedUntil} AS until`;
  return sql`
    WITH ${pageCte(userId, midnight - 15 * HOUR, midnight + 36 * HOUR, after, size, columns)},
    clamped AS (
      SELECT at, type, digest, language, project, editor, greatest(at, ${day.start}::bigint) AS s, least(until, ${day.end}::bigint) AS e
      FROM page WHERE least(until, ${day.end}::bigint) > greatest(at, ${day.start}::bigint)
    ),
    marked AS (
      SELECT *, CASE WHEN language = lag(language) OVER w AND project = lag(project) OVER w AND editor = lag(editor) OVER w AND s = lag(e) OVER w THEN 0 ELSE 1 END AS fresh
      FROM clamped WINDOW w AS (ORDER BY at, type, digest)
    ),
    numbered AS (SELECT sum(fresh) OVER (ORDER BY at, type, digest) AS n, language, project, editor, s, e FROM marked),
    pieces AS (
      SELECT 's' AS kind, n, language, project, editor, min(s) AS s, max(e) AS e, NULL::bigint AS quarter, NULL::text AS zone, NULL::bigint AS millis
      FROM numbered GROUP BY n, language, project, editor
      UNION ALL
      SELECT 'c', NULL, language, project, editor, NULL, NULL, quarter, zone, sum(least(until, (quarter + 1) * ${q}) - greatest(at, quarter * ${q}))
      FROM page, generate_series(at / ${q}, (until - 1) / ${q}) AS quarter
      GROUP BY quarter, zone, language, project, editor
    )
    SELECT ${tailColumns}, pieces.kind, pieces.language, pieces.project, pieces.editor, pieces.s::float8 AS start_at, pieces.e::float8 AS end_at,
           pieces.quarter::float8 AS quarter, pieces.zone, pieces.millis::float8 AS millis
    FROM tail LEFT JOIN pieces ON true
    ORDER BY pieces.kind DESC, pieces.n`;
}

/** Heartbeat credits within the day, runs of one key merged, as their stretches come in time order. */
class BeatSegments {
  readonly out: Drawn[] = [];
  /** Whether a segment was left out past MAX_SEGMENTS. */
  truncated = false;

  add(p: Piece & { start_at: number; end_at: number }): void {
    const last = this.out.at(-1);
    if (last && last.end === p.start_at && last.project === p.project && last.language === p.language && last.editor === p.editor) {
      last.end = p.end_at;
      last.millis += p.end_at - p.start_at;
    } else if (this.out.length === MAX_SEGMENTS) {
      this.truncated = true;
    } else {
      this.out.push({ start: p.start_at, end: p.end_at, project: p.project, language: p.language, editor: p.editor, millis: p.end_at - p.start_at });
    }
  }
}

/** The heartbeats' credits to each hour of the day: per key and per hour (what the buckets hold of them). */
class HourCredits {
  readonly byKey = new Map<string, number>();
  readonly byHour = new Map<number, number>();

  constructor(private readonly day: LocalDay) {}

  /** `millis` credited within one UTC quarter hour, from its start, in `zone`. */
  add(r: { language: string; project: string; editor: string }, quarterStart: number, millis: number, zone: string): void {
    for (const p of hoursOf(quarterStart, quarterStart + millis, zone)) {
      if (p.date !== this.day.date) continue;
      const key = keyOf(p.hour, r);
      this.byKey.set(key, (this.byKey.get(key) ?? 0) + p.millis);
      this.byHour.set(p.hour, (this.byHour.get(p.hour) ?? 0) + p.millis);
    }
  }
}

/** What each bucket holds beyond the heartbeats' credits to it, capped per hour with them; one whole-hour segment each. */
function bucketSegments(buckets: BucketRow[], credits: HourCredits, day: LocalDay): Drawn[] {
  const rest = buckets.map((r) => ({ ...r, millis: r.millis - (credits.byKey.get(keyOf(r.hour, r)) ?? 0) })).filter((r) => r.millis >= DUST_MS);
  const restPerHour = new Map<number, number>();
  for (const r of rest) restPerHour.set(r.hour, (restPerHour.get(r.hour) ?? 0) + r.millis);
  const out: Drawn[] = [];
  for (const r of rest) {
    const room = Math.min(r.hour_millis, HOUR_CAP_MILLIS) - (credits.byHour.get(r.hour) ?? 0);
    const scale = Math.max(0, Math.min(1, room / restPerHour.get(r.hour)!));
    const millis = r.millis * scale;
    // An hour the clock skipped (a bucket sent for it anyway) is drawn as the hour after the jump.
    const span = day.hours[r.hour] ?? day.hours.slice(r.hour).find((h) => h !== null) ?? { start: day.end - HOUR, end: day.end };
    if (millis >= DUST_MS) out.push({ start: span.start, end: span.end, project: r.project, language: r.language, editor: r.editor, millis });
  }
  return out;
}

/** The owner's day: segments in time order (whole-hour bucket segments may overlap each other and heartbeat ones). */
export async function timeline(db: Db, user: { id: string; timezone: string }, date: string): Promise<{ date: string; timezone: string; segments: Segment[]; truncated?: true }> {
  // A date before the plan's window of history shows nothing (its activity is kept).
  const floor = await historyStart(db, user.id, localDateHour(user.timezone).date);
  if (floor !== null && date < floor) return { date, timezone: user.timezone, segments: [] };
  const day = localDay(date, user.timezone);
  const [buckets, hidden] = await Promise.all([dayBuckets(db, user.id, date), hiddenNames(db, user.id).then((names) => new Set(names))]);
  // The day's heartbeats a page at a time (a day may hold hundreds of thousands), each page made
  // into pieces by its statement: only the segments and the hours' credits are kept. Those from 15
  // hours before its UTC midnight to 36 after may credit the date in any zone (a local date lies
  // within them).
  const beats = new BeatSegments();
  const credits = new HourCredits(day);
  const pages = keysetPages<Piece, BeatCursor>(db, (after, size) => pieceStatement(user.id, date, day, after, size), { progress: tailProgress });
  for await (const page of pages) {
    for (const p of page) {
      if (p.kind === 's') beats.add(p as Piece & { start_at: number; end_at: number });
      else if (p.kind === 'c') credits.add(p, p.quarter! * QUARTER_MS, p.millis!, p.zone!);
    }
  }
  const drawn = [...beats.out, ...bucketSegments(buckets, credits, day)].sort(
    (a, b) => a.start - b.start || a.end - b.end || a.project.localeCompare(b.project) || a.language.localeCompare(b.language) || a.editor.localeCompare(b.editor),
  );
  const segments = drawn
    .map((d) => ({
      start: isoInZone(d.start, day.offsetAt(d.start)),
      end: isoInZone(d.end, day.offsetAt(d.end)),
      // A hidden project's name shows in the owner's project list only (lib/projects/hidden.ts).
      project: d.project && !hidden.has(d.project) ? d.project : null,
      language: d.language,
      editor: d.editor || null,
      seconds: Math.round(d.millis / 1000),
    }))
    .filter((s) => s.seconds > 0);
  return { date, timezone: user.timezone, segments, ...(beats.truncated ? { truncated: true as const } : {}) };
}
