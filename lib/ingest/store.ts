import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { HOUR_CAP_MILLIS } from '../activity';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { preparedRows, type Db } from '../db/client';
import { addExcluded, col, cols } from '../db/names';
import {
  apiTokens,
  communityDirty,
  desktopActivity,
  ideActivity,
  idempotencyKeys,
  userDayEditors,
  userDayLanguages,
  userDays,
  userHours,
  users,
} from '../db/schema';
import { untilDefaults, type DesktopRow, type IdeRow } from './rows';
import type { Admit, AdmitResult } from '../auth/write-token';
import { countedColumns, countWriteCtes } from '../http/rate-limit';
import { IDEMPOTENCY_TTL_HOURS, type IdempotencyKey } from './idempotency';
import { aliased, aliasesCte } from '../projects/aliases';

// A write is one statement, so it is atomic without a round trip for BEGIN or COMMIT. The rows
// travel as a single JSON parameter (an array of tuples, sent as text: a prepared statement's
// jsonb parameter would be serialized again), are ordered by key (concurrent batches
// lock shared rows in the same order and cannot deadlock) and are added to what is stored. The
// same statement adds them to the rollups the public reads use, so the two always agree.
// Callers pass rows already grouped: one statement may touch a row only once.

/**
 * The rows of a write: a query giving IDE_COLUMNS for IDE rows or (date, hour, platform, app,
 * millis) for desktop rows. Either the batch's JSON parameter (`jsonRows`) or a CTE of the same
 * statement (heartbeat credits).
 */
export type RowSource = SQL;

/** An IDE row source's columns: the bucket's key, then what is summed. */
export const IDE_KEY = ['date', 'hour', 'language', 'project', 'editor', 'category', 'machine', 'os', 'ai_agent'] as const;
export const IDE_SUMS = [
  'millis', 'lines', 'ai_additions', 'ai_deletions', 'human_additions', 'human_deletions',
  'ai_sessions', 'ai_input_tokens', 'ai_output_tokens', 'ai_prompt_events', 'ai_prompt_length_sum',
] as const;

/** An IDE tuple's fields after millis, each with what it is when a client named none: a tuple ends at its last other one. */
const IDE_DEFAULTS = [0, 'coding', '', '', '', 0, 0, 0, 0, 0, 0, 0, 0, 0] as const;

/**
 * Rows sent as one JSON parameter (an array of tuples, as text). An IDE tuple is the bucket's
 * date, hour, language, project, editor and millis, then lines, category, machine, system, AI
 * agent, line changes and what AI agents reported (sessions, tokens, prompts) up to the last that
 * is not its default (most buckets have none of them: a shorter parameter to parse).
 */
export function jsonRows(kind: 'ide' | 'desktop', rows: IdeRow[] | DesktopRow[]): RowSource {
  if (kind === 'ide') {
    const tuples = (rows as IdeRow[]).map((r) => [
      r.date, r.hour, r.language, r.project, r.editor, r.millis,
      ...untilDefaults<string | number>(
        [r.lines, r.category, r.machine, r.os, r.agent, r.aiAdditions, r.aiDeletions, r.humanAdditions, r.humanDeletions,
         r.aiSessions ?? 0, r.aiInputTokens ?? 0, r.aiOutputTokens ?? 0, r.aiPromptEvents ?? 0, r.aiPromptLengthSum ?? 0],
        IDE_DEFAULTS,
      ),
    ]);
    return sql`SELECT (e->>0)::date AS date, (e->>1)::smallint AS hour, e->>2 AS language, e->>3 AS project, e->>4 AS editor,
                      coalesce(e->>7, 'coding') AS category, coalesce(e->>8, '') AS machine, coalesce(e->>9, '') AS os, coalesce(e->>10, '') AS ai_agent,
                      (e->>5)::bigint AS millis, coalesce((e->>6)::bigint, 0) AS lines, coalesce((e->>11)::bigint, 0) AS ai_additions, coalesce((e->>12)::bigint, 0) AS ai_deletions,
                      coalesce((e->>13)::bigint, 0) AS human_additions, coalesce((e->>14)::bigint, 0) AS human_deletions,
                      coalesce((e->>15)::bigint, 0) AS ai_sessions, coalesce((e->>16)::bigint, 0) AS ai_input_tokens, coalesce((e->>17)::bigint, 0) AS ai_output_tokens,
                      coalesce((e->>18)::bigint, 0) AS ai_prompt_events, coalesce((e->>19)::bigint, 0) AS ai_prompt_length_sum
               FROM jsonb_array_elements(${JSON.stringify(tuples)}::text::jsonb) AS e`;
  }
  const tuples = (rows as DesktopRow[]).map((r) => [r.date, r.hour, r.platform, r.app, r.millis]);
  return sql`SELECT (e->>0)::date AS date, (e->>1)::smallint AS hour, e->>2 AS platform, e->>3 AS app, (e->>4)::bigint AS millis
             FROM jsonb_array_elements(${JSON.stringify(tuples)}::text::jsonb) AS e`;
}

/** A value of a statement: itself, or a placeholder of a compiled statement (lib/db/client.ts). */
export type Param = string | Placeholder;

/** How a write treats its rows. */
export interface WriteShape {
  /** Some rows may be negative (time subtracted from a stored bucket; heartbeat credits). */
  signed?: boolean;
  /** Whether the write moves the user's stats version (a statement that moves it itself says no). */
  version?: boolean;
}

/**
 * What the batch adds to each day once every hour is capped: the capped hour after the write
 * minus the capped hour before it (the stored hour minus what this batch added). `hours` holds
 * the stored hours after the write.
 */
const cappedDayChange = sql`
  SELECT h.date, sum(least(h.millis, ${HOUR_CAP_MILLIS}) - least(h.millis - b.millis, ${HOUR_CAP_MILLIS}))::bigint AS millis
  FROM hours h JOIN batch_hours b USING (date, hour)
  GROUP BY h.date`;

type Target = typeof ideActivity | typeof userHours | typeof userDays | typeof userDayLanguages | typeof userDayEditors | typeof desktopActivity;

interface AddTo {
  /** The CTE's name; that of the subtractions (negative rows) is `${name}_taken`. */
  name: string;
  table: Target;
  key: AnyPgColumn[];
  /** The columns added to (`millis` first; the rows of `from` carry each under its name). */
  added: AnyPgColumn[];
  /** Rows with the key and added columns, each key once. */
  from: SQL;
  /** A stored row's key and millis, returned (the hourly rollup: the daily one caps what it holds). */
  returning?: SQL;
  /** The table has `updated_at`. */
  touched?: boolean;
}

/**
 * CTEs adding the rows of `from` to `table`: an upsert of the positive ones and, when signed, an
 * UPDATE of the negative ones (an upsert's candidate row may not be below the tables' CHECKs; a
 * negative row always names a stored one). Each key is in `from` once: no row is touched twice.
 */
function addTo(userId: Param, shape: WriteShape, t: AddTo): SQL {
  const table = t.table as typeof ideActivity;
  const keyCols = cols(table.userId, ...t.key);
  const keyNames = sql.join(t.key.map((k) => sql.identifier(k.name)), sql`, `);
  const addedNames = sql.join(t.added.map((c) => sql.identifier(c.name)), sql`, `);
  const touch = t.touched ? sql`, ${col(ideActivity.updatedAt)} = now()` : sql``;
  const returning = t.returning ? sql`RETURNING ${t.returning}` : sql``;
  const upsert = sql`
    ${sql.identifier(t.name)} AS (
      INSERT INTO ${t.table} (${keyCols}, ${cols(...t.added)})
      SELECT ${userId}::uuid, ${keyNames}, ${addedNames} FROM (${t.from}) AS f ${shape.signed ? sql`WHERE millis >= 0` : sql``}
      ORDER BY ${keyNames}
      ON CONFLICT (${keyCols}) DO UPDATE SET ${sql.join(t.added.map(addExcluded), sql`, `)}${touch}
      ${returning}
    )`;
  if (!shape.signed) return upsert;
  const sets = t.added.map((c) => sql`${col(c)} = ${c} + f.${sql.identifier(c.name)}`);
  const matches = t.key.map((k) => sql`${k} = f.${sql.identifier(k.name)}`);
  return sql`${upsert},
    ${sql.identifier(`${t.name}_taken`)} AS (
      UPDATE ${t.table} SET ${sql.join(sets, sql`, `)}${touch}
      FROM (${t.from}) AS f
      WHERE f.millis < 0 AND ${table.userId} = ${userId}::uuid AND ${sql.join(matches, sql` AND `)}
      ${returning}
    )`;
}

/**
 * CTEs that store IDE rows and update the rollups; `guard` may veto the whole batch. A row may
 * change lines only (a heartbeat's line changes in an hour whose time it did not change): it is
 * stored in the buckets, and the rollups, which hold time only, see no row of it.
 */
export function ideWrites(userId: Param, source: RowSource, guard: SQL, shape: WriteShape = {}): SQL {
  const [a, h, d, l, ed] = [ideActivity, userHours, userDays, userDayLanguages, userDayEditors];
  const keys = IDE_KEY.map((k) => (k === 'project' ? sql`${aliased(sql`s.project`)} AS project` : sql.identifier(k)));
  const sums = IDE_SUMS.map((s) => sql`sum(${sql.identifier(s)})::bigint AS ${sql.identifier(s)}`);
  const parts = [
    // Projects through the owner's renames (lib/projects/aliases.ts); two names may become one key.
    aliasesCte(userId),
    sql`batch AS MATERIALIZED (
      SELECT ${sql.join([...keys, ...sums], sql`, `)}
      FROM (${source}) AS s ${guard} GROUP BY ${sql.raw(IDE_KEY.map((_, i) => i + 1).join(', '))}
      HAVING ${sql.join(IDE_SUMS.map((s) => sql`sum(${sql.identifier(s)}) <> 0`), sql` OR `)})`,
    sql`batch_hours AS (SELECT date, hour, sum(millis)::bigint AS millis FROM batch GROUP BY date, hour HAVING sum(millis) <> 0)`,
    addTo(userId, shape, {
      name: 'activity',
      table: a,
      key: [a.date, a.hour, a.language, a.project, a.editor, a.category, a.machine, a.os, a.aiAgent],
      added: [a.millis, a.lines, a.aiAdditions, a.aiDeletions, a.humanAdditions, a.humanDeletions, a.aiSessions, a.aiInputTokens, a.aiOutputTokens, a.aiPromptEvents, a.aiPromptLengthSum],
      from: sql`SELECT * FROM batch`,
      touched: true,
    }),
    addTo(userId, shape, { name: 'hours_stored', table: h, key: [h.date, h.hour], added: [h.millis], from: sql`SELECT * FROM batch_hours`, returning: sql`${h.date} AS date, ${h.hour} AS hour, ${h.millis} AS millis` }),
    sql`hours AS (SELECT * FROM hours_stored ${shape.signed ? sql`UNION ALL SELECT * FROM hours_stored_taken` : sql``})`,
    addTo(userId, shape, { name: 'days', table: d, key: [d.date], added: [d.millis], from: cappedDayChange }),
    addTo(userId, shape, { name: 'languages', table: l, key: [l.date, l.language], added: [l.millis], from: sql`SELECT date, language, sum(millis)::bigint AS millis FROM batch GROUP BY date, language HAVING sum(millis) <> 0` }),
    addTo(userId, shape, { name: 'editors', table: ed, key: [ed.date, ed.editor], added: [ed.millis], from: sql`SELECT date, editor, sum(millis)::bigint AS millis FROM batch GROUP BY date, editor HAVING sum(millis) <> 0` }),
    // Site-wide rollups of these dates are recomputed on the next site-wide read (lib/stats/community.ts).
    sql`community AS (INSERT INTO ${communityDirty} (${col(communityDirty.date)}) SELECT DISTINCT date FROM batch)`,
  ];
  if (shape.version !== false) {
    parts.push(sql`version AS (
      UPDATE ${users} SET ${col(users.statsVersion)} = ${users.statsVersion} + 1
      WHERE ${users.id} = ${userId}::uuid AND EXISTS (SELECT 1 FROM batch)
    )`);
  }
  return sql.join(parts, sql`,\n`);
}

/** CTEs that store desktop rows (desktop time has no public rollups). */
export function desktopWrites(userId: Param, source: RowSource, guard: SQL, shape: WriteShape = {}): SQL {
  const a = desktopActivity;
  return sql`
    desktop_batch AS MATERIALIZED (SELECT * FROM (${source}) AS s ${guard}),
    ${addTo(userId, shape, { name: 'desktop', table: a, key: [a.date, a.hour, a.platform, a.app], added: [a.millis], from: sql`SELECT * FROM desktop_batch`, touched: true })}`;
}

const writes = { ide: ideWrites, desktop: desktopWrites } as const;

export interface Claim extends IdempotencyKey {
  status: number;
  /** The answer's body exactly as sent, so that a replay sends the same bytes. */
  body: string;
}

/** written: stored; busy: the key's first request is still running; taken: the key was used before. */
export type WriteOutcome = 'written' | 'busy' | 'taken';

interface WriteResultRow extends AdmitResult {
  locked: boolean | null;
  claimed: boolean | null;
}

/**
 * Stores grouped rows. A row may be negative: time subtracted from the stored bucket it names
 * (heartbeat credits that a late heartbeat shortened; lib/wakatime/sending/heartbeat-store.ts stores what
 * it added, so it never subtracts more). With an idempotency claim, the same statement takes the
 * key's lock (not waiting: a held lock means the first request is still running), records the
 * answer unless a live record exists, and writes the rows only if it did: the key and the data
 * commit together or not at all. The unique key decides even against a first request that committed
 * after this statement's snapshot, because ON CONFLICT checks the latest row. With `admit`, the
 * outcome stands only if what the statement found admits the write (`Admission.settle`); otherwise
 * nothing was written.
 */
export async function writeRows(
  db: Db,
  kind: 'ide' | 'desktop',
  userId: string,
  rows: IdeRow[] | DesktopRow[],
  claim?: Claim,
  admit?: Admit,
): Promise<{ outcome: WriteOutcome; admitted?: AdmitResult }> {
  const [row] = await preparedRows<WriteResultRow>(db, writeStatement(kind, userId, rows, claim, admit));
  const admitted = admit && {
    timeZone: row.timeZone,
    token_count: row.token_count,
    token_reset: row.token_reset,
    user_count: row.user_count,
    user_reset: row.user_reset,
  };
  if (!claim) return { outcome: 'written', admitted };
  if (!row.locked) return { outcome: 'busy', admitted };
  return { outcome: row.claimed ? 'written' : 'taken', admitted };
}

/**
 * The token check and rate count of a write whose principal came from memory (lib/auth/write-token.ts):
 * `admitted` holds a row when the token is live, the timezone the one the batch was read with and
 * the counts within the token's and the user's budgets. `admittedColumns` reads what it found.
 */
export function admitCtes(admit: Omit<Admit, 'tokenId' | 'timeZone'> & { tokenId: Param; timeZone: Param }): SQL {
  const { token: tokenLimit, user: userLimit } = admit.limits;
  const within = [
    tokenLimit > 0 ? sql`(SELECT count FROM token_counted) <= ${tokenLimit}` : null,
    userLimit > 0 ? sql`(SELECT count FROM user_counted) <= ${userLimit}` : null,
  ].filter((c) => c !== null);
  const [t, u] = [apiTokens, users];
  return sql`
    token AS (
      SELECT ${t.id} AS token_id, ${t.userId} AS user_id, ${u.timezone} AS timezone
      FROM ${t} JOIN ${u} ON ${u.id} = ${t.userId}
      WHERE ${t.id} = ${admit.tokenId}::uuid AND ${t.revokedAt} IS NULL
    ),
    current AS (SELECT token_id, user_id FROM token WHERE timezone = ${admit.timeZone}),
    ${countWriteCtes(sql`SELECT token_id, user_id FROM current`, admit.limits)},
    admitted AS (SELECT 1 FROM current ${within.length ? sql`WHERE ${sql.join(within, sql` AND `)}` : sql``})`;
}

/** What admitCtes found (an AdmitResult). */
export const admittedColumns = sql`(SELECT timezone FROM token) AS "timeZone", ${countedColumns}`;

/** The idempotency claim: taken only under the key's lock, and only when `gate` (if any) holds a row. */
function claimCtes(userId: string, claim: Claim, gate: SQL | null): SQL {
  const k = idempotencyKeys;
  const set = (c: AnyPgColumn) => sql`${col(c)} = excluded.${col(c)}`;
  return sql`
    lock AS (
      SELECT pg_try_advisory_xact_lock(hashtextextended(${userId} || '/' || ${claim.key}, 0)) AS ok
      ${gate ? sql`WHERE EXISTS (SELECT 1 FROM ${gate})` : sql``}
    ), claim AS (
      INSERT INTO ${k} (${cols(k.userId, k.key, k.requestHash, k.status, k.response)})
      SELECT ${userId}::uuid, ${claim.key}, ${claim.requestHash}, ${claim.status}, ${claim.body}
      FROM lock WHERE lock.ok
      ON CONFLICT (${cols(k.userId, k.key)}) DO UPDATE
        SET ${set(k.requestHash)}, ${set(k.status)}, ${set(k.response)}, ${col(k.createdAt)} = now()
        WHERE ${k.createdAt} <= now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
      RETURNING 1
    )`;
}

/** The one statement of a write (exported for the ingest benchmark's raw ceiling). */
export function writeStatement(kind: 'ide' | 'desktop', userId: string, rows: IdeRow[] | DesktopRow[], claim?: Claim, admit?: Admit): SQL {
  const ctes = writes[kind];
  const shape: WriteShape = { signed: (rows as { millis: number }[]).some((r) => r.millis < 0) };
  const parts: SQL[] = [];
  let gate: SQL | null = null;
  if (admit) {
    parts.push(admitCtes(admit));
    gate = sql.raw('admitted');
  }
  if (claim) {
    parts.push(claimCtes(userId, claim, gate));
    gate = sql.raw('claim');
  }
  parts.push(ctes(userId, jsonRows(kind, rows), gate ? sql`WHERE EXISTS (SELECT 1 FROM ${gate})` : sql``, shape));
  const claimed = claim
    ? sql`(SELECT ok FROM lock) AS locked, EXISTS (SELECT 1 FROM claim) AS claimed`
    : sql`NULL::boolean AS locked, NULL::boolean AS claimed`;
  const admitted = admit
    ? admittedColumns
    : sql`NULL::text AS "timeZone", NULL::int AS token_count, NULL::int AS token_reset, NULL::int AS user_count, NULL::int AS user_reset`;
  return sql`WITH ${sql.join(parts, sql`, `)} SELECT ${claimed}, ${admitted}`;
}
