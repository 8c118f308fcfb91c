import { z } from 'zod';
import { checkedText } from '../text';

export const badgeStyles = ['flat', 'flat-square', 'plastic', 'for-the-badge', 'social'] as const;
export type BadgeStyle = (typeof badgeStyles)[number];
/** `ai`: AI-assisted coding time (an AI agent's, or the AI Coding category), only while its owner shares AI-assisted coding. */
export const badgeMetrics = ['total', 'daily_average', 'language', 'ai'] as const;
export const badgeRanges = ['7d', '30d', '365d', 'all'] as const;

/**
 * The query of a badge's image. Never refused, since an embed must not break: an unknown style
 * is ignored, and a badge id that is not one of the user's is simply not found.
 */
export const badgeQuerySchema = z.object({
  badge: z.string().optional().meta({ format: 'uuid', description: "Which of the user's badges; without it, their first." }),
  style: z.enum(badgeStyles).optional().catch(undefined).meta({ description: "Draws the badge in this style instead of its own; an unknown one is ignored." }),
});

// shields.io named colours, or a hex colour with or without '#'.
const namedColors = ['brightgreen', 'green', 'yellowgreen', 'yellow', 'orange', 'red', 'blue', 'lightgrey', 'grey', 'gray', 'lightgray', 'success', 'important', 'critical', 'informational', 'inactive', 'blueviolet'];

export const createBadgeSchema = z
  .object({
    metric: z.enum(badgeMetrics),
    range: z.enum(badgeRanges),
    language: checkedText(z.string().trim().min(1).max(64), 'language').optional(),
    label: checkedText(z.string().trim().min(1).max(64), 'label').optional(),
    color: z
      .string()
      .trim()
      .refine((c) => namedColors.includes(c.toLowerCase()) || /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.test(c), {
        error: `color must be a hex colour or one of ${namedColors.join(', ')}`,
      })
      .optional(),
    style: z.enum(badgeStyles).optional(),
  })
  .refine((b) => (b.metric === 'language') === (b.language !== undefined), {
    error: 'language is required with metric "language" and only then',
    path: ['language'],
  })
  .meta({ id: 'CreateBadge', examples: [{ metric: 'total', range: '7d', label: 'coded 7d', color: 'blue', style: 'flat' }] });

export type CreateBadgeInput = z.infer<typeof createBadgeSchema>;

export const badgeSchema = z
  .object({
    id: z.uuid(),
    metric: z.enum(badgeMetrics),
    range: z.enum(badgeRanges),
    language: z.string().nullable(),
    label: z.string(),
    color: z.string(),
    style: z.enum(badgeStyles),
    url: z.string().meta({ description: 'The SVG to embed.' }),
    shields_url: z.string().meta({ description: 'shields.io endpoint JSON with the same figure.' }),
    markdown: z.string(),
    html: z.string(),
    created_at: z.string(),
    refreshed_at: z.string(),
  })
  .meta({ id: 'Badge' });

export const badgeListSchema = z.object({ badges: z.array(badgeSchema) }).meta({ id: 'BadgeList' });

/** A badge as shields.io endpoint JSON (https://shields.io/badges/endpoint-badge). */
export const shieldsSchema = z
  .object({
    schemaVersion: z.literal(1),
    label: z.string(),
    message: z.string(),
    color: z.string(),
    isError: z.literal(true).optional().meta({ description: 'Only when there is no such badge (404).' }),
    cacheSeconds: z.number().int(),
  })
  .meta({ id: 'ShieldsEndpoint' });

export type BadgeDto = z.infer<typeof badgeSchema>;
