import { z } from 'zod';
import { parseQuery, wholeNumber } from '../../http/query';
import { nameProblem, textRule } from '../../text';

// The leaderboard's questions: which range, ranked by what, which page.

export const leaderboardRanges = ['7d', '30d'] as const;
export type LeaderboardRange = (typeof leaderboardRanges)[number];
const MAX_LIMIT = 100;

export const leaderboardQuerySchema = z.object({
  range: z.enum(leaderboardRanges, 'must be 7d or 30d').default('7d').meta({ description: 'The UTC dates ranked: the last 7 or 30.' }),
  language: z
    .string()
    .max(64, 'must be at most 64 characters')
    .superRefine((v, ctx) => {
      const problem = nameProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: textRule(problem) });
    })
    .optional()
    .transform((v) => v?.trim() || null)
    .meta({
      description:
        "Rank by this language's time, named in any case (`typescript` finds TypeScript; a user's time under every spelling counts); the answer's `language` is the name as most plugins spell it. Only users who share languages appear.",
    }),
  page: wholeNumber(1, 1_000_000, 1),
  limit: wholeNumber(1, MAX_LIMIT, 50),
});

export type LeaderboardQuery = z.output<typeof leaderboardQuerySchema>;

export const parseLeaderboardQuery = (params: URLSearchParams): LeaderboardQuery => parseQuery(leaderboardQuerySchema, params);
