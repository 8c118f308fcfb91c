import type { z } from 'zod';
import { OWN_FIGURES_SCOPES } from '../auth/account';
import type { ErrorCode } from '../http/errors';
import { queryParameters } from '../http/query';
import {
  createGoalSchema,
  goalListSchema,
  goalSchema,
  insightsQuerySchema,
  insightsSchema,
  MAX_GOALS_PER_USER,
  timelineQuerySchema,
  timelineSchema,
  updateGoalSchema,
  wakaGoalAnswerSchema,
  wakaGoalListSchema,
} from '../figures/schemas';
import { ok, jsonBody, sessionOperation, type Operation } from './operations';
import { wakatimeAt, wakatimeRead } from './wakatime';
import { MAX_SEGMENTS } from '../figures/timeline';
import { yearSchema } from '../stats/year-schemas';

// The owner's own figures in openapi.json: timeline, insights and goals (lib/figures/), and the
// goals in WakaTime's shape.

export const figuresRoots: z.ZodType[] = [timelineSchema, insightsSchema, yearSchema, createGoalSchema, updateGoalSchema, goalSchema, goalListSchema, wakaGoalListSchema, wakaGoalAnswerSchema];

const ownOperation = (summary: string, description: string, responses: Record<string, unknown>, notes: Partial<Record<ErrorCode, string>> = {}, extra: { body?: z.ZodType; parameters?: unknown[] } = {}): Operation =>
  sessionOperation(summary, description, responses, notes, { ...extra, scope: OWN_FIGURES_SCOPES, lead: "The owner's own figures, private ones included: with" });

const goalRules = `Periods are the owner's local dates and ISO weeks (Monday first). A goal counts coding time (each hour capped at 3600 s; a language's or project's share of an hour over the cap scaled down in proportion), in its language and/or project when given (matched regardless of case). A goal may only name a language or project the owner has time in (any date, imports included), matched regardless of case and stored as the owner's time spells it; another is refused (422 naming \`language\` or \`project\`, code \`unknown_language\` or \`unknown_project\`). With \`ignore_weekends\`, a day goal's Saturdays and Sundays (in the owner's timezone) are neither met nor missed (on one, \`progress.ignored\` is true and \`done\` false) and its streak steps over them; a week goal counts no time on them. Every past period is judged too, so a new goal can already have a streak. At most ${MAX_GOALS_PER_USER} goals a user.`;

const hiddenGoalRule =
  'The session and an `account` token read each goal as stored. To a `stats` key no goal names a hidden project: a goal on one has `project` null and the title made from the goal, "a hidden project" in place of the name; that made-up title also stands in for the owner\'s own title there, and for an own title that holds a hidden name.';

const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const yearParameter = { name: 'year', in: 'path', required: true, description: 'A year, four digits (YYYY), from 1970 on.', schema: { type: 'string', pattern: '^\\d{4}$' } };

export function figuresPaths(): Record<string, unknown> {
  return {
    '/me/timeline': {
      get: ownOperation(
        'When I coded on a day',
        "Segments in time order; `start`/`end` are ISO 8601 with the owner's offset at that moment (a daylight-saving day shows two offsets). From heartbeats while they are kept (14 days): a run of heartbeats of one project, language and editor, each credited up to the next, is one segment, exact to the second. From hourly buckets otherwise (the sync routes, imports, and heartbeats no longer kept): a bucket's segment spans its whole local hour (an hour the clock skipped is drawn as the hour after the jump; a repeated hour spans both) and may overlap others. Heartbeat time is also in the buckets, so on a day with both a bucket shows only what the heartbeats to its hour and key do not explain; each hour counts at most 3600 s, the buckets' part scaled down to fit, so the segments' seconds add up to the day's total. `project` and `editor` are null when none was sent." +
          ` At most ${MAX_SEGMENTS} heartbeat segments (one every 9 seconds of the day): a day that switches more often draws its first ones, \`truncated: true\`.`,
        { '200': ok(timelineSchema) },
        { invalid_query: '`date` missing or not a real date YYYY-MM-DD.' },
        { parameters: queryParameters(timelineQuerySchema) },
      ),
    },
    '/me/insights': {
      get: ownOperation(
        'My insights over a range',
        "Over `range` (default 7d, ending today in the owner's timezone) or `from`/`to` (at most 366 days; `all` starts at the first day with data). Each hour is capped at 3600 s. `daily_average_seconds` is the total over the days with any coding time (as WakaTime's daily average); `weekdays` averages each weekday over every date of it in the range, days without time included; `hours` sums each local hour of the day; `best_day` is the day with most time (the earliest of equals). `streak` ignores the range: runs of consecutive days with any time, `current_days` the run ending today or yesterday (0 otherwise), `longest_days` the longest ever.",
        { '200': ok(insightsSchema) },
        { invalid_query: 'an unknown range, a bad date, `from` without `to`, or a span over 366 days; `errors` names it.' },
        { parameters: queryParameters(insightsQuerySchema) },
      ),
    },
    '/me/years/{year}': {
      get: ownOperation(
        'My year in code',
        "The owner's local calendar year (1 January to 31 December in their timezone; the current year up to today), from every write path's time, imports included, each hour capped at 3600 s, cut to the plan's window of history. `by_weekday` and `by_month` are sums; `daily_average` is over the days coded; the top lists hold at most 5 names each, their `percent` the share of the year's total. A past year without time answers its empty figures; a year after the owner's current one is a 404. The public year page and its share image (`/u/{handle}/year/{year}` and `.../card.png`) show these figures only for a public profile, each part only under its sharing setting: languages with share_languages, editors with share_editors, AI-assisted coding with share_ai, projects and categories never.",
        { '200': ok(yearSchema) },
        { invalid_query: '`year` not four digits, or before 1970; `errors` names it.', not_found: 'a year that has not begun in the owner\'s timezone.' },
        { parameters: [yearParameter] },
      ),
    },
    '/me/goals': {
      get: ownOperation('My goals', `Each with the current period's progress and its streak. ${goalRules} ${hiddenGoalRule}`, { '200': ok(goalListSchema) }),
      post: sessionOperation(
        'Set a goal',
        `\`seconds\`: at least 60, at most the period (86400 a day, 604800 a week). \`title\` defaults to one made from the goal. ${goalRules} A ${MAX_GOALS_PER_USER + 1}st goal is refused (422 \`too_many_goals\`: delete one first).`,
        { '201': { ...ok(goalSchema), description: 'Created, with its progress. `Location` names it.', headers: { Location: { schema: { type: 'string' } } } } },
        { ...jsonBody, invalid_payload: 'naming the field and its rule; `too_many_goals` past the limit.' },
        { body: createGoalSchema },
      ),
    },
    '/me/goals/{id}': {
      patch: sessionOperation(
        'Change a goal',
        `Any of \`period\`, \`seconds\`, \`language\`, \`project\`, \`title\`, \`ignore_weekends\` (at least one); \`null\` clears \`language\`, \`project\` or \`title\`. The goal as it will be stored is checked as a new one is: \`seconds\` within the (new) period, a \`language\` or \`project\` given must be one the owner has time in. ${goalRules}`,
        { '200': { ...ok(goalSchema), description: 'Changed, with its progress and streak as now judged.' } },
        { ...jsonBody, invalid_payload: 'naming the field and its rule (`nothing_to_change` for an empty body).', not_found: 'no goal of mine with that id (another user\'s is not found either).' },
        { body: updateGoalSchema, parameters: [idParameter] },
      ),
      delete: sessionOperation('Drop a goal', 'Deleted at once.', { '204': { description: 'Deleted.' } }, { not_found: 'no goal of mine with that id (another user\'s is not found either).' }, { parameters: [idParameter] }),
    },
  };
}

const wakaGoalRules =
  "`chart_data` holds the last 7 periods (days or ISO weeks in the owner's timezone), oldest first, the last one the current period: `wakatime-cli --today-goal <id>` prints its `actual_seconds_text`. A goal that ignores weekends has `ignore_days: [\"saturday\", \"sunday\"]`: a day goal's chart_data lists Saturdays and Sundays with `range_status` `ignored` (so on a weekend the last entry is still today), and a week goal counts no time on them. `range_status` is `success` once the period's time reaches the goal, `pending` for the current period before that, `fail` for a past one, `ignored` for a day the goal ignores; the goal's `status` is its last entry's. No hidden project is named: a goal on one lists no `projects` and has the title made from the goal, \"a hidden project\" in place of the name; there, and where the owner's own title holds a hidden name, `custom_title` is null and `title` the made-up one.";

/** The WakaTime-compatible goal routes, under their own servers. */
export function wakatimeGoalPaths(): Record<string, unknown> {
  return wakatimeAt({
    '/users/{user}/goals': { get: wakatimeRead('Goals (WakaTime)', `Every goal of the owner. ${wakaGoalRules}`, wakaGoalListSchema) },
    '/users/{user}/goals/{id}': {
      get: wakatimeRead('One goal (WakaTime)', `One goal of the owner. ${wakaGoalRules}`, wakaGoalAnswerSchema, { not_found: 'no goal of the owner with that id.' }, [idParameter]),
    },
  });
}
