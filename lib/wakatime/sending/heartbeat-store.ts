import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { compiled, preparedRows, type Db } from '../../db/client';
import { col, cols, selected } from '../../db/names';
import { heartbeats, lateHeartbeatKeys, userAiSessions, userDayAiModels, users } from '../../db/schema';
import { untilDefaults } from '../../ingest/rows';
import { admitCtes, admittedColumns, desktopWrites, ideWrites } from '../../ingest/store';
import type { Admission, Admit, AdmitResult } from '../../auth/write-token';
import type { WriteLimits } from '../../http/rate-limit';
import { announce, QUARTER_MS } from './credits';
import { digestHex, GAP_MS, LATE_LIMIT_MS, type Heartbeat, type SeenAgent } from './heartbeat';
import { heartbeatKeySql, KEYS_KEPT_MS, purgeNowAndThen } from './heartbeat-purge';
import { recordAgentsCtes } from './user-agents';
import { aliasedInSnapshot } from '../../projects/aliases';

// Heartbeats to time, by WakaTime's rule: for each user, heartbeats ordered by time; the gap to
// the next one counts when it is at most 15 minutes, credited to the earlier heartbeat's
// language, project, editor and category, in the date-hours the gap covers in the user's
// timezone. A heartbeat arriving late changes at most two credits: its own (up to its successor)
// and its predecessor's (now up to it). Each heartbeat row stores its current credit, so storing a
// batch recomputes exactly those credits and sends the differences to the same buckets the sync
// routes write (lib/ingest/store.ts): any arrival order, batching or repetition ends at the totals
// of the stream in order. Rows older than the 14 days a heartbeat may be late are deleted; their
// credits can no longer change, and their keys are kept a while longer (heartbeat-purge.ts).

/** A heartbeat's key (heartbeatKeySql) from the columns of `c`, a heartbeat of the batch: what it is remembered by once its row is purged. */
const keyOf = (c: string) => heartbeatKeySql(sql.raw(`${c}.at`), sql.raw(`${c}.type`), sql.raw(`${c}.digest`));

/**
 * The one statement that stores a batch of heartbeats. The user's row is its lock: `user_lock`
 * updates it (moving the stats version, `heartbeats_since` and `late_heartbeats_until`), waiting
 * for any other batch of the user, and finds whether one committed after this statement's snapshot
 * was taken (the version moved since). If none did, the snapshot holds every heartbeat of the user
 * and `ok`; otherwise the statement writes nothing and the caller runs it again. With `ok`: the new
 * heartbeats (not stored yet, and, for a late one, not purged before: late_heartbeat_keys) and the
 * stored ones within 15 minutes of them, in order; each new heartbeat's credit and its
 * predecessor's (the gap to the next, when at most 15 minutes) recomputed; the heartbeats stored
 * with their credits and the changed ones updated; each change of credit cut into quarter hours, as
 * local dates and hours of its zone, and sent to the buckets as time added or subtracted by the
 * write statement's CTEs (lib/ingest/store.ts), with every dimension of the bucket (category,
 * machine, system, AI agent); each new heartbeat's line changes, and what an AI agent reported
 * with it (tokens, a prompt's length, a session not named before: user_ai_sessions), added to the
 * bucket of its own hour, never spread over a gap, and its model's figures to the day's
 * (user_day_ai_models; decision 0037). Only new heartbeats (`fresh`) add them: one sent again adds
 * nothing. The insert has no ON CONFLICT: with `ok` no other batch of the user can commit, `fresh`
 * holds none stored and the batch none twice (DistinctHeartbeats), so a conflict would mean credits
 * computed wrongly: the statement fails whole instead (skipping rows would cost a speculative
 * insert per heartbeat: docs/scaling.md).
 *
 * Late heartbeats (older than the 14 days, `late_before`): counted by the same rule among the
 * heartbeats still kept, kept themselves until `keep_until` (14 days from now, so that a client
 * sending a long history in many requests credits each with the next); they move neither
 * `heartbeats_since` (what an import leaves to this path) nor anything else of the user's. A
 * heartbeat whose row was purged is remembered by its key (late_heartbeat_keys, written by the
 * purge): one sent again is found there and counts no second time, and its key is kept
 * `remember_until` (KEYS_KEPT_MS from now) since it came again (decision 0026).
 */
const heartbeatStatement = compiled<
  { user: string; zone: string; beats: string; earliest: number; since: number | null; late_before: number; keep_until: number; remember_until: number; agents?: string; token?: string },
  { limits: WriteLimits | null; agents: boolean }
>(({ limits, agents }) => {
  const [h, u, k, s, m] = [heartbeats, users, lateHeartbeatKeys, userAiSessions, userDayAiModels];
  // With an admission (lib/auth/write-token.ts), the same statement checks the token and counts the request.
  const admission = limits ? sql`${admitCtes({ tokenId: sql.placeholder('token'), timeZone: sql.placeholder('zone'), limits })},` : sql``;
  const user = { id: sql.placeholder('user') };
  const earliest = sql.placeholder('earliest');
  const since = sql`${sql.placeholder('since')}::bigint`;
  const lateBefore = sql`${sql.placeholder('late_before')}::bigint`;
  const keepUntil = sql`${sql.placeholder('keep_until')}::bigint`;
  const zone = sql`${sql.placeholder('zone')}::text`;
  const mine = sql`${h.userId} = ${user.id}::uuid`;
  const rowKey = sql`${h.at} = c.at AND ${h.type} = c.type AND ${h.entityDigest} = c.digest`;
  const fields = sql`category, language, project, editor, os, app, machine, ai_agent, ai_lines, human_lines, is_write`;
  // A credit's bucket: an editor's (every dimension) or, for `type: app`, desktop time's (system and
  // application). Machine and AI agent are NULL in most heartbeats (lib/db/tables/wakatime.ts): '' in a bucket.
  const ide = (c: string) => sql.raw(`CASE WHEN p.type = 'app' THEN '' ELSE ${c === 'machine' || c === 'ai_agent' ? `coalesce(p.${c}, '')` : `p.${c}`} END`);
  const recordAgents = agents ? sql`,${recordAgentsCtes(sql`${user.id}::uuid`, sql.placeholder('agents'), sql`(SELECT ok FROM user_lock)`)}` : sql``;
  return sql`
    WITH ${admission}
    snap AS (SELECT ${u.statsVersion} AS version FROM ${u} WHERE ${u.id} = ${user.id}::uuid),
    user_lock AS (
      UPDATE ${u} SET ${col(u.statsVersion)} = ${u.statsVersion} + 1,
        ${col(u.heartbeatsSince)} = CASE WHEN ${u.statsVersion} = (SELECT version FROM snap) AND ${since} IS NOT NULL
          THEN least(coalesce(${u.heartbeatsSince}, ${since}), ${since}) ELSE ${u.heartbeatsSince} END,
        ${col(u.lateHeartbeatsUntil)} = CASE WHEN ${u.statsVersion} = (SELECT version FROM snap) AND ${earliest}::bigint < ${lateBefore}
          THEN ${keepUntil} ELSE ${u.lateHeartbeatsUntil} END
      WHERE ${u.id} = ${user.id}::uuid ${limits ? sql`AND EXISTS (SELECT 1 FROM admitted)` : sql``}
      RETURNING ${u.statsVersion} = (SELECT version FROM snap) + 1 AS ok
    ),
    incoming AS MATERIALIZED (
      SELECT ${earliest}::bigint + (e->>0)::bigint AS at, e->>1 AS type, ('x' || lpad(e->>2, 16, '0'))::bit(64)::bigint AS digest,
             e->>3 AS category, e->>4 AS language,
             ${aliasedInSnapshot(user.id, sql`e->>5`)} AS project, e->>6 AS editor, e->>7 AS os, e->>8 AS app,
             nullif(e->>9, '') AS machine, nullif(e->>10, '') AS ai_agent, nullif((e->>11)::int, 0) AS ai_lines, nullif((e->>12)::int, 0) AS human_lines,
             CASE WHEN e->>13 = '1' THEN true END AS is_write,
             CASE WHEN coalesce(e->>14, '') <> '' THEN ('x' || lpad(e->>14, 16, '0'))::bit(64)::bigint END AS ai_session,
             coalesce((e->>15)::bigint, 0) AS ai_input_tokens, coalesce((e->>16)::bigint, 0) AS ai_output_tokens,
             coalesce((e->>17)::bigint, 0) AS ai_prompt_length, nullif(e->>18, '') AS ai_model
      FROM jsonb_array_elements(${sql.placeholder('beats')}::text::jsonb) AS e
      WHERE (SELECT ok FROM user_lock)
    ),
    -- Lookups by the whole key, within the batch's times (so that the primary key's range serves
    -- them whatever the planner believes of the user's heartbeats); a late one, also among the
    -- keys of those counted before.
    fresh AS MATERIALIZED (
      SELECT * FROM incoming c WHERE NOT EXISTS (
        SELECT 1 FROM ${h} WHERE ${mine} AND ${h.at} BETWEEN (SELECT min(at) FROM incoming) AND (SELECT max(at) FROM incoming) AND ${rowKey}
      ) AND (c.at >= ${lateBefore} OR NOT EXISTS (SELECT 1 FROM ${k} WHERE ${k.userId} = ${user.id}::uuid AND ${k.key} = ${keyOf('c')}))
    ),
    ${rememberedAgain(user.id, lateBefore)},
    near AS (
      SELECT false AS is_new, ${h.at} AS at, ${h.type} AS type, ${h.entityDigest} AS digest,
             ${selected(h.category, h.language, h.project, h.editor, h.os, h.app, h.machine, h.aiAgent, h.aiLines, h.humanLines, h.isWrite)},
             ${h.creditedUntil} AS credited, ${h.zone} AS zone
      FROM ${h} WHERE ${mine} AND ${h.at} BETWEEN (SELECT min(at) FROM fresh) - ${GAP_MS} AND (SELECT max(at) FROM fresh) + ${GAP_MS}
      UNION ALL
      SELECT true, at, type, digest, ${fields}, at, ${zone} FROM fresh
    ),
    affected AS MATERIALIZED (
      SELECT *, CASE WHEN next_at - at <= ${GAP_MS} THEN next_at ELSE at END AS until
      FROM (SELECT *, lead(at) OVER w AS next_at, lead(is_new) OVER w AS next_new FROM near WINDOW w AS (ORDER BY at, type, digest)) AS o
      WHERE is_new OR next_new
    ),
    changed AS MATERIALIZED (SELECT * FROM affected WHERE until <> credited OR zone <> ${zone}),
    stored AS (
      INSERT INTO ${h} (${cols(h.userId, h.at, h.type, h.entityDigest, h.category, h.language, h.project, h.editor, h.os, h.app, h.machine, h.aiAgent, h.aiLines, h.humanLines, h.isWrite, h.creditedUntil, h.zone, h.purgeAfter)})
      SELECT ${user.id}::uuid, at, type, digest, ${fields}, until, ${zone}, CASE WHEN at < ${lateBefore} THEN ${keepUntil} END FROM affected WHERE is_new
      ORDER BY at, type, digest
    ),
    recredited AS (
      UPDATE ${h} SET ${col(h.creditedUntil)} = c.until, ${col(h.zone)} = ${zone}
      FROM changed c
      WHERE NOT c.is_new AND ${mine} AND ${h.at} BETWEEN (SELECT min(at) FROM changed) AND (SELECT max(at) FROM changed) AND ${rowKey}
    ),
    pieces AS (
      SELECT type, language, project, editor, os, app, category, machine, ai_agent, -1 AS sign, at AS s, credited AS e, zone FROM changed WHERE credited > at
      UNION ALL
      SELECT type, language, project, editor, os, app, category, machine, ai_agent, 1, at, until, ${zone} FROM changed WHERE until > at
    ),
    -- Each change cut at quarter hours and summed per bucket and quarter; each quarter's local
    -- date and hour read once (AT TIME ZONE costs more than the rest).
    quarters AS (
      SELECT p.type = 'app' AS desktop, ${ide('language')} AS language, ${ide('project')} AS project, ${ide('editor')} AS editor,
             ${ide('category')} AS category, ${ide('machine')} AS machine, p.os, ${ide('ai_agent')} AS ai_agent,
             CASE WHEN p.type = 'app' THEN p.app ELSE '' END AS app,
             p.zone, q, sum(p.sign * (least(p.e, q + ${QUARTER_MS}) - greatest(p.s, q))) AS millis
      FROM pieces p CROSS JOIN LATERAL generate_series(p.s - p.s % ${QUARTER_MS}, p.e - 1, ${QUARTER_MS}) AS q
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
    ),
    locals AS (
      SELECT zone, q, to_timestamp(q / 1000.0) AT TIME ZONE zone AS local FROM (SELECT DISTINCT zone, q FROM quarters) AS d
    ),
    credits AS MATERIALIZED (
      SELECT desktop, local::date AS date, extract(hour FROM local)::smallint AS hour, language, project, editor, category, machine, os, ai_agent, app,
             sum(millis)::bigint AS millis
      FROM quarters JOIN locals USING (zone, q)
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
      HAVING sum(millis) <> 0
    ),
    -- The AI sessions the new heartbeats name that none named before: each counts once, with
    -- the first heartbeat of the batch that names it.
    sessions_new AS (
      INSERT INTO ${s} (${cols(s.userId, s.session, s.forgetAfter)})
      SELECT ${user.id}::uuid, ai_session, ${sql.placeholder('remember_until')}::bigint FROM fresh WHERE type <> 'app' AND ai_session IS NOT NULL GROUP BY ai_session ORDER BY ai_session
      ON CONFLICT DO NOTHING
      RETURNING ${s.session} AS session
    ),
    -- Each new heartbeat's line changes and AI report, in the bucket of its own local hour.
    lines AS MATERIALIZED (
      SELECT local::date AS date, extract(hour FROM local)::smallint AS hour, language, project, editor, category, coalesce(machine, '') AS machine, os, coalesce(ai_agent, '') AS ai_agent,
             greatest(coalesce(ai_lines, 0), 0)::bigint AS ai_additions, greatest(-coalesce(ai_lines, 0), 0)::bigint AS ai_deletions,
             greatest(coalesce(human_lines, 0), 0)::bigint AS human_additions, greatest(-coalesce(human_lines, 0), 0)::bigint AS human_deletions,
             CASE WHEN first_of_session AND ai_session IN (SELECT session FROM sessions_new) THEN 1 ELSE 0 END::bigint AS ai_sessions,
             ai_input_tokens, ai_output_tokens, CASE WHEN ai_prompt_length > 0 THEN 1 ELSE 0 END::bigint AS ai_prompt_events,
             ai_prompt_length AS ai_prompt_length_sum, ai_model
      FROM (SELECT *, to_timestamp(at / 1000.0) AT TIME ZONE ${zone} AS local,
                   ai_session IS NOT NULL AND row_number() OVER (PARTITION BY ai_session ORDER BY at, type, digest) = 1 AS first_of_session
            FROM fresh WHERE type <> 'app'
              AND (ai_lines IS NOT NULL OR human_lines IS NOT NULL OR ai_session IS NOT NULL OR ai_input_tokens > 0 OR ai_output_tokens > 0 OR ai_prompt_length > 0)) AS f
    ),
    -- Each model's AI line changes and tokens, added to its day.
    models AS (
      INSERT INTO ${m} (${cols(m.userId, m.date, m.model, m.lines, m.inputTokens, m.outputTokens)})
      SELECT ${user.id}::uuid, date, ai_model, sum(ai_additions + ai_deletions), sum(ai_input_tokens), sum(ai_output_tokens)
      FROM lines WHERE ai_model IS NOT NULL GROUP BY date, ai_model
      HAVING sum(ai_additions + ai_deletions) > 0 OR sum(ai_input_tokens) > 0 OR sum(ai_output_tokens) > 0
      ORDER BY date, ai_model
      ON CONFLICT (${cols(m.userId, m.date, m.model)}) DO UPDATE
        SET ${col(m.lines)} = ${m.lines} + excluded.${col(m.lines)}, ${col(m.inputTokens)} = ${m.inputTokens} + excluded.${col(m.inputTokens)},
            ${col(m.outputTokens)} = ${m.outputTokens} + excluded.${col(m.outputTokens)}
    ),
    ${ideWrites(
      user.id,
      sql`SELECT date, hour, language, project, editor, category, machine, os, ai_agent, millis, 0::bigint AS lines,
                 0::bigint AS ai_additions, 0::bigint AS ai_deletions, 0::bigint AS human_additions, 0::bigint AS human_deletions,
                 0::bigint AS ai_sessions, 0::bigint AS ai_input_tokens, 0::bigint AS ai_output_tokens, 0::bigint AS ai_prompt_events, 0::bigint AS ai_prompt_length_sum
          FROM credits WHERE NOT desktop
          UNION ALL
          SELECT date, hour, language, project, editor, category, machine, os, ai_agent, 0, 0, ai_additions, ai_deletions, human_additions, human_deletions,
                 ai_sessions, ai_input_tokens, ai_output_tokens, ai_prompt_events, ai_prompt_length_sum FROM lines`,
      sql``,
      { signed: true, version: false },
    )},
    ${desktopWrites(user.id, sql`SELECT date, hour, os AS platform, app, millis FROM credits WHERE desktop`, sql``, { signed: true })}${recordAgents}
    SELECT (SELECT ok FROM user_lock) AS ok, ((SELECT count(*) FROM credits) + (SELECT count(*) FROM lines))::int AS changed, ${limits ? admittedColumns : sql`NULL AS "timeZone"`}`;
});

/**
 * The heartbeat statement's CTE that moves the horizon of the keys of late heartbeats sent again
 * (found among the keys of purged rows: `fresh` leaves them out) to KEYS_KEPT_MS from now, so that
 * a client that keeps sending the same history counts it once however long it goes on (decision 0026).
 */
function rememberedAgain(userId: SQLWrapper, lateBefore: SQL): SQL {
  const k = lateHeartbeatKeys;
  return sql`remembered AS (
      UPDATE ${k} SET ${col(k.forgetAfter)} = ${sql.placeholder('remember_until')}::bigint
      WHERE ${k.userId} = ${userId}::uuid AND ${k.forgetAfter} < ${sql.placeholder('remember_until')}::bigint
        AND ${k.key} IN (SELECT ${keyOf('c')} FROM incoming c WHERE c.at < ${lateBefore})
    )`;
}

// Per process, when each user's User-Agent was last recorded: a request records the ones not
// recorded within the hour, so most heartbeat statements carry no such insert.
const agentsRecorded = new LRUCache<string, number>({ max: 10_000 });
const AGENT_RECORD_MS = 3_600_000;

/** The agents to record with this batch, as the statement's JSON parameter; null when none is due. */
function agentsToRecord(userId: string, seen: readonly SeenAgent[], now: number): string | null {
  const due = seen.filter((a) => now - (agentsRecorded.get(`${userId}\u0000${a.value}`) ?? -Infinity) >= AGENT_RECORD_MS);
  return due.length > 0 ? JSON.stringify(due.map((a) => [a.value, a.editor, a.os])) : null;
}

/** A heartbeat's machine, AI agent, line changes, is_write (1 for true) and AI report (session, tokens, prompt, model) when it has none. */
const NO_EXTRAS = ['', '', 0, 0, 0, '', 0, 0, 0, ''] as const;

/**
 * A batch as the statement receives it: one JSON parameter, a row per heartbeat, times as
 * milliseconds after the earliest and digests in hexadecimal (small numbers and short strings),
 * machine, AI agent, line changes, is_write and AI report only up to the last that is not none (most heartbeats have
 * none: the statement reads a missing one as none); `since`, the earliest heartbeat not late
 * (null: none), what `heartbeats_since` may move to.
 */
export function statementBatch(batch: readonly Heartbeat[], lateBefore: number): { beats: string; earliest: number; since: number | null } {
  let earliest = Infinity;
  let since = Infinity;
  for (const b of batch) {
    if (b.at < earliest) earliest = b.at;
    if (b.at >= lateBefore && b.at < since) since = b.at;
  }
  const rows = batch.map((b) => [
    b.at - earliest, b.type, digestHex(b.digest), b.category, b.language, b.project, b.editor, b.os, b.app,
    ...untilDefaults<string | number>(
      [b.machine, b.agent, b.aiLines, b.humanLines, b.isWrite ? 1 : 0, b.aiSession ? digestHex(b.aiSession) : '', b.aiInputTokens ?? 0, b.aiOutputTokens ?? 0, b.aiPromptLength ?? 0, b.aiModel ?? ''],
      NO_EXTRAS,
    ),
  ]);
  return { beats: JSON.stringify(rows), earliest, since: Number.isFinite(since) ? since : null };
}

/**
 * Stores heartbeats and brings every credit they change up to date, in one statement
 * (heartbeatStatement): a heartbeat already stored counts once; any order, batching or
 * repetition ends at the totals of the stream in order. `batch` holds each heartbeat once
 * (DistinctHeartbeats' list). When another batch of the user committed while the statement
 * started, it runs again in a transaction that first waits for the user's row, so that its
 * snapshot comes after every other batch. With an admission, the statement also checks the token
 * and counts the request (a revoked token or a request past the limit throws, having written
 * nothing; a timezone changed since is taken and the batch stored in it).
 */
export async function storeHeartbeats(
  db: Db,
  user: { id: string; timezone: string },
  batch: readonly Heartbeat[],
  admission?: Admission,
  seenAgents: readonly SeenAgent[] = [],
  now = Date.now(),
): Promise<void> {
  if (batch.length === 0) return;
  type Result = AdmitResult & { ok: boolean | null; changed: number };
  const lateBefore = now - LATE_LIMIT_MS;
  const { beats, earliest, since } = statementBatch(batch, lateBefore);
  const agents = agentsToRecord(user.id, seenAgents, now);
  const values = { user: user.id, beats, earliest, since, late_before: lateBefore, keep_until: now + LATE_LIMIT_MS, remember_until: now + KEYS_KEPT_MS, agents: agents ?? undefined };
  const run = async (on: Db, zone: string, admit?: Admit): Promise<Result | undefined> => {
    const statement = heartbeatStatement({ ...values, zone, token: admit?.tokenId }, { limits: admit ? admit.limits : null, agents: agents !== null });
    return (await preparedRows<Result>(on, statement))[0];
  };
  let zone = user.timezone;
  let result = await run(db, zone, admission?.admit);
  while (admission && result && !admission.settled) {
    const settled = admission.settle(result);
    if (settled.outcome === 'admitted') break;
    zone = settled.timeZone;
    result = await run(db, zone, admission.admit);
  }
  if (result?.ok === false) {
    result = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1 FROM ${users} WHERE ${users.id} = ${user.id}::uuid FOR UPDATE`);
      return run(tx as unknown as Db, zone);
    });
  }
  if (!result || result.ok === null) return; // the account is gone
  if (!result.ok) throw new Error('a heartbeat batch found its user changed while holding the user\'s row');
  if (agents !== null) for (const a of seenAgents) agentsRecorded.set(`${user.id}\u0000${a.value}`, now);
  purgeNowAndThen(db);
  if (result.changed > 0) await announce(db, user.id);
}
