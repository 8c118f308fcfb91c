import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { detached } from '../db/deadline';
import { keysetPages } from '../db/keyset';
import { badges, desktopActivity, goals, ideActivity, imports, projectMerges, teamMembers, teams, userAgents, userDayAiModels } from '../db/schema';
import { beatPages } from '../wakatime/reading/day-beats';
import { getAccount } from './me';
import { listTokens } from './tokens';

// GET /me/export: everything stored about the user, as one JSON document written as it is read.
// The lists that grow with use (hourly buckets over all history, the heartbeats of 14 days) are
// read a page at a time along their keys (lib/db/keyset.ts) and written out page by page, as the
// client takes them: the server holds one page, whatever the account's size, and no statement
// holds the database long. The short lists are read first, so that a missing account is still a
// 404 rather than a cut download. Not one snapshot (no transaction holds the embedded database's
// one session for a download's length): a row written meanwhile may or may not be in it, none twice.

interface BucketRow {
  date: string;
  hour: number;
  language: string;
  project: string;
  editor: string;
  category: string;
  machine: string;
  os: string;
  ai_agent: string;
  millis: number;
  lines: number;
  /** The line changes and what AI agents reported (AI_SUMS), only when any is not 0. */
  ai: Record<(typeof AI_SUMS)[number], number> | null;
}

/** A bucket's line changes and AI report (decision 0037), as exported. */
const AI_SUMS = ['ai_additions', 'ai_deletions', 'human_additions', 'human_deletions', 'ai_sessions', 'ai_input_tokens', 'ai_output_tokens', 'ai_prompt_events', 'ai_prompt_length_sum'] as const;

interface DesktopRow {
  date: string;
  hour: number;
  platform: string;
  app: string;
  millis: number;
}

/** Every IDE bucket of the user, in its key's order, a page at a time. */
function ideBuckets(db: Db, userId: string) {
  const a = ideActivity;
  return keysetPages<BucketRow>(db, (after, size) => {
    const past = after
      ? sql`AND (${a.date}, ${a.hour}, ${a.language}, ${a.project}, ${a.editor}, ${a.category}, ${a.machine}, ${a.os}, ${a.aiAgent})
              > (${after.date}::date, ${after.hour}::smallint, ${after.language}::text, ${after.project}::text, ${after.editor}::text,
                 ${after.category}::text, ${after.machine}::text, ${after.os}::text, ${after.ai_agent}::text)`
      : sql``;
    return sql`SELECT to_char(${a.date}, 'YYYY-MM-DD') AS date, ${a.hour}::int AS hour, ${a.language} AS language, ${a.project} AS project, ${a.editor} AS editor,
                      ${a.category} AS category, ${a.machine} AS machine, ${a.os} AS os, ${a.aiAgent} AS ai_agent, ${a.millis}::float8 AS millis, ${a.lines}::float8 AS lines,
                      CASE WHEN ${sql.raw(AI_SUMS.map((c) => `${c} <> 0`).join(' OR '))}
                        THEN jsonb_build_object(${sql.raw(AI_SUMS.map((c) => `'${c}', ${c}`).join(', '))}) END AS ai
               FROM ${a} WHERE ${a.userId} = ${userId}::uuid ${past}
               ORDER BY ${a.date}, ${a.hour}, ${a.language}, ${a.project}, ${a.editor}, ${a.category}, ${a.machine}, ${a.os}, ${a.aiAgent} LIMIT ${size}`;
  });
}

/** Every desktop bucket of the user, in its key's order, a page at a time. */
function desktopBuckets(db: Db, userId: string) {
  const a = desktopActivity;
  return keysetPages<DesktopRow>(db, (after, size) => {
    const past = after ? sql`AND (${a.date}, ${a.hour}, ${a.platform}, ${a.app}) > (${after.date}::date, ${after.hour}::smallint, ${after.platform}::text, ${after.app}::text)` : sql``;
    return sql`SELECT to_char(${a.date}, 'YYYY-MM-DD') AS date, ${a.hour}::int AS hour, ${a.platform} AS platform, ${a.app} AS app, ${a.millis}::float8 AS millis
               FROM ${a} WHERE ${a.userId} = ${userId}::uuid ${past}
               ORDER BY ${a.date}, ${a.hour}, ${a.platform}, ${a.app} LIMIT ${size}`;
  });
}

/** What each AI model did on each day of the user's, in the key's order, a page at a time. */
function aiModelDays(db: Db, userId: string) {
  const d = userDayAiModels;
  return keysetPages<{ date: string; model: string; lines: number; input_tokens: number; output_tokens: number }>(db, (after, size) => {
    const past = after ? sql`AND (${d.date}, ${d.model}) > (${after.date}::date, ${after.model}::text)` : sql``;
    return sql`SELECT to_char(${d.date}, 'YYYY-MM-DD') AS date, ${d.model} AS model, ${d.lines}::float8 AS lines,
                      ${d.inputTokens}::float8 AS input_tokens, ${d.outputTokens}::float8 AS output_tokens
               FROM ${d} WHERE ${d.userId} = ${userId}::uuid ${past}
               ORDER BY ${d.date}, ${d.model} LIMIT ${size}`;
  });
}

/** The short parts of the export, each whole: read before the answer begins. */
async function shortParts(db: Db, userId: string) {
  const account = await getAccount(db, userId);
  const ownBadges = await db.select().from(badges).where(eq(badges.userId, userId)).orderBy(asc(badges.createdAt));
  const ownGoals = await db.select().from(goals).where(eq(goals.userId, userId)).orderBy(asc(goals.createdAt));
  // My memberships only: the other members' data is theirs.
  const memberships = await db
    .select({ id: teams.id, name: teams.name, role: teamMembers.role, share: teamMembers.share, joinedAt: teamMembers.joinedAt })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(teamMembers.joinedAt));
  const ownImports = await db.select().from(imports).where(eq(imports.userId, userId)).orderBy(asc(imports.createdAt));
  const u = userAgents;
  const agents = await db
    .select({ value: u.value, editor: u.editor, os: u.os, createdAt: u.createdAt, lastSeenAt: u.lastSeenAt })
    .from(u)
    .where(eq(u.userId, userId))
    .orderBy(asc(u.createdAt), asc(u.value));
  // What each merge joined and when; what it moved is kept only to split it again (lib/projects/merges.ts).
  const m = projectMerges;
  const merges = await db.select({ project: m.project, into: m.into, mergedAt: m.mergedAt }).from(m).where(eq(m.userId, userId)).orderBy(asc(m.mergedAt), asc(m.project));
  return {
    head: {
      exported_at: new Date().toISOString(),
      account,
      tokens: await listTokens(db, userId),
      badges: ownBadges.map((b) => ({ id: b.id, metric: b.metric, range: b.range, language: b.language, label: b.label, color: b.color, style: b.style, created_at: new Date(b.createdAt).toISOString() })),
      goals: ownGoals.map((g) => ({ id: g.id, period: g.period, seconds: g.seconds, language: g.language, project: g.project, title: g.title, created_at: new Date(g.createdAt).toISOString() })),
      teams: memberships.map((t) => ({ id: t.id, name: t.name, role: t.role, share: t.share, joined_at: t.joinedAt.toISOString() })),
    },
    tail: {
      imports: ownImports.map((i) => ({
        id: i.id,
        status: i.status,
        bytes: i.bytes,
        heartbeats_read: i.heartbeatsRead,
        heartbeats_skipped: i.heartbeatsSkipped,
        error: i.error,
        created_at: i.createdAt.toISOString(),
        finished_at: i.finishedAt?.toISOString() ?? null,
      })),
      // The User-Agents my heartbeats came with, as kept (GET users/current/user_agents lists them too).
      user_agents: agents.map((a) => ({ value: a.value, editor: a.editor || null, os: a.os || null, created_at: a.createdAt.toISOString(), last_seen_at: a.lastSeenAt.toISOString() })),
      // Merges of one of my projects into another that can still be split (POST /me/projects/{name}/split).
      project_merges: merges.map((r) => ({ project: r.project, into: r.into, merged_at: r.mergedAt.toISOString() })),
    },
  };
}

/** The parts of the document, in order: JSON text, each a piece of it. */
async function* documentText(db: Db, userId: string, parts: Awaited<ReturnType<typeof shortParts>>): AsyncGenerator<string> {
  const head = JSON.stringify(parts.head);
  yield head.slice(0, -1);
  yield* list('activities', ideBuckets(db, userId), (a) => ({
    date: a.date,
    hour: a.hour,
    language: a.language,
    project_name: a.project || null,
    ide_name: a.editor || null,
    time: Number(a.millis) / 1000,
    lines: Number(a.lines),
    ...(a.ai ? Object.fromEntries(AI_SUMS.map((c) => [c, Number(a.ai![c])])) : {}),
  }));
  yield* list('desktop_activities', desktopBuckets(db, userId), (a) => ({ date: a.date, hour: a.hour, platform: a.platform, app: a.app, time: Number(a.millis) / 1000 }));
  // Heartbeats of the last 14 days, as stored (their files only as a keyed digest, not exported).
  yield* list('heartbeats', beatPages(db, userId, 0, Number.MAX_SAFE_INTEGER, { columns: ['until', 'category', 'language', 'project', 'editor', 'os', 'app'] }), (h) => ({
    time: h.at / 1000,
    type: h.type,
    category: h.category,
    language: h.language,
    project: h.project || null,
    editor: h.editor,
    operating_system: h.os,
    app: h.app || null,
    counted_seconds: (h.until - h.at) / 1000,
  }));
  yield `,${JSON.stringify(parts.tail).slice(1, -1)}`;
  // What each AI model did per day (its AI lines changed and tokens; decision 0037).
  yield* list('ai_models', aiModelDays(db, userId), (r) => r);
  yield '}';
}

/** `,"name":[...]` from pages of rows, a page of text at a time. */
async function* list<T>(name: string, pages: AsyncGenerator<T[]>, entry: (row: T) => unknown): AsyncGenerator<string> {
  yield `,${JSON.stringify(name)}:[`;
  let first = true;
  for await (const page of pages) {
    const text = page.map((row) => JSON.stringify(entry(row))).join(',');
    yield first ? text : `,${text}`;
    first = false;
  }
  yield ']';
}

/**
 * Everything stored about the user, as a stream of JSON text: account, tokens (never their
 * values), badges, goals, teams, activity, heartbeats, imports, User-Agents and merges. Throws
 * before the stream when the account is gone.
 */
export async function exportAccount(db: Db, userId: string): Promise<ReadableStream<Uint8Array>> {
  const parts = await shortParts(db, userId);
  const text = documentText(db, userId, parts);
  const encoder = new TextEncoder();
  // A client that goes away cancels the stream, maybe while a page is being read: that page is dropped.
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      // A page is read when the client has taken the one before; the reads belong to the
      // download, not to the request's deadline, which ends once the answer has begun (each
      // statement keeps its own bound).
      async pull(controller) {
        try {
          const next = await detached(() => text.next());
          if (cancelled) return;
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (err) {
          if (cancelled) return;
          console.error('[codetally] export stopped:', (err as Error)?.message);
          controller.error(err);
        }
      },
      async cancel() {
        cancelled = true;
        await text.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
