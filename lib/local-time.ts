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
