import { z } from 'zod';
import { leaderboardQuerySchema, leaderboardRanges } from '../stats/leaderboard/query';
import { checkedText } from '../text';
import { wakaLeaderSchema } from '../wakatime/schemas';

// Private leaderboards' bodies, queries and answers; they also write openapi.json.

export const MAX_BOARD_NAME = 100;
export const MAX_INVITE_CODE = 64;

export const createBoardSchema = z
  .object({ name: checkedText(z.string({ error: 'name is required' }).trim().min(1, 'must not be empty').max(MAX_BOARD_NAME, `must be at most ${MAX_BOARD_NAME} characters`), 'name') })
  .meta({ id: 'CreatePrivateLeaderboard', examples: [{ name: 'Friday coders' }] });

export const joinBoardSchema = z
  .object({ code: checkedText(z.string({ error: 'code is required' }).trim().min(1, 'must not be empty').max(MAX_INVITE_CODE, `must be at most ${MAX_INVITE_CODE} characters`), 'code') })
  .meta({ id: 'JoinPrivateLeaderboard', examples: [{ code: 'q3V9xY0bW1mT8cJk4rLz2A' }] });

/** GET /leaderboards/{id}: the public leaderboard's range and language, no pages (a board shows every member with time). */
export const boardQuerySchema = leaderboardQuerySchema.pick({ range: true, language: true });
export type BoardQuery = z.output<typeof boardQuerySchema>;

export const createdBoardSchema = z
  .object({ id: z.uuid(), name: z.string(), invite_code: z.string() })
  .meta({ id: 'CreatedPrivateLeaderboard' });

export const joinedBoardSchema = z.object({ id: z.uuid(), name: z.string() }).meta({ id: 'JoinedPrivateLeaderboard' });

export const inviteCodeSchema = z.object({ id: z.uuid(), invite_code: z.string() }).meta({ id: 'PrivateLeaderboardInviteCode' });

export const boardSummarySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    role: z.enum(['owner', 'member']),
    members_count: z.number().int(),
    invite_code: z.string().nullable().meta({ description: 'The owner\'s only; null for other members.' }),
    created_at: z.string(),
  })
  .meta({ id: 'PrivateLeaderboardSummary' });

export const boardListSchema = z.object({ leaderboards: z.array(boardSummarySchema) }).meta({ id: 'PrivateLeaderboardList' });

const entrySchema = z
  .object({
    rank: z.number().int().meta({ description: 'Members with equal time share a rank; the next rank skips (1, 1, 3), as on the public leaderboard.' }),
    handle: z.string(),
    display_name: z.string(),
    seconds: z.number().int().meta({ description: 'Coding time over the range (with `language`: in that language), each hour counting at most 3600 s.' }),
  })
  .meta({ id: 'PrivateLeaderboardEntry' });

export const boardSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    range: z.enum(leaderboardRanges),
    from: z.string().meta({ description: 'The first UTC date of the range.' }),
    to: z.string().meta({ description: 'The last UTC date of the range (today).' }),
    language: z.string().nullable(),
    role: z.enum(['owner', 'member']),
    members_count: z.number().int(),
    entries: z.array(entrySchema),
  })
  .meta({ id: 'PrivateLeaderboard' });

// WakaTime's shapes (GET users/current/leaderboards[/{id}]).

export const wakaBoardListSchema = z
  .object({
    data: z.array(
      z.object({
        id: z.uuid(),
        name: z.string(),
        members_count: z.number().int(),
        members_with_timezones_count: z.number().int(),
        time_range: z.string().meta({ description: '`last_7_days`: what the board shows without `range`.' }),
        can_edit: z.boolean(),
        can_delete: z.boolean(),
        has_available_seat: z.boolean(),
        created_at: z.string(),
        modified_at: z.string(),
      }),
    ),
    total: z.number().int(),
    total_pages: z.number().int(),
  })
  .meta({ id: 'WakaPrivateLeaderboardList' });

export const wakaBoardSchema = z
  .object({
    data: z.array(wakaLeaderSchema),
    current_user: wakaLeaderSchema.extend({ page: z.number().int() }).nullable().meta({ description: 'My own entry; null while I have no time in the range (or, with `language`, none in it shared).' }),
    language: z.string().nullable(),
    range: z.object({ start_date: z.string(), end_date: z.string(), start_text: z.string(), end_text: z.string(), name: z.string(), text: z.string() }),
    page: z.number().int(),
    total_pages: z.number().int(),
    timeout: z.number().int(),
    writes_only: z.boolean(),
    modified_at: z.string(),
  })
  .meta({ id: 'WakaPrivateLeaderboard' });
