import { z } from 'zod';
import { emailSchema } from '../accounts/sign-in';
import { checkedText } from '../text';

// Teams' bodies, queries and answers (lib/teams/), which also write openapi.json.

export const teamRoles = ['owner', 'admin', 'member'] as const;
export type TeamRole = (typeof teamRoles)[number];
export const teamShares = ['none', 'total', 'languages'] as const;
export type TeamShare = (typeof teamShares)[number];
/** The ranges a team page takes: as the owner's own figures, without `all`. */
export const teamRanges = ['7d', '30d', '365d'] as const;
export type TeamRange = (typeof teamRanges)[number];
export const MAX_INVITE_DAYS = 365;

const teamName = checkedText(
  z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name must not be empty')
    .max(100, 'name must be at most 100 characters'),
  'name',
);

export const createTeamSchema = z.object({ name: teamName }).meta({ id: 'CreateTeam' });

export const joinTeamSchema = z
  .object({ code: checkedText(z.string({ error: 'code is required' }).trim().min(1, 'code must not be empty').max(100, 'code must be at most 100 characters'), 'code') })
  .meta({ id: 'JoinTeam' });

export const shareSchema = z
  .object({ share: z.enum(teamShares, 'share must be "none", "total" or "languages"') })
  .meta({ id: 'TeamShareChange' });

export const roleSchema = z.object({ role: z.enum(teamRoles, 'role must be "owner", "admin" or "member"') }).meta({ id: 'TeamRoleChange' });

export const inviteCodeSchema = z
  .object({
    expires_in_days: z
      .number({ error: 'expires_in_days must be a whole number of days' })
      .int('expires_in_days must be a whole number of days')
      .min(1, 'expires_in_days must be at least 1')
      .max(MAX_INVITE_DAYS, `expires_in_days must be at most ${MAX_INVITE_DAYS}`)
      .nullish()
      .meta({ description: `The new code stops working after this many days (1-${MAX_INVITE_DAYS}); absent or null: it never expires.` }),
  })
  .meta({ id: 'RotateInviteCode' });

export const teamQuerySchema = z.object({
  range: z
    .enum(teamRanges, `must be one of ${teamRanges.join(', ')}`)
    .default('7d')
    .meta({ description: "The last 7, 30 or 365 UTC dates (each member's time on those local dates), default 7d." }),
});

export const createdTeamSchema = z
  .object({ id: z.string(), name: z.string(), invite_code: z.string(), invite_expires_at: z.string().nullable() })
  .meta({ id: 'CreatedTeam' });

export const membershipSchema = z
  .object({ id: z.string(), name: z.string(), role: z.enum(teamRoles), share: z.enum(teamShares) })
  .meta({ id: 'TeamMembership' });

export const teamListSchema = z
  .object({ teams: z.array(membershipSchema.extend({ members: z.number().int() })) })
  .meta({ id: 'TeamList' });

export const inviteSchema = z
  .object({ invite_code: z.string(), invite_expires_at: z.string().nullable().meta({ description: 'ISO 8601; null: never.' }) })
  .meta({ id: 'TeamInvite' });

export const teamMemberSchema = z
  .object({
    handle: z.string(),
    display_name: z.string(),
    role: z.enum(teamRoles),
    share: z.enum(teamShares).meta({ description: 'What the member shows this team.' }),
    seconds: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Coding time over the range, each hour counted at most 3600 s; null when the member shares nothing with the team (share none).' }),
    languages: z
      .array(z.object({ name: z.string(), seconds: z.number().int() }))
      .optional()
      .meta({ description: 'Only for a member who shares languages with the team: time per language, the largest first.' }),
  })
  .meta({ id: 'TeamMember' });

export const teamSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    role: z.enum(teamRoles).meta({ description: "The caller's role." }),
    share: z.enum(teamShares).meta({ description: 'What the caller shows this team.' }),
    range: z.object({ name: z.enum(teamRanges), from: z.string(), to: z.string() }),
    invite_code: z.string().optional().meta({ description: 'Owners and admins only.' }),
    invite_expires_at: z.string().nullable().optional().meta({ description: 'Owners and admins only; null: never.' }),
    members: z.array(teamMemberSchema),
  })
  .meta({ id: 'Team' });

export type TeamMemberDto = z.infer<typeof teamMemberSchema>;

export const memberRoleSchema = z.object({ handle: z.string(), role: z.enum(teamRoles) }).meta({ id: 'TeamMemberRole' });

export const invitationSchema = z
  .object({
    email: emailSchema.meta({ description: 'The address to invite; not kept.', examples: ['ada@example.com'] }),
  })
  .meta({ id: 'TeamInvitation' });

export const invitationSentSchema = z.object({ email: z.string(), invite_expires_at: z.string().nullable() }).meta({ id: 'TeamInvitationSent' });
