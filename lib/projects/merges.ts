import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client';
import { usersChanged } from '../db/changes';
import { col, cols } from '../db/names';
import { HOUR_CAP_MILLIS } from '../activity';
import { goals, heartbeats, hiddenProjects, ideActivity, importedDays, projectMerges, userHours, users } from '../db/schema';
import { ApiError } from '../http/problem';
import { Deltas } from '../wakatime/sending/credits';
import type { ProjectAliases } from './aliases';
import { ALL_TIME_FROM } from './read';

// Splitting a merge back out (POST /me/projects/{name}/split). A merge sums the moved buckets into
// the target's, after which the two cannot be told apart by what is stored; so the rename that
// merges keeps, beside the move, what it moved (project_merges): the buckets as they were, the
// stored heartbeats it renamed (with what each was credited then), the imported days' credits it
// renamed, the goals that followed and the alias map before. Splitting subtracts that from the
// target and puts it back under the old name, in one transaction that holds the users row as a
// rename does (lib/projects/rename.ts), chunk by chunk, each row found by its key (decision 0028).
//
// What still holds after the merge: time keeps arriving into the target (writes add, so what the
// merge added can still be subtracted), and a heartbeat of the target that a later one extends or
// a late one cuts short changes its credit: the split moves the credit as it is now. Time that came
// under the old name after the merge counts under the target (that is what the merge asked) and
// stays there. What ends a split: any later rename of either name (the alias map and the buckets
// no longer say what the record does), and an import that replaced one of the merged days'
// credits since (409 merge_changed).

/** The buckets of a bucket key of ide_activity, the project aside, with their sums. */
type Bucket = [
  date: string, hour: number, language: string, project: string, editor: string, category: string, machine: string, os: string, agent: string,
  millis: number, lines: number, aiAdditions: number, aiDeletions: number, humanAdditions: number, humanDeletions: number,
  aiSessions: number, aiInputTokens: number, aiOutputTokens: number, aiPromptEvents: number, aiPromptLengthSum: number,
];

/** What a merge moved (project_merges.moved). */
export interface MergeRecord {
  /** The stored names it moved ('' and NO_PROJECT for time without a project). */
  names: string[];
  /** The stored name they went to. */
  target: string;
  /** The alias map before the merge. */
  aliases: ProjectAliases;
  buckets: Bucket[];
  /** The stored heartbeats renamed: their key, what they were credited up to, their name. */
  beats: [at: number, type: string, digest: number, creditedUntil: number, project: string][];
  /** The imported days whose credits it renamed: the day, a digest of the credits after, and each renamed credit's place and name. */
  credits: [day: number, digest: string, renamed: [index: number, project: string][]][];
  /** The goals that followed: their id and project before. */
  goals: [id: string, project: string][];
  /** Whether the merged project was hidden (its flag went with the merge). */
  hidden: boolean;
}

const a = ideActivity;
const keyColumns = [a.date, a.hour, a.language, a.editor, a.category, a.machine, a.os, a.aiAgent];
const sumColumns = [a.millis, a.lines, a.aiAdditions, a.aiDeletions, a.humanAdditions, a.humanDeletions, a.aiSessions, a.aiInputTokens, a.aiOutputTokens, a.aiPromptEvents, a.aiPromptLengthSum];
const bucketColumns = [a.date, a.hour, a.language, a.project, a.editor, a.category, a.machine, a.os, a.aiAgent, ...sumColumns];
/** Where a bucket's sums begin, and how long a bucket is. */
const SUMS_AT = 9;
/** A bucket as a merge recorded it, its sums filled in: a merge recorded before the AI report was kept has fewer (decision 0037). */
const whole = (b: Bucket): Bucket => (b.length === bucketColumns.length ? b : (bucketColumns.map((_, i) => b[i] ?? 0) as Bucket));
/**
 * How many buckets or heartbeats one statement of a split handles: however much a merge moved,
 * each statement's work stays bounded (the embedded database runs it on the thread that serves
 * requests, and PostgreSQL's statement timeout holds for each).
 */
const CHUNK = 2_000;

/** A column of `table` under the alias `x` (a row looked up inside a statement on the same table). */
const ofX = (column: { name: string }) => sql`x.${sql.identifier(column.name)}`;

function chunks<T>(list: T[]): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) parts.push(list.slice(i, i + CHUNK));
  return parts;
}

/**
 * Records what merging `names` into `target` is about to move (called in the rename's transaction,
 * the users row held, before anything moves); `creditDigests` completes it once the credits moved.
 */
export async function recordMerge(tx: Db, userId: string, merge: { project: string; into: string; names: string; target: string; aliases: ProjectAliases }): Promise<void> {
  const { names, target } = merge;
  const h = heartbeats;
  await tx.execute(sql`
    INSERT INTO ${projectMerges} (${cols(projectMerges.userId, projectMerges.project, projectMerges.into, projectMerges.moved)})
    SELECT ${userId}::uuid, ${merge.project}, ${merge.into}, jsonb_build_object(
      'names', ${names}::text[], 'target', ${target}::text, 'aliases', ${JSON.stringify(merge.aliases)}::jsonb, 'hidden', EXISTS (SELECT 1 FROM ${hiddenProjects} WHERE ${hiddenProjects.userId} = ${userId}::uuid AND ${hiddenProjects.project} = ${merge.project}),
      'buckets', (SELECT coalesce(jsonb_agg(jsonb_build_array(${sql.join(bucketColumns, sql`, `)})), '[]') FROM ${a}
                  WHERE ${a.userId} = ${userId}::uuid AND ${a.project} = ANY(${names}::text[]) AND ${a.project} <> ${target}),
      'beats', (SELECT coalesce(jsonb_agg(jsonb_build_array(${h.at}, ${h.type}, ${h.entityDigest}, ${h.creditedUntil}, ${h.project})), '[]') FROM ${h}
                WHERE ${h.userId} = ${userId}::uuid AND ${h.project} = ANY(${names}::text[]) AND ${h.project} <> ${target}),
      'credits', (SELECT coalesce(jsonb_agg(jsonb_build_array(d.day, '', d.renamed)), '[]') FROM (
                    SELECT ${importedDays.day} AS day, jsonb_agg(jsonb_build_array(e.n - 1, e.c ->> 3) ORDER BY e.n) AS renamed
                    FROM ${importedDays}, jsonb_array_elements(${importedDays.credits} -> 'ide') WITH ORDINALITY AS e(c, n)
                    WHERE ${importedDays.userId} = ${userId}::uuid AND e.c ->> 3 = ANY(${names}::text[]) AND e.c ->> 3 <> ${target}
                    GROUP BY ${importedDays.day}) d),
      'goals', (SELECT coalesce(jsonb_agg(jsonb_build_array(${goals.id}, ${goals.project})), '[]') FROM ${goals}
                WHERE ${goals.userId} = ${userId}::uuid AND lower(${goals.project}) IN (SELECT lower(n) FROM unnest(${names}::text[]) AS n)))
    ON CONFLICT (${cols(projectMerges.userId, projectMerges.project)}) DO UPDATE
      SET ${col(projectMerges.into)} = excluded.${col(projectMerges.into)}, ${col(projectMerges.mergedAt)} = excluded.${col(projectMerges.mergedAt)}, ${col(projectMerges.moved)} = excluded.${col(projectMerges.moved)}`);
}

/** The digests of the merged days' credits as the merge left them: a split refuses once an import replaced one. */
export async function creditDigests(tx: Db, userId: string, project: string): Promise<void> {
  const m = projectMerges;
  await tx.execute(sql`
    UPDATE ${m} SET ${col(m.moved)} = jsonb_set(${m.moved}, '{credits}', (
      SELECT coalesce(jsonb_agg(jsonb_build_array(c -> 0, (SELECT md5(${importedDays.credits}::text) FROM ${importedDays} WHERE ${importedDays.userId} = ${userId}::uuid AND ${importedDays.day} = (c ->> 0)::int), c -> 2)), '[]')
      FROM jsonb_array_elements(${m.moved} -> 'credits') AS c))
    WHERE ${m.userId} = ${userId}::uuid AND ${m.project} = ${project}`);
}

/** Ends the splits a rename of `names` (shown) makes impossible: every merge of or into one of them. */
export async function forgetMerges(tx: Db, userId: string, names: string[]): Promise<void> {
  const m = projectMerges;
  const list = sql`${JSON.stringify(names)}::jsonb`;
  await tx.execute(sql`DELETE FROM ${m} WHERE ${m.userId} = ${userId}::uuid AND (${list} ? ${m.project} OR ${list} ? ${m.into})`);
}

export interface MergeShown {
  project: string;
  merged_at: string;
  seconds: number;
}

/**
 * The merges into `into` that can be split back out, newest first, with the time each moved on
 * dates from `from` on (the history the user's plan shows), each hour capped at 3600 s as every
 * figure counts it (an hour over the cap scaled down in proportion): the size the project list and
 * the merge's question gave the project before the merge.
 */
export async function mergesInto(db: Db, userId: string, into: string, from = ALL_TIME_FROM): Promise<MergeShown[]> {
  const [m, h] = [projectMerges, userHours];
  const found = await rows<{ project: string; merged_at: Date | string; millis: string | number }>(
    db,
    sql`SELECT ${m.project} AS project, ${m.mergedAt} AS merged_at,
               (SELECT coalesce(sum((b ->> 9)::float8 * least(1, ${HOUR_CAP_MILLIS}::float8 / nullif(${h.millis}, 0))), 0)
                FROM jsonb_array_elements(${m.moved} -> 'buckets') AS b
                LEFT JOIN ${h} ON ${h.userId} = ${m.userId} AND ${h.date} = (b ->> 0)::date AND ${h.hour} = (b ->> 1)::smallint
                WHERE (b ->> 0)::date >= ${from}::date) AS millis
        FROM ${m} WHERE ${m.userId} = ${userId}::uuid AND ${m.into} = ${into} ORDER BY ${m.mergedAt} DESC`,
  );
  return found.map((r) => ({ project: r.project, merged_at: new Date(r.merged_at).toISOString(), seconds: Math.round(Number(r.millis) / 1000) }));
}

const noMerge = () => new ApiError('not_found', 'No merge of that project into this one can be split back out: it was never merged here, or a later rename of either name ended it.');

/** Splits `project` (shown) back out of `into`, where a merge put it; returns the name it has again. */
export async function splitMerge(db: Db, userId: string, into: string, project: string): Promise<{ project: string; into: string }> {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [owner] = await rows<{ map: ProjectAliases }>(tx, sql`SELECT ${users.projectAliases} AS map FROM ${users} WHERE ${users.id} = ${userId}::uuid FOR UPDATE`);
    const m = projectMerges;
    const [found] = await rows<{ moved: MergeRecord }>(
      tx,
      sql`DELETE FROM ${m} WHERE ${m.userId} = ${userId}::uuid AND ${m.project} = ${project} AND ${m.into} = ${into} RETURNING ${m.moved} AS moved`,
    );
    if (!owner || !found) throw noMerge();
    const record = found.moved;
    await checkCredits(tx, userId, record);
    const back = await movedNow(tx, userId, record);
    await splitBuckets(tx, userId, record.target, back);
    await restoreRest(tx, userId, record, project, into);
    await tx.execute(sql`UPDATE ${users} SET ${col(users.projectAliases)} = ${JSON.stringify(splitAliases(owner.map, record))}::jsonb, ${col(users.statsVersion)} = ${users.statsVersion} + 1
                         WHERE ${users.id} = ${userId}::uuid`);
  });
  await usersChanged(db, [userId]).catch((err) => console.error('[codetally] change announcement failed:', (err as Error)?.message));
  return { project, into };
}

async function checkCredits(tx: Db, userId: string, record: MergeRecord): Promise<void> {
  if (record.credits.length === 0) return;
  const days = record.credits.map(([day]) => day);
  const now = await rows<{ day: number; digest: string }>(
    tx,
    sql`SELECT ${importedDays.day} AS day, md5(${importedDays.credits}::text) AS digest FROM ${importedDays} WHERE ${importedDays.userId} = ${userId}::uuid AND ${importedDays.day} = ANY(${`{${days.join(',')}}`}::int[])`,
  );
  const digests = new Map(now.map((r) => [Number(r.day), r.digest]));
  if (record.credits.some(([day, digest]) => digests.get(day) !== digest)) {
    throw new ApiError('merge_changed', 'An import replaced days of the merged time since the merge: what came from which project can no longer be told apart.');
  }
}

/**
 * What goes back: the buckets the merge moved, plus the change since in the credit of each
 * heartbeat it renamed that is still stored (a later heartbeat extends the last one's credit, a
 * late one cuts a credit short): keyed by the old name.
 */
async function movedNow(tx: Db, userId: string, record: MergeRecord): Promise<Bucket[]> {
  const byKey = new Map<string, Bucket>();
  const add = (b: Bucket) => {
    const key = b.slice(0, SUMS_AT).join('\u0000');
    const found = byKey.get(key);
    if (!found) byKey.set(key, whole([...b] as Bucket));
    else for (let i = SUMS_AT; i < bucketColumns.length; i++) (found[i] as number) += (b[i] as number | undefined) ?? 0;
  };
  for (const b of record.buckets) add(b);
  const h = heartbeats;
  const deltas = new Deltas();
  for (const part of chunks(record.beats)) {
    const keys = JSON.stringify(part.map(([at, type, digest, until, project]) => ({ at, type, digest, until, project })));
    // Each heartbeat found by its key (a LIMIT keeps the lookup a subquery the planner cannot
    // turn into a join over all of the user's heartbeats).
    const now = await rows<{ at: string; until_then: string; until_now: string; zone: string; type: string; language: string; editor: string; os: string; app: string; category: string; machine: string; agent: string; project: string }>(
      tx,
      sql`SELECT b.at, k.until AS until_then, b.until_now, b.zone, b.type, b.language, b.editor, b.os, b.app, b.category, b.machine, b.agent, k.project AS project
          FROM jsonb_to_recordset(${keys}::jsonb) AS k(at bigint, type text, digest bigint, until bigint, project text)
          CROSS JOIN LATERAL (
            SELECT ${h.at} AS at, ${h.creditedUntil} AS until_now, ${h.zone} AS zone, ${h.type} AS type, ${h.language} AS language, ${h.editor} AS editor, ${h.os} AS os, ${h.app} AS app,
                   ${h.category} AS category, coalesce(${h.machine}, '') AS machine, coalesce(${h.aiAgent}, '') AS agent
            FROM ${h} WHERE ${h.userId} = ${userId}::uuid AND ${h.at} = k.at AND ${h.type} = k.type AND ${h.entityDigest} = k.digest AND ${h.project} = ${record.target} LIMIT 1) b
          WHERE b.until_now <> k.until`,
    );
    for (const r of now) {
      const at = Number(r.at);
      deltas.add(r, at, Number(r.until_now), r.zone, 1);
      deltas.add(r, at, Number(r.until_then), r.zone, -1);
    }
  }
  for (const [date, hour, language, project, editor, millis, category = 'coding', machine = '', os = '', agent = ''] of deltas.credits().ide) {
    add(whole([date, hour, language, project, editor, category, machine, os, agent, millis] as unknown as Bucket));
  }
  return [...byKey.values()];
}

/** A bucket's key without its project: the bucket of the target it came out of. */
const targetKey = (b: Bucket) => JSON.stringify([b[0], b[1], b[2], b[4], b[5], b[6], b[7], b[8]]);

/**
 * Subtracts `back` from the target's buckets and adds it under the old names, unless the target no
 * longer holds it (409). Linear in what the merge moved, chunk by chunk (decision 0028): the target's
 * buckets of a chunk's keys are taken out, each found by its whole primary key and deleted by its
 * row address (no join the planner could run as a loop over all of the target's buckets), the
 * remainder is worked out here and put back, then the old names' buckets are added by key (an
 * upsert probes the key's index row by row). All of it in the split's transaction: a refusal in
 * the last chunk undoes the first.
 */
async function splitBuckets(tx: Db, userId: string, target: string, back: Bucket[]): Promise<void> {
  if (back.length === 0) return;
  // What each bucket of the target gives back: the old names' buckets of its key, summed.
  const taken = new Map<string, Bucket>();
  for (const b of back) {
    const key = targetKey(b);
    const found = taken.get(key);
    if (!found) taken.set(key, [...b.slice(0, 3), target, ...b.slice(4)] as Bucket);
    else for (let i = SUMS_AT; i < bucketColumns.length; i++) (found[i] as number) += b[i] as number;
  }
  const shortfall = () => new ApiError('merge_changed', 'The merged time is no longer all in the project it went to: it can no longer be split back out.');
  const sameKey = sql.join(keyColumns.map((c) => sql`${ofX(c)} = t.${sql.identifier(c.name)}`), sql` AND `);
  for (const part of chunks([...taken.entries()].sort(([k1], [k2]) => byText(k1, k2)).map(([, b]) => b))) {
    const keys = JSON.stringify(part.map((b) => Object.fromEntries(keyColumns.map((c) => [c.name, b[bucketColumns.indexOf(c)]]))));
    const held = await rows<{ key: unknown[] } & Record<string, string>>(
      tx,
      sql`DELETE FROM ${a} WHERE ${a.userId} = ${userId}::uuid AND ctid = ANY(ARRAY(
            SELECT (SELECT x.ctid FROM ${a} AS x WHERE ${ofX(a.userId)} = ${userId}::uuid AND ${ofX(a.project)} = ${target} AND ${sameKey})
            FROM jsonb_to_recordset(${keys}::jsonb) AS t(date date, hour smallint, language text, editor text, category text, machine text, os text, ai_agent text)))
          RETURNING jsonb_build_array(${sql.join(keyColumns, sql`, `)}) AS key, ${sql.join(sumColumns, sql`, `)}`,
    );
    const holds = new Map(held.map((r) => [JSON.stringify(r.key), sumColumns.map((c) => Number(r[c.name]))]));
    const left: Bucket[] = [];
    for (const b of part) {
      const sums = holds.get(targetKey(b));
      if ((b[SUMS_AT] as number) > (sums?.[0] ?? 0)) throw shortfall();
      if (!sums) continue;
      const rest = sums.map((n, i) => n - (b[SUMS_AT + i] as number));
      // What only the merge had put in a bucket of the target leaves no empty row behind.
      if (rest.some((n) => n !== 0)) left.push([...b.slice(0, SUMS_AT), ...rest] as Bucket);
    }
    await addBuckets(tx, userId, left);
  }
  const byName = back.map((b) => [JSON.stringify([b[3], targetKey(b)]), b] as const).sort(([k1], [k2]) => byText(k1, k2));
  for (const part of chunks(byName.map(([, b]) => b))) await addBuckets(tx, userId, part);
}

/** Orders texts by their code units (keys of buckets: the order of the rows they land in). */
const byText = (k1: string, k2: string) => (k1 < k2 ? -1 : k1 > k2 ? 1 : 0);

/** Adds buckets (one per key) to the stored ones, by key. */
async function addBuckets(tx: Db, userId: string, list: Bucket[]): Promise<void> {
  if (list.length === 0) return;
  const names = (columns: typeof bucketColumns) => sql.join(columns.map((c) => sql.identifier(c.name)), sql`, `);
  const key = cols(a.userId, a.project, ...keyColumns);
  await tx.execute(sql`
    INSERT INTO ${a} (${key}, ${cols(...sumColumns)})
    SELECT ${userId}::uuid, project, ${names(keyColumns)}, ${names(sumColumns)}
    FROM jsonb_to_recordset(${JSON.stringify(list.map((b) => Object.fromEntries(bucketColumns.map((c, i) => [c.name, b[i]]))))}::jsonb)
      AS m(date date, hour smallint, language text, project text, editor text, category text, machine text, os text, ai_agent text, ${sql.raw(sumColumns.map((c) => `${c.name} bigint`).join(', '))})
    ORDER BY project, ${names(keyColumns)}
    ON CONFLICT (${key}) DO UPDATE SET ${sql.join(sumColumns.map((c) => sql`${col(c)} = ${c} + excluded.${col(c)}`), sql`, `)}, ${col(a.updatedAt)} = now()`);
}

/** The heartbeats, imported credits, goals and hidden flag the merge renamed, back under their names. */
async function restoreRest(tx: Db, userId: string, record: MergeRecord, project: string, into: string): Promise<void> {
  const h = heartbeats;
  // Name by name (a merge moves a name or two), chunk by chunk: each heartbeat found by its key and
  // renamed by its row address, as splitBuckets takes buckets out.
  for (const name of new Set(record.beats.map(([, , , , n]) => n))) {
    for (const part of chunks(record.beats.filter(([, , , , n]) => n === name))) {
      const keys = JSON.stringify(part.map(([at, type, digest]) => ({ at, type, digest })));
      await tx.execute(sql`UPDATE ${h} SET ${col(h.project)} = ${name} WHERE ${h.userId} = ${userId}::uuid AND ctid = ANY(ARRAY(
                             SELECT (SELECT x.ctid FROM ${h} AS x WHERE ${ofX(h.userId)} = ${userId}::uuid AND ${ofX(h.at)} = k.at AND ${ofX(h.type)} = k.type
                                                                         AND ${ofX(h.entityDigest)} = k.digest AND ${ofX(h.project)} = ${record.target})
                             FROM jsonb_to_recordset(${keys}::jsonb) AS k(at bigint, type text, digest bigint)))`);
    }
  }
  for (const [day, , renamed] of record.credits) {
    let path = sql`${importedDays.credits}`;
    for (const [index, name] of renamed) path = sql`jsonb_set(${path}, ${`{ide,${index},3}`}::text[], to_jsonb(${name}::text))`;
    await tx.execute(sql`UPDATE ${importedDays} SET ${col(importedDays.credits)} = ${path} WHERE ${importedDays.userId} = ${userId}::uuid AND ${importedDays.day} = ${day}`);
  }
  if (record.goals.length > 0) {
    const list = JSON.stringify(record.goals.map(([id, name]) => ({ id, name })));
    await tx.execute(sql`UPDATE ${goals} SET ${col(goals.project)} = g.name FROM jsonb_to_recordset(${list}::jsonb) AS g(id uuid, name text)
                         WHERE ${goals.userId} = ${userId}::uuid AND ${goals.id} = g.id AND ${goals.project} = ${into}`);
  }
  if (record.hidden) {
    await tx.execute(sql`INSERT INTO ${hiddenProjects} (${cols(hiddenProjects.userId, hiddenProjects.project)}) VALUES (${userId}::uuid, ${project}) ON CONFLICT DO NOTHING`);
  }
}

/**
 * The alias map once the merged names are names of their own again: each stops pointing at the
 * target, and what pointed at one of them before the merge (and at the target since) points at it
 * again. Entries of other renames since stay (a rename of either name would have ended the split).
 */
export function splitAliases(map: ProjectAliases, record: Pick<MergeRecord, 'names' | 'target' | 'aliases'>): ProjectAliases {
  const next: ProjectAliases = { ...map };
  for (const name of record.names) if (next[name] === record.target) delete next[name];
  for (const [old, was] of Object.entries(record.aliases)) if (record.names.includes(was) && next[old] === record.target) next[old] = was;
  return next;
}
