import type { z } from 'zod';
import { OWN_FIGURES_SCOPES } from '../auth/account';
import { queryParameters } from '../http/query';
import {
  boardListSchema,
  boardQuerySchema,
  boardSchema,
  createBoardSchema,
  createdBoardSchema,
  inviteCodeSchema,
  joinBoardSchema,
  joinedBoardSchema,
  MAX_BOARD_NAME,
  wakaBoardListSchema,
  wakaBoardSchema,
} from '../leaderboards/schemas';
import { jsonBody, ok, sessionOperation } from './operations';
import { wakatimeAt, wakatimeRead } from './wakatime';

// Private leaderboards in openapi.json (lib/leaderboards/), ours and in WakaTime's shape.

export const leaderboardRoots: z.ZodType[] = [createBoardSchema, createdBoardSchema, joinBoardSchema, joinedBoardSchema, inviteCodeSchema, boardListSchema, boardSchema, wakaBoardListSchema, wakaBoardSchema];

const privacy =
  'Nothing of a private leaderboard is public: only its members read it, and to anyone else (an unknown id, a malformed one, or a board one is not on) it is the same 404. Joining is consent to show one\'s coding total (with handle and display name) to the board\'s other members, whatever one\'s profile and public leaderboard settings; a language filter ranks only members whose public profile shows their languages (settings `profile_public` and `share_languages`), and only their languages are listed, so a board never shows a language a member keeps private. Leaving takes one off the board at once, and a change of `share_languages` shows in the next read: nothing is cached.';

const figures =
  "Ranked as the public leaderboard: `range` 7d or 30d (default 7d) is the last 7 or 30 UTC dates, today included; every hour of a member counts at most 3600 s; members with equal time share a rank and the next rank skips (1, 1, 3), equals listed by user id; only members with time in the range appear (with `language`: time in that language, matched ignoring case with every spelling counted, the answer's `language` being the spelling most of them use).";

const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The board\'s id (a UUID).' };
const notMember = { not_found: 'no board with that id that I am a member of (unknown and not mine look the same).' };

export function leaderboardPaths(): Record<string, unknown> {
  return {
    '/leaderboards': {
      get: sessionOperation('My private leaderboards', `Every board I am a member of, the newest first; \`invite_code\` only on those I own. ${privacy}`, { '200': ok(boardListSchema) }, {}, { scope: OWN_FIGURES_SCOPES }),
      post: sessionOperation(
        'Make a private leaderboard',
        `\`name\`: 1 to ${MAX_BOARD_NAME} characters after trimming, no control, invisible or text-direction characters. I become its owner and first member. Share \`invite_code\` (or the dashboard link \`/dashboard/leaderboards/join?code=...\`) to let others join. ${privacy}`,
        { '201': { ...ok(createdBoardSchema), description: 'Created. `Location` names it.', headers: { Location: { schema: { type: 'string' } } } } },
        { ...jsonBody, invalid_payload: 'a bad `name`, named in `errors`.' },
        { body: createBoardSchema },
      ),
    },
    '/leaderboards/join': {
      post: sessionOperation(
        'Join a private leaderboard by invite code',
        `Joining a board I am on already changes nothing. ${privacy}`,
        { '200': ok(joinedBoardSchema) },
        { ...jsonBody, invalid_payload: 'a `code` that is empty, too long or has control characters, named in `errors`.', not_found: 'no board has that `code` (or it was replaced); `errors` names `code`.' },
        { body: joinBoardSchema },
      ),
    },
    '/leaderboards/{id}': {
      get: sessionOperation(`A private leaderboard's ranking`, `${figures} ${privacy}`, { '200': ok(boardSchema) }, { ...notMember, invalid_query: 'a bad `range` or `language`, named in `errors`.' }, {
        parameters: [idParameter, ...queryParameters(boardQuerySchema)],
        scope: OWN_FIGURES_SCOPES,
      }),
      delete: sessionOperation('Delete a private leaderboard', 'The owner\'s only: the board and its memberships are gone at once.', { '204': { description: 'Deleted.' } }, { ...notMember, forbidden: 'I am a member but not the owner, or the token lacks `account`.' }, { parameters: [idParameter] }),
    },
    '/leaderboards/{id}/members/me': {
      delete: sessionOperation(
        'Leave a private leaderboard',
        'I am off the board at once: the next read of any member no longer shows me. The owner, who alone replaces the code or deletes the board, leaves only a board no one else is on (it is then deleted); otherwise 409 `last_owner`: delete it instead. When an owner\'s account is deleted, their boards pass to their longest-standing other member.',
        { '204': { description: 'Left.' } },
        { ...notMember, last_owner: 'I own the board and others are on it.' },
        { parameters: [idParameter] },
      ),
    },
    '/leaderboards/{id}/invite_code': {
      post: sessionOperation(
        'Replace the invite code',
        'The owner\'s only. The old code joins nobody from now on; members stay.',
        { '200': ok(inviteCodeSchema) },
        { ...notMember, forbidden: 'I am a member but not the owner, or the token lacks `account`.' },
        { parameters: [idParameter] },
      ),
    },
    ...wakatimeAt({
      '/users/{user}/leaderboards': {
        get: wakatimeRead('My private leaderboards (WakaTime)', `The boards the key owner is a member of, one page. \`time_range\` is what a board shows without \`range\`. ${privacy}`, wakaBoardListSchema),
      },
      '/users/{user}/leaderboards/{id}': {
        get: wakatimeRead(
          'A private leaderboard (WakaTime)',
          `The same ranking in WakaTime's shape, one page with every member with time (\`page\` is ignored). \`range\`: 7d, 30d, last_7_days or last_30_days; \`language\`. \`running_total.languages\` (top 10) only for members who share languages. ${figures} ${privacy}`,
          wakaBoardSchema,
          { ...notMember, invalid_query: 'a bad `range` or `language`.' },
          [idParameter, { name: 'range', in: 'query', required: false, schema: { type: 'string', enum: ['7d', '30d', 'last_7_days', 'last_30_days'] } }, { name: 'language', in: 'query', required: false, schema: { type: 'string', maxLength: 64 } }],
        ),
      },
    }),
  };
}
