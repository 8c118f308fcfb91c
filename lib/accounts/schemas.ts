import { z } from 'zod';
import { isTimeZone } from '../local-time';
import { pluginScopes, scopes, tokenFormats, wakatimeScopes, type Scope, type TokenFormat } from '../auth/tokens';
import { handlePattern, isUuid } from '../ids';
import { checkedText } from '../text';

export const handleSchema = z
  .string({ error: 'handle must be a string' })
  .regex(handlePattern, {
    error: 'handle must be 1-39 letters, digits, "-" or "_", starting with a letter or digit',
  })
  .refine((v) => !isUuid(v), { error: 'handle must not look like a UUID' })
  .meta({ description: 'Unique, case-insensitive; used in public URLs.' });

/** A name people read (display names, token names): trimmed, 1-100 characters, nothing invisible. */
function nameSchema(field: string) {
  return checkedText(
    z
      .string({ error: `${field} must be a string` })
      .trim()
      .min(1, { error: `${field} must not be empty` })
      .max(100, { error: `${field} must be at most 100 characters` }),
    field,
  );
}

export const displayNameSchema = nameSchema('display_name').meta({ description: 'Shown on public pages; 1-100 characters.' });
export const tokenNameSchema = nameSchema('name');

export const timezoneSchema = z
  .string({ error: 'timezone must be a string' })
  .refine(isTimeZone, { error: 'timezone must be an IANA timezone such as Europe/Berlin', params: { code: 'invalid_timezone' } })
  .meta({ description: 'IANA timezone; "today" and default bucket hours follow it.', examples: ['Europe/Berlin'] });

export const settingsSchema = z
  .object({
    profile_public: z.boolean().meta({ description: 'Gates every per-user public route.' }),
    share_languages: z.boolean(),
    share_editors: z.boolean(),
    share_apps: z.boolean(),
    share_ai: z.boolean().meta({ description: 'Public surfaces show AI-assisted coding: AI agents and their time, the AI Coding category, AI and human line changes (off: none of it, AI Coding counts as Coding and an AI agent’s own plugin among the editors as Other).' }),
    share_machines: z.boolean().meta({ description: "Public surfaces name the machines you code on (off: a machine's name is never public)." }),
    leaderboard: z.boolean().meta({ description: 'Opt in to the public leaderboard.' }),
    community_stats: z.boolean().meta({ description: 'Count towards site-wide aggregates.' }),
    weekly_report: z.boolean().meta({
      description: 'Opt in to a mail on Monday morning (your timezone) summing up the week before; needs an email sign-in and a site that sends mail. Every report has a one-click unsubscribe link.',
    }),
  })
  .meta({ id: 'SharingSettings' });

export type Settings = z.infer<typeof settingsSchema>;

export const defaultSettings: Settings = {
  profile_public: false,
  share_languages: false,
  share_editors: false,
  share_apps: false,
  share_ai: false,
  share_machines: false,
  leaderboard: false,
  community_stats: true,
  weekly_report: false,
};


export const scopeSchema = z.enum(scopes);

export const tokenFormatSchema = z
  .enum(tokenFormats)
  .default('ct')
  .meta({ description: '`ct` (default): a `ct_` token. `uuid`: a random UUID, the key format WakaTime plugins and wakatime-cli accept (also with a `waka_` prefix).' });

/** The scopes of a new token; `path` names the field in messages. */
export const tokenScopesSchema = (path: string) =>
  z
    .array(scopeSchema, { error: `${path} must be a list of ${scopes.join(', ')}` })
    .min(1, { error: `${path} must name at least one scope` })
    .optional()
    .meta({ description: 'Defaults to sync and badges for a `ct` token (an editor plugin, the desktop agent), sync and stats for a `uuid` key (a WakaTime plugin: heartbeats and the status bar).' });

/** The scopes a new token gets when the request names none. */
export const defaultScopes = (format: TokenFormat): Scope[] => (format === 'uuid' ? wakatimeScopes : pluginScopes);

export const createUserSchema = z
  .object({
    handle: handleSchema,
    display_name: displayNameSchema.optional(),
    timezone: timezoneSchema.optional(),
    settings: settingsSchema.partial().optional(),
    token: z
      .object({ scopes: tokenScopesSchema('token.scopes'), format: tokenFormatSchema })
      .optional()
      .meta({ description: 'The first token of the user.' }),
  })
  .meta({ id: 'CreateUser' });

export type CreateUserInput = z.infer<typeof createUserSchema>;


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
