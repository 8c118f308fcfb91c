import { z } from 'zod';

// The answers of the WakaTime-compatible routes, in WakaTime's shapes: openapi.json lists them
// (lib/openapi/). The routes build them in ./summaries.ts, ./reads.ts and ./heartbeat-answers.ts.

export const wakaErrorSchema = z
  .object({ error: z.string() })
  .meta({ id: 'WakaTimeError', description: 'An error, in WakaTime\'s shape.', examples: [{ error: 'The token is unknown or revoked.' }] });

const heartbeatData = z.object({
  id: z.string(),
  type: z.string(),
  time: z.number(),
  category: z.string(),
  language: z.string(),
  project: z.string().nullable(),
});

export const heartbeatAnswerSchema = z.object({ data: heartbeatData }).meta({ id: 'WakaTimeHeartbeatAnswer' });

export const bulkAnswerSchema = z
  .object({
    responses: z.array(z.union([z.tuple([z.object({ data: heartbeatData }), z.literal(201)]), z.tuple([wakaErrorSchema, z.literal(400)])])),
  })
  .meta({ id: 'WakaTimeBulkAnswer', description: 'One entry per heartbeat, in order: `[{"data": ...}, 201]` or `[{"error": ...}, 400]`.' });

const duration = z.object({
  name: z.string(),
  total_seconds: z.number(),
  percent: z.number(),
  digital: z.string(),
  text: z.string(),
  hours: z.number().int(),
  minutes: z.number().int(),
  seconds: z.number().int(),
});

const grandTotal = z.object({ digital: z.string(), hours: z.number().int(), minutes: z.number().int(), text: z.string(), total_seconds: z.number() });

const figures = {
  grand_total: grandTotal,
  categories: z.array(duration),
  languages: z.array(duration),
  editors: z.array(duration),
  projects: z.array(duration),
  operating_systems: z.array(duration),
};

export const statusBarSchema = z
  .object({ data: z.object({ ...figures, range: z.object({ date: z.string(), text: z.string(), timezone: z.string() }) }) })
  .meta({ id: 'WakaTimeStatusBar' });

const total = z.object({ seconds: z.number(), text: z.string(), digital: z.string(), decimal: z.string() });

export const summariesSchema = z
  .object({
    data: z.array(
      z.object({
        ...figures,
        dependencies: z.array(z.unknown()),
        machines: z.array(z.unknown()),
        range: z.object({ date: z.string(), start: z.string(), end: z.string(), text: z.string(), timezone: z.string() }),
      }),
    ),
    cumulative_total: total,
    daily_average: z.object({ days_including_holidays: z.number().int(), seconds: z.number(), text: z.string() }).loose(),
    start: z.string(),
    end: z.string(),
  })
  .meta({ id: 'WakaTimeSummaries' });

export const statsSchema = z
  .object({
    data: z
      .object({
        ...figures,
        total_seconds: z.number(),
        human_readable_total: z.string(),
        daily_average: z.number(),
        human_readable_daily_average: z.string(),
        range: z.string(),
        start: z.string(),
        end: z.string(),
        timezone: z.string(),
        username: z.string(),
      })
      .loose(),
  })
  .meta({ id: 'WakaTimeStats' });

export const allTimeSchema = z
  .object({ data: z.object({ total_seconds: z.number(), text: z.string(), digital: z.string(), decimal: z.string(), is_up_to_date: z.boolean() }).loose() })
  .meta({ id: 'WakaTimeAllTime' });

export const wakaUserSchema = z
  .object({ data: z.object({ id: z.string(), username: z.string(), display_name: z.string(), timezone: z.string(), created_at: z.string() }).loose() })
  .meta({ id: 'WakaTimeUser' });

export const projectsSchema = z
  .object({ data: z.array(z.object({ id: z.string(), name: z.string(), last_heartbeat_at: z.string().nullable() })) })
  .meta({ id: 'WakaTimeProjects' });
