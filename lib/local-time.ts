// The wall-clock date and hour in an IANA timezone, for buckets that arrive without them.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface DateHour {
  date: string;
  hour: number;
}

// Formatting costs microseconds and every chart request asks for today's date: the last answer
// per timezone is kept for the UTC second it was made in (no timezone's offset has a fraction of
// a second, so the local date and hour cannot change within one).
const lastAnswers = new Map<string, { second: number; answer: DateHour }>();

export function localDateHour(timeZone: string, at = new Date()): DateHour {
  const second = Math.floor(at.getTime() / 1000);
  const last = lastAnswers.get(timeZone);
  if (last?.second === second) return last.answer;
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(at).map((p) => [p.type, p.value]));
  const answer = { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
  lastAnswers.set(timeZone, { second, answer });
  return answer;
}

export function isTimeZone(value: string): boolean {
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

// Instants in an IANA zone, for answers that say when something happened (ISO 8601 with the
// offset in force then) and for drawing a local day, whose length a daylight-saving change alters.

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in minutes east of Greenwich. */
export function offsetMinutes(timeZone: string, at: number): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, f);
  }
  const name = f.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /([+-])(\d{2}):(\d{2})/.exec(name); // "GMT-04:00"; plain "GMT" at offset 0
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

const two = (n: number) => String(n).padStart(2, '0');

/** `2024-11-03T01:30:00-05:00`: the instant (to the second) in the zone's wall-clock time with the offset then. */
export function isoInZone(ms: number, offset: number): string {
  const local = new Date(Math.floor(ms / 1000) * 1000 + offset * 60_000).toISOString().slice(0, 19);
  const a = Math.abs(offset);
  return `${local}${offset < 0 ? '-' : '+'}${two(Math.floor(a / 60))}:${two(a % 60)}`;
}

/** `2024-11-03 01:30`: an instant as the zone's wall clock reads it, to the minute (what a signed-in page shows its user). */
export function wallClock(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  return isoInZone(ms, offsetMinutes(timeZone, ms)).slice(0, 16).replace('T', ' ');
}

/** Offsets change only at a quarter of a UTC hour (every zone's offset is a multiple of 15 minutes). */
const QUARTER = 15 * 60_000;
const HOUR = 60 * 60_000;

export interface LocalDay {
  date: string;
  timeZone: string;
  /** The first instant of the date in the zone, and the first of the next date (epoch ms). */
  start: number;
  end: number;
  /** Per wall-clock hour 0-23: its first instant and the first after it; null for an hour the clock skipped. */
  hours: ({ start: number; end: number } | null)[];
  /** The zone's offset in minutes at an instant. */
  offsetAt(ms: number): number;
}

/**
 * A local date in a zone, as instants. Local midnight lies between 14 hours before and 12 hours
 * after UTC midnight, so the window from 14 hours before the date to 12 hours after it holds the
 * whole day; its quarters are read once (two offset look-ups when no change falls inside).
 */
export function localDay(date: string, timeZone: string): LocalDay {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  const lo = utcMidnight - 14 * HOUR;
  const quarters = (24 + 14 + 12) * 4;
  const first = offsetMinutes(timeZone, lo);
  const steady = first === offsetMinutes(timeZone, lo + quarters * QUARTER);
  const offsets = steady ? null : Array.from({ length: quarters }, (_, i) => offsetMinutes(timeZone, lo + i * QUARTER));
  const offsetAt = (ms: number) => {
    if (!offsets) return first;
    const i = Math.floor((ms - lo) / QUARTER);
    return i >= 0 && i < quarters ? offsets[i] : offsetMinutes(timeZone, ms);
  };
  const hours: ({ start: number; end: number } | null)[] = Array.from({ length: 24 }, () => null);
  let start = Infinity;
  let end = -Infinity;
  for (let i = 0; i < quarters; i++) {
    const at = lo + i * QUARTER;
    const wall = at + (offsets ? offsets[i] : first) * 60_000;
    if (wall < utcMidnight || wall >= utcMidnight + 24 * HOUR) continue;
    const hour = Math.floor((wall - utcMidnight) / HOUR);
    const h = (hours[hour] ??= { start: at, end: at + QUARTER });
    h.end = at + QUARTER;
    start = Math.min(start, at);
    end = at + QUARTER;
  }
  // A date the zone skipped (Samoa leapt over 2011-12-30): an empty day at the jump.
  if (start === Infinity) start = end = utcMidnight - first * 60_000;
  return { date, timeZone, start, end, hours, offsetAt };
}
