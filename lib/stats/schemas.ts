import { z } from 'zod';
import { wholeNumber } from '../http/query';
import { checkRange, rangeFields, rangeQuery, type RangeName } from './range';

// The public charts' query parameters (parsed with parseQuery) and the shapes of their answers.

const user = z
  .string()
  .refine((v) => v.trim() !== '', 'give a handle or a UUID, or leave it out for site-wide figures')
  .optional()
  .meta({ description: "A user's handle or UUID. Omitted: site-wide figures over users who take part in community statistics." });

function rangedChartQuery(fallback: RangeName) {
  return z
    .object({ user, ...rangeFields(fallback) })
    .superRefine(checkRange)
    .transform((q) => ({ user: q.user, range: rangeQuery(q, fallback) }));
}

export const chartQueries = {
  time: rangedChartQuery('7d'),
  language: rangedChartQuery('7d'),
  hitmaps: rangedChartQuery('365d'),
  weekly: z.object({ user, weeks: wholeNumber(1, 104, 12).meta({ description: 'How many ISO weeks, the current one last.' }) }),
};

const publicUser = z.object({ id: z.uuid(), handle: z.string(), display_name: z.string() }).meta({ id: 'PublicUser' });

const common = {
  scope: z.enum(['user', 'global']),
  user: publicUser.nullable(),
  range: z.object({ name: z.string(), from: z.string(), to: z.string() }).meta({ id: 'Range' }),
  suppressed: z.boolean().meta({ description: 'Site-wide only: the whole answer is withheld because fewer than PUBLIC_MIN_USERS users are behind it.' }),
};

const named = z.object({ name: z.string(), seconds: z.number().int(), percent: z.number() }).meta({ id: 'NamedSeconds' });

export const timeChartSchema = z
  .object({
    ...common,
    total_seconds: z.number().int(),
    daily_average_seconds: z.number().int(),
    days: z.array(z.object({ date: z.string(), seconds: z.number().int() })),
    editors: z.array(named).meta({ description: 'Empty unless the owner shares editors. Time from an editor no plugin named is counted in "Other".' }),
  })
  .meta({ id: 'TimeChart' });

export const languageChartSchema = z
  .object({ ...common, total_seconds: z.number().int(), languages: z.array(named).meta({ description: 'Largest first; empty unless shared.' }) })
  .meta({ id: 'LanguageChart' });

export const hitmapChartSchema = z
  .object({
    ...common,
    days: z.array(z.object({ date: z.string(), seconds: z.number().int(), level: z.number().int().min(0).max(4) })),
    weekday_hours: z.array(z.array(z.number().int())).meta({ description: '7 rows, Monday first, of 24 hourly totals in seconds.' }),
    max_seconds: z.number().int(),
  })
  .meta({ id: 'HitmapChart' });

export const weeklyChartSchema = z
  .object({
    ...common,
    weeks: z.array(z.object({ week_start: z.string(), seconds: z.number().int(), top_language: z.string().nullable() })),
    change_percent: z.number().nullable().meta({ description: 'Last complete week against the one before; null when that one is 0.' }),
  })
  .meta({ id: 'WeeklyChart' });


export const leaderboardSchema = z
  .object({
    generated_at: z.string(),
    range: common.range,
    language: z.string().nullable(),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    entries: z.array(
      z.object({
        rank: z.number().int(),
        user: publicUser,
        total_seconds: z.number().int(),
        daily_average_seconds: z.number().int(),
        languages: z.array(z.object({ name: z.string(), seconds: z.number().int() })),
      }),
    ),
  })
  .meta({ id: 'Leaderboard' });
