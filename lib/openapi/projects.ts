import type { z } from 'zod';
import type { ErrorCode } from '../http/errors';
import { queryParameters } from '../http/query';
import { hiddenProjectSchema, hideProjectSchema, NO_PROJECT, projectDaysQuery, projectDaysSchema, projectListSchema, projectRangeQuery, renamedProjectSchema, renameProjectSchema, splitProjectAnswerSchema, splitProjectSchema } from '../projects/schemas';
import { accountOperation, jsonBody, ok, type Operation } from './operations';

// The operations of the owner's own project figures in openapi.json (lib/projects/).

/** The schemas these operations name (documentRoots). */
export const projectRoots = (): z.ZodType[] => [projectListSchema, projectDaysSchema, renameProjectSchema, renamedProjectSchema, splitProjectSchema, splitProjectAnswerSchema, hideProjectSchema, hiddenProjectSchema];

const nameParameter = {
  name: 'name',
  in: 'path',
  required: true,
  schema: { type: 'string', maxLength: 255 },
  description: `The project's name, percent-encoded; \`${NO_PROJECT}\` is the time without a project. A project with no time ever: 404.`,
};

const rangeRules =
  "`range` (7d, 30d, 365d or all; default 30d) ends today in the owner's timezone; or `from` and `to` (YYYY-MM-DD, inclusive, at most 366 days). Every hour of the owner counts at most 3600 s: a bucket of an hour over it is scaled down in proportion.";

/** An account operation of the owner's own figures: the session, or a token with `account` or `stats`. */
function ownOperation(summary: string, description: string, responses: Record<string, unknown>, notes: Partial<Record<ErrorCode, string>> = {}, body?: z.ZodType): Operation {
  const operation = accountOperation(summary, description, responses, { forbidden: 'the token has neither `account` nor `stats`, or a session change came from another site.', ...notes }, body);
  return {
    ...operation,
    description: (operation.description as string).replace('a token with the `account` scope', 'a token with the `account` or `stats` scope'),
    security: [{ session: [] }, { bearer: ['account'] }, { bearer: ['stats'] }],
  };
}

export function projectPaths(): Record<string, unknown> {
  return {
    '/me/projects': {
      get: {
        ...ownOperation(
          'My projects',
          `Each project with time in the range, the largest first, with its languages and editors and the last date of the range it had time; \`hidden\` lists the hidden projects, which only this list names (they are in \`projects\` too), to the owner: the session or an \`account\` token. A \`stats\` key reads the list as every other surface shows it: no hidden project and no \`hidden\`. ${rangeRules}`,
          { '200': ok(projectListSchema) },
          { invalid_query: 'a bad range, named in `errors`.' },
        ),
        parameters: queryParameters(projectRangeQuery),
      },
    },
    '/me/projects/{name}/days': {
      get: {
        ...ownOperation(
          "A project's days",
          `The project's time on each date of the range that has any, with its languages. With \`Accept: text/csv\` or \`format=csv\`: \`text/csv\` (a download), header \`date,project,seconds,hours\`, one row a day with time, hours with two decimals, RFC 4180 quoting; a project name starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return gets a leading \`'\` so that no spreadsheet runs it as a formula. ${rangeRules}`,
          {
            '200': {
              description: 'OK',
              content: { 'application/json': { schema: ok(projectDaysSchema).content['application/json'].schema }, 'text/csv': { schema: { type: 'string' } } },
            },
          },
          { invalid_query: 'a bad range or format, named in `errors`.', not_found: 'no project of mine of that name has any time, or, to a `stats` key, it is hidden.' },
        ),
        parameters: [nameParameter, ...queryParameters(projectDaysQuery)],
      },
    },
    '/me/projects/{name}/rename': {
      post: {
        ...accountOperation(
          'Rename a project',
          `Every figure of the project, past (buckets, heartbeats of the last 14 days, imported days) and future (heartbeats and buckets that still carry the old name, from plugins or imports), counts under the new name on every surface, at once. Renaming onto a project that has time merges the two (\`merged: true\`; the hour cap still holds). Renames chain: a to b, then b to c, sends a's later time to c; renaming back onto an old name makes it a name of its own again. Repeating a rename changes nothing (\`merged: false\`). Renaming \`${NO_PROJECT}\` moves the time recorded so far without a project; time that arrives later without one stays so. A hidden project stays hidden under its new name unless it merges into a project that has time (that one keeps its own setting). One transaction; the new name follows the rules of a project name in a bucket (at most 200 characters, trimmed, no control, invisible or text-direction characters).`,
          { '200': ok(renamedProjectSchema) },
          { ...jsonBody, invalid_payload: 'a bad `to`, named in `errors`.', not_found: 'no project of mine of that name.' },
          renameProjectSchema,
        ),
        parameters: [nameParameter],
      },
    },
    '/me/projects/{name}/split': {
      post: {
        ...accountOperation(
          'Split a merged project back out',
          `Undoes a merge (a rename onto \`{name}\` while it had time, \`merged: true\`): the time \`project\` had when it was merged, its heartbeats of the last 14 days, its imported days' credits, the goals that followed it and its hidden flag go back under its own name, and its name stops counting under \`{name}\`. What came under either name since the merge stays in \`{name}\` (it counted there, as the merge asked), except a heartbeat's credit that the merged heartbeats' successors changed, which goes back with them. A merge can be split until a later rename of either name; a second merge into \`{name}\` is split on its own. One transaction.`,
          { '200': ok(splitProjectAnswerSchema) },
          {
            ...jsonBody,
            invalid_payload: 'a bad `project`, named in `errors`.',
            not_found: 'no merge of `project` into `{name}` that can be split: never merged here, or a later rename of either name ended it.',
            merge_changed: 'an import has replaced one of the merged days since the merge.',
          },
          splitProjectSchema,
        ),
        parameters: [nameParameter],
      },
    },
    '/me/projects/{name}/hidden': {
      put: {
        ...accountOperation(
          'Hide a project, or show it again',
          'A hidden project\'s time still counts in every total, but its name shows on no surface but my project list as I read it (GET /me/projects with the session or an `account` token, and the dashboard\'s projects page; a `stats` key does not see it): the dashboard\'s project chart and the WakaTime-compatible reads (summaries, stats, status bar, projects) leave it out, its time counted in their totals only. Public pages show no project names at all. The data export keeps every name.',
          { '200': ok(hiddenProjectSchema) },
          { ...jsonBody, invalid_payload: 'a bad `hidden`, named in `errors`.', not_found: 'no project of mine of that name.' },
          hideProjectSchema,
        ),
        parameters: [nameParameter],
      },
    },
  };
}
