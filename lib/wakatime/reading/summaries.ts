import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client';
import { categoryName, HOUR_CAP_MILLIS } from '../../activity';
import { ideActivity, userDayAiModels, userHours } from '../../db/schema';
import { localDateHour } from '../../local-time';
import { eachDay } from '../../dates';
import { projectTotals } from '../../stats/own';
import { userSpan } from '../../plans/history';
import { dayTotals, dimensionTotals, type Per } from '../../stats/queries';
import { hiddenNames } from '../../projects/read';
import { machineId } from './machines';

// The owner's figures in WakaTime's shapes: the status bar, summaries, stats (lib/wakatime/reading/reads.ts).

export interface WakaDuration {
  name: string;
  total_seconds: number;
  percent: number;
  digital: string;
  text: string;
  hours: number;
  minutes: number;
  seconds: number;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** WakaTime's way of writing a duration: "2 hrs 5 mins", "1 hr", "0 secs". */
export function durationText(totalSeconds: number): string {
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  if (hours === 0 && minutes === 0) return plural(Math.floor(totalSeconds), 'sec');
  return [hours > 0 ? plural(hours, 'hr') : '', minutes > 0 ? plural(minutes, 'min') : ''].filter(Boolean).join(' ');
}

export function duration(name: string, totalSeconds: number, total: number): WakaDuration {
  const s = Math.round(totalSeconds);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return {
    name,
    total_seconds: s,
    percent: total > 0 ? Math.round((s / total) * 10000) / 100 : 0,
    digital: `${hours}:${String(minutes).padStart(2, '0')}`,
    text: durationText(s),
    hours,
    minutes,
    seconds: s % 60,
  };
}

function durations(found: { name: string; seconds: number }[], total: number): WakaDuration[] {
  return found
    .filter((f) => f.seconds >= 1)
    .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name))
    .map((f) => duration(f.name, f.seconds, total));
}

/** Capped milliseconds per period by category, operating system and machine (and filtered, by language, editor and project), with each period's total and line changes. */
interface BucketShares {
  categories: Grouped;
  systems: Grouped;
  machines: Grouped;
  languages: Grouped;
  editors: Grouped;
  projects: Grouped;
  totals: Map<string, number>;
  lines: Map<string, LineChanges & AiSums>;
}

export interface LineChanges {
  ai_additions: number;
  ai_deletions: number;
  human_additions: number;
  human_deletions: number;
}

/** What AI agents reported over a period (decision 0037), summed from the buckets. */
interface AiSums {
  ai_input_tokens: number;
  ai_output_tokens: number;
  ai_sessions: number;
  ai_prompt_events_total: number;
  ai_prompt_length_sum: number;
}

/** One AI model's figures over a period. */
interface ModelFigures {
  name: string;
  lines: number;
  input_tokens: number;
  output_tokens: number;
}

/** A period's AI figures: line changes, what AI agents reported, and per model. */
type AiFigures = LineChanges & AiSums & { ai_model_breakdown: ModelFigures[] };

/**
 * The names of the AI figures, as `grand_total` and stats' `data` carry them: what a public answer
 * leaves out unless the owner shares AI-assisted coding (lib/wakatime/reading/public-stats.ts).
 */
export const AI_FIGURES = [
  'ai_additions', 'ai_deletions', 'human_additions', 'human_deletions',
  'ai_input_tokens', 'ai_output_tokens', 'ai_sessions', 'ai_prompt_events_total', 'ai_prompt_length_sum', 'ai_model_breakdown',
] as const satisfies readonly (keyof AiFigures)[];

/** `figures` without its AI figures (AI_FIGURES). */
export function withoutAiFigures<T extends object>(figures: T): Omit<T, (typeof AI_FIGURES)[number]> {
  const rest = { ...figures } as Record<string, unknown>;
  for (const name of AI_FIGURES) delete rest[name];
  return rest as Omit<T, (typeof AI_FIGURES)[number]>;
}

const NO_LINES: LineChanges & AiSums = {
  ai_additions: 0, ai_deletions: 0, human_additions: 0, human_deletions: 0,
  ai_input_tokens: 0, ai_output_tokens: 0, ai_sessions: 0, ai_prompt_events_total: 0, ai_prompt_length_sum: 0,
};

const noShares = (): BucketShares => ({
  categories: new Grouped(),
  systems: new Grouped(),
  machines: new Grouped(),
  languages: new Grouped(),
  editors: new Grouped(),
  projects: new Grouped(),
  totals: new Map(),
  lines: new Map(),
});

/** The buckets a read is limited to: one project's, one language's (by name in any case), or both. */
export interface BucketFilter {
  project?: string;
  language?: string;
}

/**
 * The buckets' categories, systems and machines (kept over all history) per period, each hour
 * capped at 3600 s as every figure (an hour over the cap scaled down in proportion), and their AI
 * and human line changes: one statement (GROUPING SETS). A bucket of line changes only has no
 * hour of time: it is read for its lines. With a filter, only the buckets of that project or
 * language, and their languages, editors and projects too (the rollups hold no project).
 */
async function bucketShares(db: Db, user: WakaUser, from: string, to: string, per: Per, filter: BucketFilter = {}): Promise<BucketShares> {
  const [a, h] = [ideActivity, userHours];
  const period = per === 'day' ? sql`to_char(a.date, 'YYYY-MM-DD')` : sql`''`;
  const { project, language } = filter;
  // GROUPING() may name only grouped columns: language, editor and project are grouped when filtered only.
  const byFilter = project !== undefined || language !== undefined;
  const sets = sql.raw(`(period, category), (period, os), (period, machine), (period)${byFilter ? ', (period, language), (period, editor), (period, project)' : ''}`);
  const set = sql.raw(
    `CASE WHEN GROUPING(category) = 0 THEN 1 WHEN GROUPING(os) = 0 THEN 2 WHEN GROUPING(machine) = 0 THEN 3${byFilter ? ' WHEN GROUPING(language) = 0 THEN 5 WHEN GROUPING(editor) = 0 THEN 6 WHEN GROUPING(project) = 0 THEN 7' : ''} ELSE 4 END`,
  );
  const name = sql.raw(`coalesce(category, os, machine${byFilter ? ', language, editor, project' : ''})`);
  const found = await rows<{ set: number; period: string; name: string | null; millis: number } & LineChanges & AiSums>(
    db,
    sql`WITH b AS (
          SELECT ${period} AS period, a.category, a.os, a.machine, a.language, a.editor, a.project, a.ai_additions, a.ai_deletions, a.human_additions, a.human_deletions,
                 a.ai_input_tokens, a.ai_output_tokens, a.ai_sessions, a.ai_prompt_events, a.ai_prompt_length_sum,
                 a.millis * least(1, ${HOUR_CAP_MILLIS}::float8 / nullif(h.millis, 0)) AS capped
          FROM ${a} a LEFT JOIN ${h} h ON h.user_id = a.user_id AND h.date = a.date AND h.hour = a.hour
          WHERE a.user_id = ${user.id}::uuid AND a.date BETWEEN ${from} AND ${to} ${project !== undefined ? sql`AND a.project = ${project}` : sql``}
            ${language !== undefined ? sql`AND lower(a.language) = lower(${language})` : sql``}
        )
        SELECT ${set} AS set, period, ${name} AS name, coalesce(sum(capped), 0)::float8 AS millis,
               sum(ai_additions)::float8 AS ai_additions, sum(ai_deletions)::float8 AS ai_deletions,
               sum(human_additions)::float8 AS human_additions, sum(human_deletions)::float8 AS human_deletions,
               sum(ai_input_tokens)::float8 AS ai_input_tokens, sum(ai_output_tokens)::float8 AS ai_output_tokens, sum(ai_sessions)::float8 AS ai_sessions,
               sum(ai_prompt_events)::float8 AS ai_prompt_events_total, sum(ai_prompt_length_sum)::float8 AS ai_prompt_length_sum
        FROM b GROUP BY GROUPING SETS (${sets})`,
  );
  const shares = noShares();
  for (const r of found) {
    const millis = Number(r.millis);
    if (r.set === 1) shares.categories.add(r.period, categoryName(r.name ?? ''), millis);
    // Buckets from before systems and machines were kept have none: no name is made up for them.
    else if (r.set === 2 && r.name) shares.systems.add(r.period, r.name, millis);
    else if (r.set === 3 && r.name) shares.machines.add(r.period, r.name, millis);
    else if (r.set === 5) shares.languages.add(r.period, r.name || 'Unknown', millis);
    else if (r.set === 6) shares.editors.add(r.period, r.name || 'Unknown', millis);
    else if (r.set === 7) shares.projects.add(r.period, r.name || '(no project)', millis);
    else if (r.set === 4) {
      shares.totals.set(r.period, millis);
      shares.lines.set(r.period, Object.fromEntries(Object.keys(NO_LINES).map((k) => [k, Number(r[k as keyof AiSums]) || 0])) as unknown as LineChanges & AiSums);
    }
  }
  return shares;
}

/**
 * Each AI model's lines and tokens per period (user_day_ai_models), most lines first: kept per day
 * for the whole account, so none for figures filtered by project or language.
 */
async function modelShares(db: Db, user: WakaUser, from: string, to: string, per: Per): Promise<Map<string, ModelFigures[]>> {
  const m = userDayAiModels;
  const period = per === 'day' ? sql`to_char(${m.date}, 'YYYY-MM-DD')` : sql`''`;
  const found = await rows<{ period: string; name: string; lines: number; input_tokens: number; output_tokens: number }>(
    db,
    sql`SELECT ${period} AS period, ${m.model} AS name, sum(${m.lines})::float8 AS lines, sum(${m.inputTokens})::float8 AS input_tokens, sum(${m.outputTokens})::float8 AS output_tokens
        FROM ${m} WHERE ${m.userId} = ${user.id}::uuid AND ${m.date} BETWEEN ${from} AND ${to}
        GROUP BY 1, 2 HAVING sum(${m.lines}) > 0 OR sum(${m.inputTokens}) > 0 OR sum(${m.outputTokens}) > 0
        ORDER BY 1, 3 DESC, sum(${m.inputTokens}) + sum(${m.outputTokens}) DESC, 2`,
  );
  const byPeriod = new Map<string, ModelFigures[]>();
  for (const r of found) {
    const list = byPeriod.get(r.period) ?? [];
    byPeriod.set(r.period, list);
    list.push({ name: r.name, lines: Number(r.lines), input_tokens: Number(r.input_tokens), output_tokens: Number(r.output_tokens) });
  }
  return byPeriod;
}

/** Milliseconds per period and name. */
class Grouped {
  readonly byPeriod = new Map<string, Map<string, number>>();

  add(period: string, name: string, millis: number): void {
    const names = this.byPeriod.get(period) ?? new Map<string, number>();
    this.byPeriod.set(period, names);
    names.set(name, (names.get(name) ?? 0) + millis);
  }

  of(period: string): Map<string, number> {
    return this.byPeriod.get(period) ?? new Map();
  }

  static from(rows: { period: string; name: string; millis: number }[]): Grouped {
    const g = new Grouped();
    for (const r of rows) g.add(r.period, r.name || 'Unknown', r.millis);
    return g;
  }
}

/** `shares` scaled so that they add up to `total` seconds; what they do not cover goes to `rest` (if named). */
function scaled(shares: Map<string, number>, total: number, rest?: string): { name: string; seconds: number }[] {
  const sum = [...shares.values()].reduce((a, b) => a + b, 0) / 1000;
  const factor = sum > total ? total / sum : 1;
  const list = [...shares].map(([name, millis]) => ({ name, seconds: (millis / 1000) * factor }));
  if (rest && sum < total) {
    const existing = list.find((l) => l.name === rest);
    if (existing) existing.seconds += total - sum;
    else list.push({ name: rest, seconds: total - sum });
  }
  return list;
}

const seconds = (m: Map<string, number>) => [...m].map(([name, millis]) => ({ name, seconds: millis / 1000 }));

export interface WakaUser {
  id: string;
  timezone: string;
}

/** One period's figures in WakaTime's shapes. */
export interface Figures {
  grand_total: { digital: string; hours: number; minutes: number; text: string; total_seconds: number } & AiFigures;
  categories: WakaDuration[];
  languages: WakaDuration[];
  editors: WakaDuration[];
  projects: WakaDuration[];
  operating_systems: WakaDuration[];
  machines: (WakaDuration & { machine_name_id: string })[];
}

/**
 * The owner's figures from `from` to `to` (local dates), all together or per date, as the
 * dashboard shows them (every hour capped at 3600 s): totals, languages, editors, projects, and
 * from the buckets over all history categories (as WakaTime names them), operating systems and
 * machines (those of buckets stored before they were kept are left out), with the AI and human
 * line changes, what AI agents reported and the figures per AI model in `grand_total`. With `project` or `language`, the figures of that project or
 * language alone (a hidden project's name left out of the projects, as everywhere but the owner's
 * project list).
 */
export async function figures(
  db: Db,
  user: WakaUser,
  from: string,
  to: string,
  per: 'range' | 'day',
  /** `project`, `language`: that project's or language's figures alone. `days`: the day totals of the span, when the caller read them already (stats). */
  given: BucketFilter & { days?: Awaited<ReturnType<typeof dayTotals>> } = {},
): Promise<Map<string, Figures>> {
  const { project, language } = given;
  const filtered = project !== undefined || language !== undefined;
  const scope = { userId: user.id };
  // Dates before the plan's window of history are answered, with nothing in them (lib/plans/history.ts).
  const shown = await userSpan(db, user.id, from, to, localDateHour(user.timezone).date);
  const [shares, models, whole] = await Promise.all([
    shown.from <= shown.to ? bucketShares(db, user, shown.from, shown.to, per, { project, language }) : noShares(),
    shown.from <= shown.to && !filtered ? modelShares(db, user, shown.from, shown.to, per) : new Map<string, ModelFigures[]>(),
    // The whole account: from the rollups, which hold the capped totals and every language and editor.
    !filtered
      ? Promise.all([
          given.days ?? dayTotals(db, scope, shown.from, shown.to),
          dimensionTotals(db, scope, 'language', shown.from, shown.to, per),
          dimensionTotals(db, scope, 'editor', shown.from, shown.to, per),
          projectTotals(db, user.id, shown.from, shown.to, per),
        ])
      : null,
  ]);
  let totals = shares.totals;
  let [byLanguage, byEditor, byProject] = [shares.languages, shares.editors, new Grouped()];
  if (whole) {
    const [days, languages, editors, projects] = whole;
    totals = new Map();
    for (const d of days) {
      const period = per === 'day' ? d.date : '';
      totals.set(period, (totals.get(period) ?? 0) + d.millis);
    }
    [byLanguage, byEditor, byProject] = [Grouped.from(languages), Grouped.from(editors), Grouped.from(projects)];
  } else if (project !== undefined) {
    for (const [period, millis] of totals) byProject.add(period, project, millis);
  } else {
    const hidden = new Set(await hiddenNames(db, user.id));
    for (const [period, names] of shares.projects.byPeriod) for (const [name, millis] of names) if (!hidden.has(name)) byProject.add(period, name, millis);
  }
  const periods = per === 'day' ? eachDay(from, to) : [''];
  return new Map(
    periods.map((period) => {
      const total = Math.round((totals.get(period) ?? 0) / 1000);
      const grand = duration('', total, total);
      return [
        period,
        {
          grand_total: {
            digital: grand.digital,
            hours: grand.hours,
            minutes: grand.minutes,
            text: grand.text,
            total_seconds: grand.total_seconds,
            ...(shares.lines.get(period) ?? NO_LINES),
            ai_model_breakdown: models.get(period) ?? [],
          },
          categories: durations(scaled(shares.categories.of(period), total, categoryName('coding')), total),
          languages: durations(seconds(byLanguage.of(period)), total),
          editors: durations(seconds(byEditor.of(period)), total),
          projects: durations(seconds(byProject.of(period)), total),
          operating_systems: durations(scaled(shares.systems.of(period), total), total),
          machines: durations(scaled(shares.machines.of(period), total), total).map((m) => ({ ...m, machine_name_id: machineId(user.id, m.name) })),
        },
      ];
    }),
  );
}

/** Today's figures, for the editor's status bar (wakatime-cli --today). */
export async function statusBarToday(db: Db, user: WakaUser) {
  const today = localDateHour(user.timezone).date;
  const found = (await figures(db, user, today, today, 'range')).get('')!;
  return { ...found, range: { date: today, text: 'Today', timezone: user.timezone } };
}
