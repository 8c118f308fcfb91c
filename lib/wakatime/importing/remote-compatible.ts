import { addDays, eachDay } from '../../dates';
import type { Db } from '../../db/client';
import { userAddresses } from '../../http/outbound';
import { isTimeZone, localDateHour } from '../../local-time';
import { checkHeartbeat, digestKey, liveTimes, type CheckContext } from '../sending/heartbeat-check';
import { DayImporter } from './day-importer';
import { DumpOrigins } from './dump-origins';
import { RemoteError, RemoteServer } from './remote-client';
import type { Touch } from './remote';

// An import by key from a WakaTime-compatible server (Wakapi, Hackatime, another Codetally;
// lib/wakatime/importing/remote.ts): the account's timezone (users/current, under the base given or
// the usual paths below it: /v1, /compat/wakatime/v1, /wakatime/v1), its first day
// (all_time_since_today's range.start, else the account's creation), its User-Agents and machine
// names (the editors and machines heartbeats name by id, read as a dump's lists are:
// lib/wakatime/importing/dump-origins.ts), then heartbeats?date= day by day, oldest first, each day
// whole (a page at a time where the server pages it: Codetally's `next_after`, asked again with
// `after`), credited as an upload's heartbeats are (lib/wakatime/importing/day-importer.ts): the
// same days imported again count nothing twice.

/** The most days read: 20 years. */
const MAX_DAYS = 7_305;
/** The most pages of one day (Codetally answers up to a few thousand heartbeats a page). */
const MAX_PAGES_PER_DAY = 500;
/** Without a first day from the server: the last year. */
const FALLBACK_DAYS = 365;
/** The earliest heartbeat taken (WakaTime began in 2013). */
const EARLIEST = Date.UTC(2000, 0, 1);


const dataOf = (body: unknown): Record<string, unknown> => {
  const data = (body as { data?: unknown })?.data;
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
};

/** The local date a server's time value falls on (an ISO time, a date, or seconds), in `zone`; null when it is none. */
function dateIn(value: unknown, zone: string): string | null {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const ms = typeof value === 'number' ? value * 1000 : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms) || ms < EARLIEST) return null;
  return localDateHour(zone, new Date(ms)).date;
}

/** The first day to read: all_time_since_today's range, else the account's creation, else a year back. */
async function firstDay(server: RemoteServer, account: Record<string, unknown>, zone: string, today: string): Promise<string> {
  let range: Record<string, unknown> = {};
  try {
    range = (dataOf(await server.json('users/current/all_time_since_today')).range ?? {}) as Record<string, unknown>;
  } catch (err) {
    // Not every server answers it (or for every account): the account's creation then.
    if (!(err instanceof RemoteError) || err.status === undefined || err.status === 401 || err.status === 403) throw err;
  }
  const found = dateIn(range.start_date, zone) ?? dateIn(range.start, zone) ?? dateIn(account.created_at, zone);
  return found && found <= today ? found : addDays(today, -FALLBACK_DAYS);
}

/** Where a server's WakaTime-compatible API may be under a base a user gives (`https://host/api` is Wakapi's, and an alias of Codetally's). */
const apiBelow = ['', '/v1', '/compat/wakatime/v1', '/wakatime/v1'];

/** The server at the first of the base's candidates whose users/current is not a 404, and that account. */
async function findApi(apiUrl: string, key: string): Promise<{ server: RemoteServer; account: Record<string, unknown> }> {
  for (const [i, below] of apiBelow.entries()) {
    const server = new RemoteServer(`${apiUrl}${below}`, key, userAddresses(), 'The other server');
    try {
      return { server, account: dataOf(await server.json('users/current')) };
    } catch (err) {
      if (!(err instanceof RemoteError) || err.status !== 404 || i === apiBelow.length - 1) throw err;
    }
  }
  throw new RemoteError('unreachable');
}

export async function importCompatible(db: Db, user: { id: string; timezone: string; since: number | null }, key: string, apiUrl: string, touch: Touch): Promise<void> {
  await touch({ stage: 'Reading your account on the other server' });
  const { server, account } = await findApi(apiUrl, key);
  const zone = typeof account.timezone === 'string' && isTimeZone(account.timezone) ? account.timezone : 'UTC';
  const today = localDateHour(zone).date;
  const found = await firstDay(server, account, zone, today);
  const earliest = addDays(today, -(MAX_DAYS - 1));
  const days = eachDay(found > earliest ? found : earliest, today);

  const origins = new DumpOrigins();
  for (const entry of await server.list('user_agents')) origins.add(entry);
  for (const entry of await server.list('machine_names')) origins.addMachine(entry);

  const now = Date.now();
  const importer = new DayImporter(db, { id: user.id, timezone: user.timezone }, user.since, now);
  const ctx: CheckContext = { key: await digestKey(db), userAgent: null, earliest: EARLIEST, latest: liveTimes(now).latest, tooOld: 'time must be after 2000 and at most one hour ahead', digests: new Map(), origins: new Map(), dump: origins };
  const total = days.length;
  let read = 0;
  let skipped = 0;
  if (!(await touch({ stage: 'Reading your history day by day', daysTotal: total, daysDone: 0 }))) return;
  for (const [done, date] of days.entries()) {
    let after: string | null = null;
    for (let page = 0; page < MAX_PAGES_PER_DAY; page++) {
      const body = (await server.json(`users/current/heartbeats?date=${date}${after ? `&after=${encodeURIComponent(after)}` : ''}`)) as { data?: unknown; next_after?: unknown };
      if (!Array.isArray(body?.data)) throw new RemoteError(`The other server's answer for ${date} is not a list of heartbeats: is ${apiUrl} its WakaTime-compatible API?`);
      for (const item of body.data) {
        read++;
        const heartbeat = checkHeartbeat(item, ctx);
        if (typeof heartbeat === 'string') skipped++;
        else await importer.add(heartbeat);
      }
      const next = body.next_after;
      if (typeof next !== 'string' || next === '' || next === after || body.data.length === 0) break;
      after = next;
      // Alive between pages too (one small update): a day of many slow pages outlasts STALE_AFTER_MS,
      // and a run not heard of that long is ended by the next server start.
      if (!(await touch({ heartbeatsRead: read, heartbeatsSkipped: skipped }))) throw new RemoteError('The import was given up.');
    }
    if (!(await touch({ daysDone: done + 1, heartbeatsRead: read, heartbeatsSkipped: skipped }))) throw new RemoteError('The import was given up.');
  }
  await touch({ stage: 'Counting the last days' });
  await importer.finish();
}
