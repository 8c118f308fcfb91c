import { z } from 'zod';
import { chartRanges } from './svg';

// The query and the names of the embeddable chart images (lib/charts/public.ts).

export const chartImages = ['languages', 'activity', 'hours', 'weekly'] as const;
/**
 * The `{userUUID}` segment of the site-wide images (the home page's): the figures of everyone who
 * shares community statistics, under the same k-anonymity as the site-wide JSON charts.
 */
export const COMMUNITY_SEGMENT = 'community';
export type ChartImage = (typeof chartImages)[number];
export const chartThemes = ['light', 'dark'] as const;

/**
 * The query of a chart image. `range` is the span of `languages` (default 30d); `activity` and
 * `hours` always show the last 365 days and `weekly` the last 12 ISO weeks, so they ignore it (a
 * value outside the list is still refused). Without `theme`, the image follows the viewer's
 * colour scheme.
 */
export const chartImageQuerySchema = z.object({
  range: z
    .enum(chartRanges)
    .optional()
    .meta({ description: 'The span of `languages`: the last 7, 30 (default) or 365 days. `activity` and `hours` (the last 365 days) and `weekly` (the last 12 ISO weeks) ignore it.' }),
  theme: z
    .enum(chartThemes)
    .optional()
    .meta({ description: "The image's colours. Omitted: both, chosen by the viewer's `prefers-color-scheme`." }),
});

/** The chart a `{chart}` path segment names (`languages.svg`...), or null. */
export function chartOfSegment(segment: string): ChartImage | null {
  const match = /^([a-z]+)\.svg$/.exec(segment);
  return match && (chartImages as readonly string[]).includes(match[1]) ? (match[1] as ChartImage) : null;
}
