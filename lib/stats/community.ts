import { getTableName, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { config } from '../config';
import { rows, type Db } from '../db/client';
import { col, cols } from '../db/names';
import { communityDayEditors, communityDayLanguages, communityDays, communityDirty, communityHours, serverSecrets, userDays, userHours } from '../db/schema';
import { HOUR_CAP_MILLIS } from '../activity';
import { communityMembers } from '../sharing/gate';
import { cappedPerUserDay, onDates, type Dates } from './queries';

// Site-wide rollups. A write appends the dates it touched to community_dirty; a refresh
// recomputes the rollup rows (cells) of exactly those dates from the per-user rollups of
// community members, a few dates at a time (refreshSome says why nothing is lost or counted
// twice). An advisory lock lets one refresh run at a time across processes.
//
// Releases. The public never reads a cell's figure, only its release: the figure plus Laplace
// noise, rounded to the minute. The noise of a release is drawn from a secret seed, the cell
// and the release's number, so asking again (or asking any range that holds the cell) gives
// the same answer and cannot average it away. A cell is released again only when its figure
// changed, at most once per PUBLIC_CACHE_SECONDS, and each release's noise is wider than the
// last (scale S * sqrt(1 + n / 12) for the n-th): someone who keeps a cell changing to collect
// releases learns less from each one. Readers (lib/stats/queries.ts) also leave out every cell
// that rests on fewer than PUBLIC_MIN_USERS users, per date: the README states the guarantee.

/** Releases over which the noise scale grows by half its first value (sqrt(1 + n / 12)). */
export const NOISE_GROWTH_RELEASES = 12;
/** Published figures are rounded to whole minutes. */
const ROUND_MILLIS = 60_000;

const members = (column: SQLWrapper) => sql`${column} IN (${communityMembers})`;

interface Cells {
  table: typeof communityDays | typeof communityDayLanguages | typeof communityDayEditors | typeof communityHours;
  /** The key column besides the date, if any. */
  key: AnyPgColumn | null;
  /** The CTE holding the fresh figures: date, the key (under its column's name), millis, users. */
  fresh: string;
}

const cells: Cells[] = [
  { table: communityDays, key: null, fresh: 'fresh_days' },
  { table: communityDayLanguages, key: communityDayLanguages.language, fresh: 'fresh_languages' },
  { table: communityDayEditors, key: communityDayEditors.editor, fresh: 'fresh_editors' },
  { table: communityHours, key: communityHours.hour, fresh: 'fresh_hours' },
];

/**
 * The released figure of the `number`-th release of a cell: `figure` plus noise drawn from the
 * seed, the table, the date, the key and the release number, rounded to the minute, never below 0.
 */
function releasedFigure(c: Cells, figure: SQL, date: SQLWrapper, key: SQLWrapper | null, number: SQL, noiseMillis: number): SQL {
  if (noiseMillis === 0) return figure;
  const label = sql`${getTableName(c.table)} || '/' || ${date}::text || '/' || ${key ? sql`${key}::text` : sql`''`} || '/' || ${number}::text`;
  // 52 bits of SHA-256 as a uniform number in (0, 1); Laplace by the inverse of its distribution.
  const uniform = sql`((('x' || substr(encode(sha256(convert_to((SELECT value FROM seed) || '/' || ${label}, 'UTF8')), 'hex'), 1, 13))::bit(52)::bigint + 0.5) / 4503599627370496.0)`;
  const scale = sql`(${noiseMillis}::float8 * sqrt(1 + ${number}::float8 / ${NOISE_GROWTH_RELEASES}))`;
  const noise = sql`(-${scale} * sign(${uniform} - 0.5) * ln(1 - 2 * abs(${uniform} - 0.5)))`;
  return sql`greatest(0, round((${figure} + ${noise}) / ${ROUND_MILLIS}) * ${ROUND_MILLIS})`;
}

interface ReleasePolicy {
  noiseMillis: number;
  /** Least seconds between two releases of one cell. */
  intervalSeconds: number;
}

/** Deletes the cells of the dates that the fresh figures no longer hold. */
function removeGone(c: Cells, dates: Dates): SQL {
  const t = c.table;
  const match = c.key ? sql`(f.date, f.${col(c.key)}) IS NOT DISTINCT FROM (${t.date}, ${c.key})` : sql`f.date = ${t.date}`;
  return sql`DELETE FROM ${t} WHERE ${onDates(t.date, dates)} AND NOT EXISTS (SELECT 1 FROM ${sql.raw(c.fresh)} f WHERE ${match})`;
}

/**
 * Stores the fresh figures of the marked dates and releases the cells that changed and may be
 * released now; returns (date, pending) of every cell written.
 */
function storeAndRelease(c: Cells, p: ReleasePolicy): SQL {
  const t = c.table;
  const key = c.key ? [t.date, c.key] : [t.date];
  const fresh = c.key ? sql`f.date, f.${col(c.key)}` : sql`f.date`;
  const changed = sql`(${t.pending} OR ${t.released} IS NULL OR (${t.millis}, ${t.users}) IS DISTINCT FROM (excluded.${col(t.millis)}, excluded.${col(t.users)}))`;
  const due = sql`(${t.releasedAt} IS NULL OR ${t.releasedAt} <= now() - make_interval(secs => ${p.intervalSeconds}))`;
  const now = sql`(${changed} AND ${due})`;
  const first = releasedFigure(c, sql`f.millis`, sql`f.date`, c.key && sql`f.${col(c.key)}`, sql`1`, p.noiseMillis);
  const next = releasedFigure(c, sql`excluded.${col(t.millis)}`, t.date, c.key, sql`(${t.release} + 1)`, p.noiseMillis);
  return sql`
    INSERT INTO ${t} (${cols(...key, t.millis, t.users, t.released, t.release, t.releasedAt, t.pending)})
    SELECT ${fresh}, f.millis, f.users, ${first}, 1, now(), false FROM ${sql.raw(c.fresh)} f ORDER BY 1${c.key ? sql`, 2` : sql``}
    ON CONFLICT (${cols(...key)}) DO UPDATE SET
      ${col(t.millis)} = excluded.${col(t.millis)}, ${col(t.users)} = excluded.${col(t.users)},
      ${col(t.released)} = CASE WHEN ${now} THEN ${next} ELSE ${t.released} END,
      ${col(t.release)} = CASE WHEN ${now} THEN ${t.release} + 1 ELSE ${t.release} END,
      ${col(t.releasedAt)} = CASE WHEN ${now} THEN now() ELSE ${t.releasedAt} END,
      ${col(t.pending)} = ${changed} AND NOT ${due}
    RETURNING ${t.date} AS date, ${t.pending} AS pending`;
}

const perDimension = (dimension: 'language' | 'editor', dates: Dates) => sql`
  SELECT date, name AS ${col(dimension === 'language' ? communityDayLanguages.language : communityDayEditors.editor)}, sum(millis)::float8 AS millis, count(DISTINCT user_id) FILTER (WHERE millis > 0)::int AS users
  FROM (${cappedPerUserDay(dimension, members, dates)}) AS c
  GROUP BY 1, 2 HAVING sum(millis) > 0`;

/**
 * Dates one refresh recomputes at most: recomputing every date of a large install (after a
 * migration, or a member with years of history opting out) in one statement would run past the
 * statement timeout; the rest stays marked for the next round. Latest dates go first.
 */
export const DATES_PER_REFRESH = 4;

/** Takes up to DATES_PER_REFRESH marked dates off the list; returns them. */
const takeMarkedDates = sql`
  WITH picked AS (SELECT DISTINCT ${communityDirty.date} AS date FROM ${communityDirty} ORDER BY 1 DESC LIMIT ${DATES_PER_REFRESH})
  DELETE FROM ${communityDirty} WHERE ${communityDirty.date} IN (SELECT date FROM picked) RETURNING to_char(${communityDirty.date}, 'YYYY-MM-DD') AS date`;

/**
 * Recomputes the cells of these dates and releases those that may be. The dates come as an
 * array: the planner then reads them through the date indexes instead of scanning the tables.
 */
function refreshStatement(dates: Dates, p: ReleasePolicy): SQL {
  const [days, languages, editors, hours] = cells;
  const [d, h] = [userDays, userHours];
  return sql`
  WITH seed AS MATERIALIZED (SELECT ${serverSecrets.value} AS value FROM ${serverSecrets} WHERE ${serverSecrets.name} = 'community_noise'),
  fresh_days AS MATERIALIZED (
    SELECT ${d.date} AS date, sum(${d.millis})::float8 AS millis, count(*) FILTER (WHERE ${d.millis} > 0)::int AS users
    FROM ${d} WHERE ${onDates(d.date, dates)} AND ${members(d.userId)}
    GROUP BY 1 HAVING sum(${d.millis}) > 0
  ),
  fresh_languages AS MATERIALIZED (${perDimension('language', dates)}),
  fresh_editors AS MATERIALIZED (${perDimension('editor', dates)}),
  fresh_hours AS MATERIALIZED (
    SELECT ${h.date} AS date, ${h.hour} AS ${col(communityHours.hour)}, sum(least(${h.millis}, ${HOUR_CAP_MILLIS}))::float8 AS millis,
           count(*) FILTER (WHERE ${h.millis} > 0)::int AS users
    FROM ${h} WHERE ${onDates(h.date, dates)} AND ${members(h.userId)}
    GROUP BY 1, 2 HAVING sum(${h.millis}) > 0
  ),
  d1 AS (${removeGone(days, dates)}),
  u1 AS (${storeAndRelease(days, p)}),
  d2 AS (${removeGone(languages, dates)}),
  u2 AS (${storeAndRelease(languages, p)}),
  d3 AS (${removeGone(editors, dates)}),
  u3 AS (${storeAndRelease(editors, p)}),
  d4 AS (${removeGone(hours, dates)}),
  u4 AS (${storeAndRelease(hours, p)})
  -- A cell that changed too soon after its last release waits: its date is marked again, so a
  -- later refresh releases it once it may.
  INSERT INTO ${communityDirty} (${col(communityDirty.date)})
  SELECT DISTINCT date FROM (SELECT * FROM u1 UNION ALL SELECT * FROM u2 UNION ALL SELECT * FROM u3 UNION ALL SELECT * FROM u4) AS u
  WHERE pending`;
}

/** How cells are released under this configuration. */
function releasePolicy(): ReleasePolicy {
  const cfg = config();
  return { noiseMillis: cfg.PUBLIC_NOISE_SECONDS * 1000, intervalSeconds: cfg.PUBLIC_CACHE_SECONDS };
}

/**
 * Recomputes up to DATES_PER_REFRESH marked dates, in a transaction of its own; returns how many.
 * The marks are taken before the data is read: a write committed in between leaves its own mark
 * behind (the next refresh sees it again) and is read now too, and recomputing replaces rather
 * than adds, so nothing is lost or counted twice.
 */
function refreshSome(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('codetally:community', 0))`);
    // A round is bounded (a few dates), but a date of a large install is read from many users.
    await tx.execute(sql`SET LOCAL statement_timeout = '120s'`);
    // Taken after the lock: this sees what a previous refresh did.
    const dates = [...new Set((await rows<{ date: string }>(tx, takeMarkedDates)).map((r) => r.date))];
    if (dates.length > 0) await tx.execute(refreshStatement({ anyOf: dates }, releasePolicy()));
    return dates.length;
  });
}

let running: Promise<number> | undefined;

/**
 * Brings the site-wide rollups up to date, latest dates first; returns how many dates it
 * recomputed. A reader waits for at most `rounds` rounds: after a migration or a long history
 * opting out, older dates follow over the next reads (`npm start` does them all first, see
 * scripts/migrate.ts).
 */
export function refreshCommunity(db: Db, rounds = 3): Promise<number> {
  running ??= (async () => {
    let total = 0;
    for (let round = 0, done = DATES_PER_REFRESH; done === DATES_PER_REFRESH && round < rounds; round++) {
      done = await refreshSome(db);
      total += done;
    }
    return total;
  })().finally(() => {
    running = undefined;
  });
  return running;
}

/** Marks every date of a user's history, when their data joins or leaves the community figures. */
export async function markUserDates(db: Db, userId: string): Promise<void> {
  await db.execute(sql`INSERT INTO ${communityDirty} (${col(communityDirty.date)}) SELECT ${userDays.date} FROM ${userDays} WHERE ${userDays.userId} = ${userId}::uuid`);
}
