// What an activity figure is, for the write path and the read path alike.

/** No user counts more than an hour in one date-hour, however many editors or uploads fed it. */
export const HOUR_CAP_MILLIS = 3_600_000;

/** Fields that would carry what the service never accepts: file bodies, diffs, clipboard data. */
export const CONTENT_FIELDS: ReadonlySet<string> = new Set(['content', 'body', 'text', 'diff', 'patch', 'clipboard', 'source', 'code', 'snippet']);

/**
 * WakaTime's categories of activity, as its clients send them (wakatime-cli's `--category`), each
 * with the name WakaTime's dashboard and API answers show. A heartbeat of another category counts
 * as coding.
 */
export const CATEGORY_NAMES: Readonly<Record<string, string>> = {
  coding: 'Coding',
  'ai coding': 'AI Coding',
  building: 'Building',
  'code reviewing': 'Code Reviewing',
  debugging: 'Debugging',
  designing: 'Designing',
  'writing docs': 'Writing Docs',
  'writing tests': 'Writing Tests',
  'manual testing': 'Manual Testing',
  browsing: 'Browsing',
  meeting: 'Meeting',
  planning: 'Planning',
  researching: 'Researching',
  learning: 'Learning',
  communicating: 'Communicating',
  indexing: 'Indexing',
  'running tests': 'Running Tests',
  supporting: 'Supporting',
  advising: 'Advising',
  notes: 'Notes',
  translating: 'Translating',
};

/** The category a client's value stands for: one of CATEGORY_NAMES' keys, in any case; anything else is coding. */
export function knownCategory(value: string | null | undefined): string {
  const key = (value ?? '').trim().toLowerCase();
  return Object.hasOwn(CATEGORY_NAMES, key) ? key : 'coding';
}

/** A category as WakaTime shows it (`ai coding` -> `AI Coding`). */
export const categoryName = (category: string): string => CATEGORY_NAMES[knownCategory(category)];
