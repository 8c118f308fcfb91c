import { z } from 'zod';
import { isTimeZone } from '../ingest/local-time';
import { scopes } from '../auth/tokens';
import { isUuid } from '../ids';


export const handleSchema = z
  .string({ error: 'handle must be a string' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/, {
    error: 'handle must be 1-39 letters, digits, "-" or "_", starting with a letter or digit',
  })
  .refine((v) => !isUuid(v), { error: 'handle must not look like a UUID' })
  .meta({ description: 'Unique, case-insensitive; used in public URLs.' });

export const timezoneSchema = z
  .string({ error: 'timezone must be a string' })
  .refine(isTimeZone, { error: 'timezone must be an IANA timezone such as Europe/Berlin', params: { code: 'invalid_timezone' } })
  .meta({ description: 'IANA timezone; "today" and default bucket hours follow it.' });

export const settingsSchema = z
  .object({
    profile_public: z.boolean().meta({ description: 'Gates every per-user public route.' }),
    share_languages: z.boolean(),
    share_editors: z.boolean(),
    share_apps: z.boolean(),
    leaderboard: z.boolean().meta({ description: 'Opt in to the public leaderboard.' }),
    community_stats: z.boolean().meta({ description: 'Count towards site-wide aggregates.' }),
  })
  .meta({ id: 'SharingSettings' });

export type Settings = z.infer<typeof settingsSchema>;

export const defaultSettings: Settings = {
  profile_public: false,
  share_languages: false,
  share_editors: false,
  share_apps: false,
  leaderboard: false,
  community_stats: true,
};

export const createUserSchema = z
  .object({
    handle: handleSchema,
    display_name: z.string().trim().min(1).max(100).optional(),
    timezone: timezoneSchema.optional(),
    settings: settingsSchema.partial().optional(),
  })
  .meta({ id: 'CreateUser' });

export type CreateUserInput = z.infer<typeof createUserSchema>;

export const scopeSchema = z.enum(scopes);

export const userSchema = z
  .object({
    id: z.uuid(),
    handle: z.string(),
    display_name: z.string(),
    timezone: z.string(),
    settings: settingsSchema,
    created_at: z.string(),
  })
  .meta({ id: 'User' });

export type UserDto = z.infer<typeof userSchema>;

export const createdUserSchema = z
  .object({ user: userSchema, token: z.string().meta({ description: 'Shown once; scopes sync and badges.' }) })
  .meta({ id: 'CreatedUser' });
