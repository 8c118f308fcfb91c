import { z } from 'zod';
import { invalidQuery } from '../http/problem';
import { FIRST_YEAR, TOP_ENTRIES } from './year';

// The year in code (GET /me/years/{year}): the path's year and the answer, which also write
// openapi.json.

/** The `{year}` path segment as a year: four digits from FIRST_YEAR on; otherwise 400 naming `year`. */
export function yearParam(segment: string): number {
  const rule = `must be a year of four digits from ${FIRST_YEAR} on`;
  if (!/^\d{4}$/.test(segment) || Number(segment) < FIRST_YEAR) throw invalidQuery('year', rule);
  return Number(segment);
}

const entry = z
  .object({
    name: z.string(),
    total_seconds: z.number().int(),
    percent: z.number().meta({ description: "Share of the year's total_seconds, one decimal." }),
  })
  .meta({ id: 'YearEntry' });

const entries = (what: string) => z.array(entry).max(TOP_ENTRIES).meta({ description: `At most ${TOP_ENTRIES} ${what}, most time first (names of equal time alphabetically).` });

export const yearSchema = z
  .object({
    year: z.number().int(),
    total_seconds: z.number().int(),
    days_coded: z.number().int().meta({ description: 'Local dates of the year with any coding time.' }),
    daily_average: z.number().int().meta({ description: 'total_seconds over days_coded (as WakaTime counts a daily average); 0 without any.' }),
    longest_streak: z
      .object({ days: z.number().int(), start: z.string().nullable(), end: z.string().nullable() })
      .meta({ description: 'The longest run of consecutive dates with time within the year (the earliest of equals); start and end null without any.' }),
    busiest_day: z.object({ date: z.string(), total_seconds: z.number().int() }).nullable().meta({ description: 'The date with most time (the earliest of equals); null without any.' }),
    busiest_hour: z.number().int().min(0).max(23).nullable().meta({ description: "The hour of the day (0-23, the owner's timezone) with most time over the year; null without any." }),
    by_weekday: z.array(z.number().int()).length(7).meta({ description: 'Seconds per ISO weekday over the year, Monday first.' }),
    by_month: z.array(z.number().int()).length(12).meta({ description: 'Seconds per month, January first.' }),
    top_languages: entries('languages'),
    top_projects: entries('projects (hidden projects left out; `(no project)` for time sent without one)'),
    top_editors: entries('editors (`Unknown` for time no plugin named)'),
    top_categories: entries('categories, named as WakaTime names them'),
    ai: z
      .object({
        seconds: z.number().int().meta({ description: 'AI-assisted coding time (an AI agent\'s, or in the AI Coding category).' }),
        share: z.number().min(0).max(1).meta({ description: 'seconds over total_seconds, from 0 to 1, three decimals.' }),
        additions: z.number().int().meta({ description: 'Lines added by AI agents.' }),
        human_additions: z.number().int().meta({ description: 'Lines added by hand.' }),
      })
      .nullable()
      .meta({ description: 'Null when the year holds no AI-assisted time and no AI line additions.' }),
    percentile: z
      .number()
      .int()
      .min(0)
      .max(99)
      .nullable()
      .meta({
        description:
          "\"More than N % of this install's coders\", an estimate from the site-wide figures only (their released, noised day cells: sums and head counts, never another user's row): the share of coder-days below the owner's daily_average, a coder-day's time taken as exponentially distributed around the site-wide mean of the year. Null when no day of the year had PUBLIC_MIN_USERS people coding (no site-wide figure of it is published), or without time.",
      }),
  })
  .meta({ id: 'Year' });
