// The WakaTime-compatible reads of the heaviest user of the read benchmark's data set
// (bench/read.ts): durations of a busy day (goal <= 20 ms p50), summaries of a year and stats of
// the last year (goal <= 30 ms p50). The data set holds buckets only: the day's heartbeats (twelve
// hours, one every 30 s, four languages, two projects) are sent first through the heartbeat
// routes' own read and store, the day before the bench runs; sending them again changes nothing.
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../lib/db/client';
import { addDays } from '../lib/dates';
import { localDateHour, localDay } from '../lib/local-time';
import { readHeartbeats } from '../lib/wakatime/sending/heartbeat-check';
import { storeHeartbeats } from '../lib/wakatime/sending/heartbeat-store';
import { durationsOfDay } from '../lib/wakatime/reading/day-reads';
import { stats, summaries } from '../lib/wakatime/reading/reads';

type Timed = (fn: () => Promise<unknown>, runs: number) => Promise<{ p50_ms: number; max_ms: number }>;

const BEATS = 1440;
const languages = ['TypeScript', 'Go', 'Rust', 'SQL'];

export async function wakatimeBench(db: Db, heaviest: { id: string; timezone: string }, timed: Timed) {
  const [{ handle }] = await rows<{ handle: string }>(db, sql`SELECT handle FROM users WHERE id = ${heaviest.id}::uuid`);
  const today = localDateHour(heaviest.timezone).date;
  const day = addDays(today, -1);
  const start = localDay(day, heaviest.timezone).start / 1000 + 8 * 3600;
  const items = Array.from({ length: BEATS }, (_, i) => ({
    entity: `/src/module${i % 9}.ts`,
    type: 'file',
    time: start + i * 30,
    project: `proj${Math.floor(i / 180) % 2}`,
    language: languages[Math.floor(i / 40) % languages.length],
    category: i % 10 === 0 ? 'ai coding' : 'coding',
  }));
  for (let i = 0; i < BEATS; i += 720) {
    const { valid, agents } = await readHeartbeats(db, heaviest, items.slice(i, i + 720), { userAgent: 'wakatime/v1.98.0 (linux-6.5.0) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0', machine: 'desk' });
    await storeHeartbeats(db, heaviest, valid, undefined, agents);
  }
  const user = { ...heaviest, handle };
  return {
    durations_day: await timed(() => durationsOfDay(db, heaviest, new URLSearchParams({ date: day })), 40),
    durations_day_by_language: await timed(() => durationsOfDay(db, heaviest, new URLSearchParams({ date: day, slice_by: 'language' })), 40),
    summaries_year: await timed(() => summaries(db, heaviest, new URLSearchParams({ start: addDays(today, -364), end: today })), 20),
    stats_last_year: await timed(() => stats(db, user, 'last_year'), 20),
  };
}
