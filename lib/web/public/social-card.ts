import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { formatDuration } from '../../badges/format';
import type { profileData } from './pages';

// The social card of a public profile (app/u/[handle]/opengraph-image.tsx): what goes on it, made
// only from what the profile page shows (profileData: the sharing gate has already applied, so
// languages are there only when shared), and the fonts it is drawn with.

type Profile = Awaited<ReturnType<typeof profileData>>;

/** Languages on the card at most. */
const TOP_LANGUAGES = 5;

export interface SocialCard {
  name: string;
  /** Font size of the name: long names get smaller type (and two lines at most). */
  nameSize: number;
  handle: string;
  total: string;
  average: string;
  /** Largest first; `bar` is the share of the largest (0-1). Empty when languages are not shared. */
  languages: { name: string; percent: string; bar: number }[];
  /** The 30 days, oldest first, each the share of the busiest day (0-1). */
  days: number[];
  /** Where the profile is: host and path, no scheme. */
  address: string;
}

function nameSize(name: string): number {
  const length = [...name].length;
  if (length <= 16) return 84;
  if (length <= 22) return 72;
  if (length <= 30) return 58;
  return 48;
}

export function socialCard({ user, time, average, language }: Profile, origin: string): SocialCard {
  const top = language.languages.slice(0, TOP_LANGUAGES);
  const largest = top.reduce((max, l) => Math.max(max, l.seconds), 1);
  const busiest = time.days.reduce((max, d) => Math.max(max, d.seconds), 1);
  return {
    name: user.display_name,
    nameSize: nameSize(user.display_name),
    handle: user.handle,
    total: formatDuration(time.total_seconds),
    average: formatDuration(average),
    languages: top.map((l) => ({ name: l.name, percent: `${Math.round(l.percent)}%`, bar: l.seconds / largest })),
    days: time.days.map((d) => d.seconds / busiest),
    address: `${new URL(origin).host}/u/${user.handle}`,
  };
}

// Inter (SIL Open Font License), from the pinned @fontsource/inter package (satori reads WOFF,
// not WOFF2): Latin, Latin Extended, Greek and Cyrillic, so most names are drawn with no font
// fetched from elsewhere.
const subsets = ['latin', 'latin-ext', 'greek', 'cyrillic'] as const;
const weights = [400, 600, 800] as const;
/** Each subset is a family of its own (satori keeps one font per family and weight); the card lists them all. */
const fontName = (subset: string) => `Inter ${subset}`;
export const cardFontFamily = subsets.map((s) => `"${fontName(s)}"`).join(', ');
const fontFile = (subset: string, weight: number) => path.join(process.cwd(), 'node_modules/@fontsource/inter/files', `inter-${subset}-${weight}-normal.woff`);

export interface CardFont {
  name: string;
  data: Buffer;
  weight: 400 | 600 | 800;
  style: 'normal';
}

let fonts: Promise<CardFont[]> | undefined;

/** The card's fonts, read from disk once per process (a failed read is tried again next time). */
export function cardFonts(): Promise<CardFont[]> {
  fonts ??= Promise.all(
    weights.flatMap((weight) => subsets.map(async (subset) => ({ name: fontName(subset), data: await readFile(fontFile(subset, weight)), weight, style: 'normal' as const }))),
  ).catch((err) => {
    fonts = undefined;
    throw err;
  });
  return fonts;
}
