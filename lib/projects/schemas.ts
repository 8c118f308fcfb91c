import { z } from 'zod';
import { checkedText } from '../text';
import { checkRange, ownRangeNames, rangeFields, rangeQuery } from '../stats/range';

// The project routes' query parameters, bodies and answers (/me/projects...): they parse the
// requests and write openapi.json.

/** Time without a project (stored as ''), as every list of projects names it. */
export const NO_PROJECT = '(no project)';
/** The longest project name a write may store (the sync routes'; heartbeats allow 255, trimmed). */
export const PROJECT_NAME_MAX = 200;
/** The longest `{name}` that can name a stored project (a heartbeat's project). */
export const PROJECT_PATH_MAX = 255;

export const projectRangeQuery = z
  .object({ ...rangeFields('30d', ownRangeNames) })
  .superRefine(checkRange)
  .transform((q) => rangeQuery(q, '30d'));

export const projectDaysQuery = z
  .object({
    ...rangeFields('30d', ownRangeNames),
    format: z.enum(['json', 'csv'], 'must be json or csv').optional().meta({ description: 'csv: the same as `Accept: text/csv`.' }),
  })
  .superRefine(checkRange)
  .transform((q) => ({ range: rangeQuery(q, '30d'), format: q.format }));

const named = z.object({ name: z.string(), seconds: z.number().int() }).meta({ id: 'ProjectShare' });

export const projectListSchema = z
  .object({
    projects: z.array(
      z
        .object({
          name: z.string().meta({ description: `The project; time without one is "${NO_PROJECT}".` }),
          seconds: z.number().int().meta({ description: 'Time in the range, every hour of the owner capped at 3600 s.' }),
          languages: z.array(named).meta({ description: 'Largest first.' }),
          editors: z.array(named).meta({ description: 'Largest first; an editor the plugin did not name is "Unknown".' }),
          last_active: z.string().meta({ format: 'date', description: 'The last date of the range with time on the project (the owner\'s timezone).' }),
        })
        .meta({ id: 'ProjectFigures' }),
    ),
    hidden: z
      .array(z.string())
      .optional()
      .meta({ description: 'The hidden projects (all of them, whatever the range), to the owner only: the session or an `account` token. A `stats` key gets no such list, and no hidden project in `projects`.' }),
  })
  .meta({ id: 'ProjectList' });

export const projectDaysSchema = z
  .object({
    project: z.string(),
    days: z.array(z.object({ date: z.string().meta({ format: 'date' }), seconds: z.number().int(), languages: z.array(named) })).meta({
      description: 'Each date of the range with time on the project, oldest first.',
    }),
  })
  .meta({ id: 'ProjectDays' });

export const renameProjectSchema = z
  .object({
    to: checkedText(
      z
        .string({ error: 'to must be a string' })
        .trim()
        .min(1, { error: 'to must not be empty' })
        .max(PROJECT_NAME_MAX, { error: `to must be at most ${PROJECT_NAME_MAX} characters` }),
      'to',
    ).meta({ description: `The new name; "${NO_PROJECT}" moves the time to no project.` }),
  })
  .meta({ id: 'RenameProject' });

export const renamedProjectSchema = z
  .object({ project: z.string(), merged: z.boolean().meta({ description: 'Whether a project of that name already had time (the two are one now).' }) })
  .meta({ id: 'RenamedProject' });

export const splitProjectSchema = z
  .object({
    project: checkedText(
      z
        .string({ error: 'project must be a string' })
        .min(1, { error: 'project must not be empty' })
        .max(PROJECT_PATH_MAX, { error: `project must be at most ${PROJECT_PATH_MAX} characters` }),
      'project',
    ).meta({ description: 'The project that was merged into `{name}`, as the rename that merged it named it.' }),
  })
  .meta({ id: 'SplitProject' });

export const splitProjectAnswerSchema = z
  .object({
    project: z.string().meta({ description: 'The project split back out: its time before the merge counts under it again.' }),
    into: z.string().meta({ description: 'The project it had been merged into, which keeps its own time and what came under either name since.' }),
  })
  .meta({ id: 'SplitProjectAnswer' });

export const hideProjectSchema = z.object({ hidden: z.boolean({ error: 'hidden must be true or false' }) }).meta({ id: 'HideProject' });

export const hiddenProjectSchema = z.object({ project: z.string(), hidden: z.boolean() }).meta({ id: 'HiddenProject' });
