import { z } from 'zod';
import { checkedText, textProblem } from '../text';
import { hiddenSchema } from '../leaderboards/trust/schemas';
import { signals } from '../leaderboards/trust/signals';

export { hiddenSchema };

// The operator routes' bodies and answers (API.md, "Leaderboards people can trust"); they also write openapi.json.

export const MAX_HIDE_REASON = 200;

export const hideSchema = z
  .object({
    reason: checkedText(
      z.string({ error: 'reason is required' }).trim().min(1, 'must not be empty').max(MAX_HIDE_REASON, `must be at most ${MAX_HIDE_REASON} characters`),
      'reason',
    ).meta({ description: 'Why, as the person reads it on their dashboard.' }),
    until: z.iso
      .datetime({ offset: true, error: 'must be a date-time with its offset, e.g. 2026-12-31T00:00:00Z' })
      .meta({ examples: ['2099-01-31T00:00:00Z'] })
      .nullable()
      .optional()
      .transform((v) => (v ? new Date(v).toISOString() : null))
      .refine((v) => v === null || Date.parse(v) > Date.now(), 'must be in the future')
      .meta({ description: 'When the hide ends by itself; absent or null: until shown again (DELETE).' }),
  })
  .meta({ id: 'HideUser', examples: [{ reason: 'More than 20 coded hours a day, every day', until: '2099-01-31T00:00:00Z' }] });


export const hideAnswerSchema = z.object({ handle: z.string(), leaderboard_hidden: hiddenSchema }).meta({ id: 'HiddenUser' });

export const flagSchema = z
  .object({
    handle: z.string(),
    signal: z.enum(signals),
    day: z.string().meta({ description: 'YYYY-MM-DD: the user\'s own date for hours_per_day, the UTC date for the others.' }),
    detail: z.string().meta({ description: 'The figure that raised it ("22.0 h coded", "4 machines in one hour").' }),
    first_seen_at: z.string(),
  })
  .meta({ id: 'TrustFlag' });
export const flagsAnswerSchema = z.object({ data: z.array(flagSchema) }).meta({ id: 'TrustFlags' });

export const auditEntrySchema = z
  .object({
    at: z.string(),
    operator: z.string().meta({ description: "The operator's handle; `admin-token` for the ADMIN_TOKEN holder; `automatic` for LEADERBOARD_AUTO_HIDE and a hide's end." }),
    action: z.string().meta({ description: '`hide`, `show`, `hide_ended`, `grant_operator`, `revoke_operator`.' }),
    handle: z.string().nullable(),
    reason: z.string().nullable(),
    until: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });
export const auditAnswerSchema = z.object({ data: z.array(auditEntrySchema) }).meta({ id: 'AuditLog' });

export const accountRowSchema = z
  .object({
    handle: z.string(),
    email: z.string().nullable(),
    plan: z.string(),
    created_at: z.string(),
    last_heartbeat_at: z
      .string()
      .nullable()
      .meta({ description: 'When the account was last heard from: its last kept heartbeat (14 days), else the end of its last hour with time (the sync route, imports); null when it has none.' }),
    flags: z.number().int(),
    hidden: hiddenSchema.nullable(),
  })
  .meta({ id: 'OperatorAccount' });
export const accountsAnswerSchema = z.object({ data: z.array(accountRowSchema) }).meta({ id: 'OperatorAccounts' });

export const handleQuerySchema = z.object({ handle: checkedText(z.string().max(64, 'must be at most 64 characters'), 'handle', textProblem).optional() });
export const accountsQuerySchema = z.object({ q: checkedText(z.string().max(100, 'must be at most 100 characters'), 'q', textProblem).optional() });
