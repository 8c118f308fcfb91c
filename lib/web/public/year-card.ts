import { formatDuration } from '../../badges/format';
import type { Db } from '../../db/client';
import { configuredOrigin } from '../../http/origin';
import { localDateHour } from '../../local-time';
import { ProcessCache } from '../../process-cache';
import { publicOwner } from '../../sharing/gate';
import { publicYear, type PublicYear } from '../../stats/year';

// The share image of a public year (app/u/[handle]/year/[year]/card.png): what goes on it, made
// only from what the public year page shows (publicYear: the sharing gate has already applied, so
// languages are there only when shared, projects never).

export const MONTH_LETTERS = ['J', 'F', 'M', 'A', 'M', 'J', 'J', 'A', 'S', 'O', 'N', 'D'];

export interface YearCard {
  year: number;
  name: string;
  /** Font size of the name: long names get smaller type (one line). */
  nameSize: number;
  handle: string;
  total: string;
  stats: { value: string; label: string }[];
  /** Largest first; `bar` is the share of the largest (0-1). Empty when languages are not shared. */
  languages: { name: string; percent: string; bar: number }[];
  /** The twelve months, each the share of the busiest month (0-1). */
  months: number[];
  /** Where the page is: host and path, no scheme. */
  address: string;
}

/** 5122 s as 1h 25m: a stat's narrow column. */
const compact = (seconds: number) => `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;

function nameSize(name: string): number {
  const length = [...name].length;
  if (length <= 18) return 64;
  if (length <= 28) return 52;
  return 40;
}

export function yearCard({ owner, figures }: PublicYear, origin: string): YearCard {
  const largest = figures.top_languages.reduce((max, l) => Math.max(max, l.total_seconds), 1);
  const busiest = figures.by_month.reduce((max, m) => Math.max(max, m), 1);
  const stats = [
    { value: String(figures.days_coded), label: figures.days_coded === 1 ? 'day coded' : 'days coded' },
    { value: String(figures.longest_streak.days), label: 'longest streak (days)' },
    ...(figures.percentile !== null ? [{ value: `${figures.percentile} %`, label: 'of coders here code less a day' }] : [{ value: compact(figures.daily_average), label: 'a coding day' }]),
  ];
  return {
    year: figures.year,
    name: owner.user.display_name,
    nameSize: nameSize(owner.user.display_name),
    handle: owner.user.handle,
    total: formatDuration(figures.total_seconds),
    stats,
    languages: figures.top_languages.map((l) => ({ name: l.name, percent: `${Math.round(l.percent)}%`, bar: l.total_seconds / largest })),
    months: figures.by_month.map((m) => m / busiest),
    address: `${new URL(origin).host}/u/${owner.user.handle}/year/${figures.year}`,
  };
}

const images = new ProcessCache<ArrayBuffer>('year-cards', 500);
/** How long a drawn card is served before it is drawn again (a change of data or setting draws it at once). */
const IMAGE_TTL_MS = 10 * 60_000;

/**
 * A public year's share image, drawn by `draw` once per owner, year, data version, sharing
 * settings and day: a PNG costs a render, so asking again in any spelling of the handle, with any
 * query, is served from memory; a profile made private is a 404 at once (publicOwner).
 */
export async function yearCardImage(db: Db, handle: string, yearSegment: string, draw: (card: YearCard) => Promise<ArrayBuffer>): Promise<ArrayBuffer> {
  const owner = await publicOwner(db, handle);
  const key = [owner.user.id, yearSegment, owner.statsVersion, JSON.stringify(owner.shares), localDateHour(owner.timezone).date].join('/');
  return images.get(key, IMAGE_TTL_MS, async () => draw(yearCard(await publicYear(db, handle, yearSegment), configuredOrigin())));
}
