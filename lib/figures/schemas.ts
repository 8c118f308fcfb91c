import { z } from 'zod';
import { isCalendarDate } from '../dates';
import { checkRange, rangeFields, rangeQuery } from '../stats/range';
import { checkedText } from '../text';

// The owner's own figures (/me/timeline, /me/insights, /me/goals): query parameters, bodies and
// answers, which also write openapi.json.

export const timelineQuerySchema = z.object({
  date: z
    .string({ error: 'date is required: YYYY-MM-DD' })
    .refine(isCalendarDate, 'must be a real date YYYY-MM-DD')
    .meta({ format: 'date', description: "The day to draw, in the owner's timezone." }),
});

const segment = z
  .object({
    start: z.string().meta({ description: 'ISO 8601 with the offset in force at that moment.' }),
    end: z.string(),
    project: z.string().nullable(),
    language: z.string(),
    editor: z.string().nullable(),
    seconds: z.number().int(),
  })
  .meta({ id: 'TimelineSegment' });

export const timelineSchema = z
  .object({
    date: z.string(),
    timezone: z.string(),
    segments: z.array(segment),
    truncated: z.literal(true).optional().meta({ description: 'Present when the day switched between projects, languages or editors so often that only its first heartbeat segments are drawn (the operation says how many); absent otherwise.' }),
  })
  .meta({ id: 'Timeline' });

export const insightsQuerySchema = z
  .object(rangeFields('7d'))
  .superRefine(checkRange)
  .transform((q) => rangeQuery(q, '7d'));

export const insightsSchema = z
  .object({
    range: z.object({ name: z.string(), from: z.string(), to: z.string() }),
    total_seconds: z.number().int(),
    daily_average_seconds: z.number().int().meta({ description: 'Total over the days of the range with any coding time (as WakaTime counts it); 0 without any.' }),
    best_day: z.object({ date: z.string(), seconds: z.number().int() }).nullable().meta({ description: 'The day with the most time (the earliest of equals); null without any.' }),
    weekdays: z
      .array(z.object({ weekday: z.number().int().min(0).max(6), average_seconds: z.number().int() }))
      .meta({ description: '7 entries, Monday (0) first: the time on that weekday over every such date of the range, days without time included.' }),
    hours: z.array(z.object({ hour: z.number().int().min(0).max(23), seconds: z.number().int() })).meta({ description: '24 entries: the time in each local hour of the day over the range; they add up to total_seconds.' }),
    streak: z
      .object({ current_days: z.number().int(), longest_days: z.number().int() })
      .meta({ description: 'Consecutive days with any coding time, over all time whatever the range: current ends today or yesterday (0 otherwise), longest is the longest run ever.' }),
  })
  .meta({ id: 'Insights' });

export const MAX_GOALS_PER_USER = 20;
export const goalPeriods = ['day', 'week'] as const;
export type GoalPeriod = (typeof goalPeriods)[number];
/** The most a goal may ask: the whole period. */
export const PERIOD_SECONDS: Record<GoalPeriod, number> = { day: 86_400, week: 604_800 };

const goalFields = {
  period: z.enum(goalPeriods, 'must be "day" or "week"'),
  seconds: z.number().int('must be a whole number of seconds').min(60, 'must be at least 60 seconds'),
  language: checkedText(z.string().trim().min(1).max(64), 'language').meta({ description: 'One you have time in (matched regardless of case; stored as your time spells it).' }),
  project: checkedText(z.string().trim().min(1).max(200), 'project').meta({ description: 'One you have time on (matched regardless of case; stored as your time spells it).' }),
  title: checkedText(z.string().trim().min(1).max(100), 'title'),
  ignore_weekends: z.boolean('must be true or false').meta({
    description: 'A day goal: Saturdays and Sundays (in your timezone) are neither met nor missed and break no streak. A week goal: time on them does not count.',
  }),
};

/** What is wrong with a goal's seconds for its period, if anything (a PATCH of either field alone is checked on the goal as it will be stored). */
export function secondsProblem(g: { period: GoalPeriod; seconds: number }): string | null {
  return g.seconds > PERIOD_SECONDS[g.period] ? `a ${g.period} goal is at most ${PERIOD_SECONDS[g.period]} seconds` : null;
}

export const createGoalSchema = z
  .object({
    period: goalFields.period,
    seconds: goalFields.seconds,
    language: goalFields.language.optional(),
    project: goalFields.project.optional(),
    title: goalFields.title.optional(),
    ignore_weekends: goalFields.ignore_weekends.default(false),
  })
  .superRefine((g, ctx) => {
    const problem = secondsProblem(g);
    if (problem) ctx.addIssue({ code: 'too_big', origin: 'number', maximum: PERIOD_SECONDS[g.period], path: ['seconds'], message: problem });
  })
  .meta({ id: 'CreateGoal', examples: [{ period: 'day', seconds: 3600, language: 'TypeScript', ignore_weekends: true }] });

/** What createGoal takes: ignore_weekends may be left out (false). */
export type CreateGoalInput = z.input<typeof createGoalSchema>;

/** PATCH /me/goals/{id}: any of the fields, null clearing language, project or title; the result is checked as a new goal is. */
export const updateGoalSchema = z
  .object({
    period: goalFields.period.optional(),
    seconds: goalFields.seconds.optional(),
    language: goalFields.language.nullable().optional(),
    project: goalFields.project.nullable().optional(),
    title: goalFields.title.nullable().optional(),
    ignore_weekends: goalFields.ignore_weekends.optional(),
  })
  .refine((g) => Object.values(g).some((v) => v !== undefined), { message: 'give at least one of period, seconds, language, project, title, ignore_weekends', params: { code: 'nothing_to_change' } })
  .meta({ id: 'UpdateGoal', examples: [{ seconds: 5400, ignore_weekends: true }, { language: null }] });

export type UpdateGoalInput = z.infer<typeof updateGoalSchema>;

export const goalSchema = z
  .object({
    id: z.uuid(),
    period: z.enum(goalPeriods),
    seconds: z.number().int(),
    language: z.string().nullable(),
    project: z.string().nullable(),
    title: z.string().meta({ description: 'As given, or made from the goal ("Code 1 hr per day in Go").' }),
    ignore_weekends: z.boolean().meta({ description: 'A day goal: Saturdays and Sundays are neither met nor missed and break no streak. A week goal: time on them does not count.' }),
    progress: z.object({
      period_start: z.string().meta({ description: 'The current period: today, or the Monday of this ISO week, in the owner\'s timezone.' }),
      actual_seconds: z.number().int(),
      done: z.boolean(),
      ignored: z.boolean().meta({ description: 'True on a Saturday or Sunday for a day goal that ignores weekends: today is neither met nor missed (`done` is false).' }),
    }),
    streak_periods: z.number().int().meta({ description: 'Consecutive periods that met the goal, ending with the current one once it is met, else with the one before.' }),
  })
  .meta({ id: 'Goal' });

export const goalListSchema = z.object({ goals: z.array(goalSchema) }).meta({ id: 'GoalList' });

// WakaTime's goal shape (GET /api/wakatime/v1/users/current/goals), what wakatime-cli --today-goal reads.

export const rangeStatuses = ['success', 'fail', 'pending', 'ignored'] as const;

const chartEntry = z.object({
  range: z.object({
    date: z.string(),
    start: z.string(),
    end: z.string(),
    text: z.string(),
    timezone: z.string(),
  }),
  actual_seconds: z.number(),
  actual_seconds_text: z.string(),
  goal_seconds: z.number().int(),
  goal_seconds_text: z.string(),
  range_status: z.enum(rangeStatuses),
  range_status_reason: z.string(),
});

export const wakaGoalSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    custom_title: z.string().nullable(),
    delta: z.enum(goalPeriods),
    seconds: z.number().int(),
    status: z.enum(rangeStatuses).meta({ description: 'The last chart_data entry\'s range_status: the current period\'s (`ignored` on a weekend day the goal ignores).' }),
    type: z.literal('coding'),
    languages: z.array(z.string()),
    projects: z.array(z.string()),
    editors: z.array(z.string()),
    is_enabled: z.boolean(),
    is_inverse: z.boolean(),
    is_snoozed: z.boolean(),
    ignore_zero_days: z.boolean(),
    ignore_days: z.array(z.string()).meta({ description: '["saturday", "sunday"] for a goal that ignores weekends, else empty.' }),
    range_text: z.string(),
    created_at: z.string(),
    chart_data: z.array(chartEntry).meta({ description: 'The last 7 periods, oldest first; the last is the current one.' }),
  })
  .meta({ id: 'WakaTimeGoal' });

export const wakaGoalListSchema = z
  .object({ data: z.array(wakaGoalSchema), total: z.number().int(), total_pages: z.number().int() })
  .meta({ id: 'WakaTimeGoalList' });
export const wakaGoalAnswerSchema = z.object({ data: wakaGoalSchema }).meta({ id: 'WakaTimeGoalAnswer' });
