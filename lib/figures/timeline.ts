import { sql } from 'drizzle-orm';
import { HOUR_CAP_MILLIS } from '../activity';
import { rows, type Db } from '../db/client';
import { heartbeats, ideActivity, userHours } from '../db/schema';
import { isoInZone, localDateHour, localDay, type LocalDay } from '../local-time';
import { historyStart } from '../plans/limits';
import { hoursOf } from '../wakatime/credits';
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

export interface Segment {
  start: string;
  end: string;
  project: string | null;
  language: string;
  editor: string | null;
  seconds: number;
}

interface BeatRow {
  at: number;
  until: number;
  language: string;
  project: string;
  editor: string;
  zone: string;
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
/** Leftovers under a second are rounding between the two sources, not time. */
const DUST_MS = 1000;
const keyOf = (hour: number, r: { language: string; project: string; editor: string }) => `${hour}\u0000${r.language}\u0000${r.project}\u0000${r.editor}`;

/** The heartbeats that may credit the date in any zone (a local date lies within 14 h before to 36 h after its UTC midnight). */
async function dayBeats(db: Db, userId: string, date: string): Promise<BeatRow[]> {
  const h = heartbeats;
  const midnight = Date.parse(`${date}T00:00:00Z`);
  const found = await rows<BeatRow>(
    db,
    sql`SELECT ${h.at}::float8 AS at, ${h.creditedUntil}::float8 AS until, ${h.language} AS language, ${h.project} AS project, ${h.editor} AS editor, ${h.zone} AS zone
        FROM ${h}
        WHERE ${h.userId} = ${userId}::uuid AND ${h.at} >= ${midnight - 15 * HOUR} AND ${h.at} < ${midnight + 36 * HOUR}
          AND ${h.type} <> 'app' AND ${h.creditedUntil} > ${h.at}
        ORDER BY ${h.at}`,
  );
  return found.map((r) => ({ ...r, at: Number(r.at), until: Number(r.until) }));
}

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

/** Heartbeat credits within the day, runs of one key merged. */
function beatSegments(beats: BeatRow[], day: LocalDay): Drawn[] {
  const out: Drawn[] = [];
  for (const b of beats) {
    const start = Math.max(b.at, day.start);
    const end = Math.min(b.until, day.end);
    if (end <= start) continue;
    const last = out.at(-1);
    if (last && last.end === start && last.project === b.project && last.language === b.language && last.editor === b.editor) {
      last.end = end;
      last.millis += end - start;
    } else {
      out.push({ start, end, project: b.project, language: b.language, editor: b.editor, millis: end - start });
    }
  }
  return out;
}

/** What each bucket holds beyond the heartbeats' credits to it, capped per hour with them; one whole-hour segment each. */
function bucketSegments(buckets: BucketRow[], beats: BeatRow[], day: LocalDay): Drawn[] {
  const credited = new Map<string, number>();
  const creditedPerHour = new Map<number, number>();
  for (const b of beats) {
    for (const p of hoursOf(b.at, b.until, b.zone)) {
      if (p.date !== day.date) continue;
      const key = keyOf(p.hour, b);
      credited.set(key, (credited.get(key) ?? 0) + p.millis);
      creditedPerHour.set(p.hour, (creditedPerHour.get(p.hour) ?? 0) + p.millis);
    }
  }
  const rest = buckets.map((r) => ({ ...r, millis: r.millis - (credited.get(keyOf(r.hour, r)) ?? 0) })).filter((r) => r.millis >= DUST_MS);
  const restPerHour = new Map<number, number>();
  for (const r of rest) restPerHour.set(r.hour, (restPerHour.get(r.hour) ?? 0) + r.millis);
  const out: Drawn[] = [];
  for (const r of rest) {
    const room = Math.min(r.hour_millis, HOUR_CAP_MILLIS) - (creditedPerHour.get(r.hour) ?? 0);
    const scale = Math.max(0, Math.min(1, room / restPerHour.get(r.hour)!));
    const millis = r.millis * scale;
    // An hour the clock skipped (a bucket sent for it anyway) is drawn as the hour after the jump.
    const span = day.hours[r.hour] ?? day.hours.slice(r.hour).find((h) => h !== null) ?? { start: day.end - HOUR, end: day.end };
    if (millis >= DUST_MS) out.push({ start: span.start, end: span.end, project: r.project, language: r.language, editor: r.editor, millis });
  }
  return out;
}

/** The owner's day: segments in time order (whole-hour bucket segments may overlap each other and heartbeat ones). */
export async function timeline(db: Db, user: { id: string; timezone: string }, date: string): Promise<{ date: string; timezone: string; segments: Segment[] }> {
  // A date before the plan's window of history shows nothing (its activity is kept).
  const floor = await historyStart(db, user.id, localDateHour(user.timezone).date);
  if (floor !== null && date < floor) return { date, timezone: user.timezone, segments: [] };
  const day = localDay(date, user.timezone);
  const [beats, buckets, hidden] = await Promise.all([dayBeats(db, user.id, date), dayBuckets(db, user.id, date), hiddenNames(db, user.id).then((names) => new Set(names))]);
  const drawn = [...beatSegments(beats, day), ...bucketSegments(buckets, beats, day)].sort(
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
  return { date, timezone: user.timezone, segments };
}
