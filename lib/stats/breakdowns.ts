import { sql, type SQL } from 'drizzle-orm';
import { categoryName, HOUR_CAP_MILLIS } from '../activity';
import { rows, type Db } from '../db/client';
import { hiddenProjects, ideActivity, userHours } from '../db/schema';
import { eachDay } from '../dates';
import { localDateHour } from '../local-time';
import { userRange } from '../plans/history';
import { agentOf } from '../editors';
import { isAiSql } from './agents';
import type { RangeQuery, ResolvedRange } from './range';

// The owner's breakdowns of their coding time by every dimension kept over all history (the
// dashboard's Breakdowns page): per day by project, language or category (a stacked chart), and
// over the range by category, machine, operating system and AI agent; how much was AI-assisted
// (time an AI agent's heartbeats credited, or in the AI Coding category), by agent and project,
// with the AI and human line changes. One statement over the buckets of the range, each hour
// capped at 3600 s (an hour over the cap scaled down in proportion, as the project list does),
// optionally only one machine's or one system's time. Hidden projects are "a hidden project".

export const stackedBy = ['project', 'language', 'category'] as const;
export type StackedBy = (typeof stackedBy)[number];

export interface BreakdownFilter {
  machine?: string;
  os?: string;
}

interface Named {
  name: string;
  seconds: number;
}

export interface Breakdowns {
  range: ResolvedRange;
  total_seconds: number;
  /** Every date of the range, each with the seconds of the `stacked` names (largest first over the range), the rest as Other. */
  daily: { date: string; seconds: number; parts: Named[] }[];
  stacked: { by: StackedBy; names: string[] };
  categories: Named[];
  machines: Named[];
  operating_systems: Named[];
  ai: {
    seconds: number;
    human_seconds: number;
    agents: Named[];
    projects: { name: string; ai_seconds: number; seconds: number }[];
    lines: { ai_additions: number; ai_deletions: number; human_additions: number; human_deletions: number };
  };
}

/** How many names a stacked day shows on its own; the rest are Other. */
const STACKED_NAMES = 6;
const HIDDEN = 'a hidden project';

/** Whether a bucket's time is AI-assisted (lib/stats/agents.ts; whose: agentOf, in agentsOf below). */
const isAi = isAiSql(sql`a.ai_agent`, sql`a.editor`, sql`a.category`);
/** AI-assisted time no agent is named for (the AI Coding category from an editor): a line of "By agent", so that its lines add up to the AI total. */
export const NO_AGENT = 'No agent named';

interface Row {
  set: number;
  date: string | null;
  name: string | null;
  /** Set 5: the editor (the name is the `ai_agent`), for agentOf. */
  agent_editor: string | null;
  ai: boolean | null;
  millis: number;
  ai_additions: number;
  ai_deletions: number;
  human_additions: number;
  human_deletions: number;
}

/** The owner's breakdowns over `query` (their own dates, within their plan's window), `by` naming the stacked dimension. */
export async function ownBreakdowns(db: Db, user: { id: string; timezone: string }, query: RangeQuery, by: StackedBy, filter: BreakdownFilter = {}): Promise<Breakdowns> {
  const range = await userRange(db, user.id, query, localDateHour(user.timezone).date);
  const [a, h, x] = [ideActivity, userHours, hiddenProjects];
  const project = sql`CASE WHEN EXISTS (SELECT 1 FROM ${x} WHERE ${x.userId} = a.user_id AND ${x.project} = a.project) THEN ${HIDDEN}
                           WHEN a.project = '' THEN '(no project)' ELSE a.project END`;
  const stackedName: Record<StackedBy, SQL> = { project, language: sql`a.language`, category: sql`a.category` };
  const only = [
    filter.machine === undefined ? null : sql`a.machine = ${filter.machine}`,
    filter.os === undefined ? null : sql`a.os = ${filter.os}`,
  ].filter((c) => c !== null);
  // GROUPING SETS, one scan: 1 per date and stacked name, 2 category, 3 machine, 4 system, 5 AI or not by agent word and editor, 6 project and AI, 7 AI or not (with lines).
  const found = range.from <= range.to
    ? await rows<Row>(
        db,
        // MATERIALIZED: inlined, `stacked` would be the very expression `category` is when stacking
        // by category, and PostgreSQL would then leave `category` null in its own grouping set.
        sql`WITH b AS MATERIALIZED (
              SELECT a.*, ${project} AS shown_project, ${stackedName[by]} AS stacked, ${isAi} AS ai,
                     a.millis * least(1, ${HOUR_CAP_MILLIS}::float8 / nullif(h.millis, 0)) AS capped
              FROM ${a} a LEFT JOIN ${h} h ON h.user_id = a.user_id AND h.date = a.date AND h.hour = a.hour
              WHERE a.user_id = ${user.id}::uuid AND a.date BETWEEN ${range.from} AND ${range.to} ${only.length ? sql`AND ${sql.join(only, sql` AND `)}` : sql``}
            )
            SELECT CASE WHEN GROUPING(date, stacked) = 0 THEN 1 WHEN GROUPING(category) = 0 THEN 2 WHEN GROUPING(machine) = 0 THEN 3
                        WHEN GROUPING(os) = 0 THEN 4 WHEN GROUPING(ai_agent, editor) = 0 THEN 5 WHEN GROUPING(shown_project) = 0 THEN 6 ELSE 7 END AS set,
                   to_char(date, 'YYYY-MM-DD') AS date,
                   coalesce(stacked, category, machine, os, ai_agent, shown_project) AS name, editor AS agent_editor, ai,
                   sum(capped)::float8 AS millis,
                   sum(ai_additions)::float8 AS ai_additions, sum(ai_deletions)::float8 AS ai_deletions,
                   sum(human_additions)::float8 AS human_additions, sum(human_deletions)::float8 AS human_deletions
            FROM b
            GROUP BY GROUPING SETS ((date, stacked), (category), (machine), (os), (ai, ai_agent, editor), (shown_project, ai), (ai))`,
      )
    : [];
  return shape(range, by, found);
}

const seconds = (millis: number) => Math.round(millis / 1000);

function named(list: Pick<Row, 'name' | 'millis'>[], unknown = 'Unknown'): Named[] {
  return list
    .map((r) => ({ name: r.name || unknown, seconds: seconds(Number(r.millis)) }))
    .filter((n) => n.seconds > 0)
    .sort((p, q) => q.seconds - p.seconds || p.name.localeCompare(q.name));
}

/** AI time by agent (agentOf over the stored pairs of `ai_agent` and editor), what no agent is named for as NO_AGENT. */
function agentsOf(pairs: Row[]): Named[] {
  const byAgent = new Map<string, number>();
  for (const r of pairs) {
    if (!r.ai) continue;
    const name = agentOf(r.name ?? '', r.agent_editor ?? '') || NO_AGENT;
    byAgent.set(name, (byAgent.get(name) ?? 0) + Number(r.millis));
  }
  return named([...byAgent].map(([name, millis]) => ({ name, millis })));
}

function shape(range: ResolvedRange, by: StackedBy, rowsFound: Row[]): Breakdowns {
  // Categories as WakaTime shows them (`ai coding` -> AI Coding).
  const found = rowsFound.map((r) => (r.set === 2 || (r.set === 1 && by === 'category') ? { ...r, name: categoryName(r.name ?? '') } : r));
  const of = (set: number) => found.filter((r) => r.set === set);
  const perName = new Map<string, number>();
  for (const r of of(1)) perName.set(r.name!, (perName.get(r.name!) ?? 0) + Number(r.millis));
  const names = [...perName].sort((p, q) => q[1] - p[1] || p[0].localeCompare(q[0])).map(([n]) => n);
  const shown = new Set(names.slice(0, names.length > STACKED_NAMES ? STACKED_NAMES - 1 : STACKED_NAMES));
  const days = new Map<string, Map<string, number>>();
  for (const r of of(1)) {
    const day = days.get(r.date!) ?? new Map<string, number>();
    days.set(r.date!, day);
    const name = shown.has(r.name!) ? r.name! : 'Other';
    day.set(name, (day.get(name) ?? 0) + Number(r.millis));
  }
  const stackedNames = [...names.filter((n) => shown.has(n)), ...(names.length > shown.size ? ['Other'] : [])];
  const daily = range.from <= range.to
    ? eachDay(range.from, range.to).map((date) => {
        const parts = stackedNames.map((name) => ({ name, seconds: seconds(days.get(date)?.get(name) ?? 0) }));
        return { date, seconds: parts.reduce((s, p) => s + p.seconds, 0), parts };
      })
    : [];
  const aiRows = of(7);
  const sum = (key: keyof Pick<Row, 'ai_additions' | 'ai_deletions' | 'human_additions' | 'human_deletions'>) => aiRows.reduce((s, r) => s + Number(r[key]), 0);
  const aiMillis = aiRows.filter((r) => r.ai).reduce((s, r) => s + Number(r.millis), 0);
  const allMillis = aiRows.reduce((s, r) => s + Number(r.millis), 0);
  const projects = new Map<string, { ai: number; all: number }>();
  for (const r of of(6)) {
    const p = projects.get(r.name!) ?? { ai: 0, all: 0 };
    projects.set(r.name!, p);
    p.all += Number(r.millis);
    if (r.ai) p.ai += Number(r.millis);
  }
  return {
    range,
    total_seconds: seconds(allMillis),
    daily,
    stacked: { by, names: stackedNames },
    categories: named(of(2)),
    machines: named(of(3)),
    operating_systems: named(of(4)),
    ai: {
      seconds: seconds(aiMillis),
      human_seconds: seconds(allMillis - aiMillis),
      agents: agentsOf(of(5)),
      projects: [...projects]
        .map(([name, p]) => ({ name, ai_seconds: seconds(p.ai), seconds: seconds(p.all) }))
        .filter((p) => p.ai_seconds > 0)
        .sort((p, q) => q.ai_seconds - p.ai_seconds || p.name.localeCompare(q.name)),
      lines: { ai_additions: sum('ai_additions'), ai_deletions: sum('ai_deletions'), human_additions: sum('human_additions'), human_deletions: sum('human_deletions') },
    },
  };
}

/** The machines and operating systems the owner has time on, for the filter's choices. */
export async function ownMachinesAndSystems(db: Db, userId: string): Promise<{ machines: string[]; systems: string[] }> {
  const a = ideActivity;
  const found = await rows<{ kind: string; name: string }>(
    db,
    sql`SELECT 'machine' AS kind, machine AS name FROM (SELECT DISTINCT ${a.machine} AS machine FROM ${a} WHERE ${a.userId} = ${userId}::uuid) m WHERE machine <> ''
        UNION ALL
        SELECT 'os', os FROM (SELECT DISTINCT ${a.os} AS os FROM ${a} WHERE ${a.userId} = ${userId}::uuid) s WHERE os <> ''
        ORDER BY 1, 2`,
  );
  return { machines: found.filter((f) => f.kind === 'machine').map((f) => f.name), systems: found.filter((f) => f.kind === 'os').map((f) => f.name) };
}
