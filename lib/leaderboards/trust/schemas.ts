import { z } from 'zod';

// A hide as its person and the operators read it (GET /me's leaderboard_hidden, the operator routes).

export const hiddenSchema = z
  .object({ reason: z.string(), until: z.string().nullable().meta({ description: 'When it ends by itself; null: until an operator shows the account again.' }) })
  .meta({ id: 'LeaderboardHidden' });
