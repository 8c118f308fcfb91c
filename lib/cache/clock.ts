import { config } from '../config';
import type { UserChanges } from '../db/types';
import { localDateHour } from '../local-time';
import { COMMUNITY_TAG, LEADERBOARD_TAG, PLANS_TAG } from './tags';

// When what a cached page or route was made from last changed, by its tags (tags.ts). Next's cache
// handler of a Node host (next-handler.mjs) asks it on every hit: an entry is served only if none
// of its tags changed since its render began. Changes are received on the change feed, and with
// other processes on the database a hit first waits to receive what they committed (`servable`), so
// a write in any process shows at once in every process's pages; while the feed is not received (a
// PostgreSQL connection lost, or a transaction pooler that keeps no LISTEN) nothing is served from
// the cache. Times are this process's own clock: a change counts from when it was received.

/** Changes remembered at most; past it the oldest go, and everything cached before them counts as changed. */
const MAX_MARKS = 100_000;
const HOUR_MS = 3_600_000;

/** The instant the date last turned in a timezone, to the hour a daylight-saving shift moves it by. */
export function lastMidnight(timeZone: string, now: number): number {
  const { date } = localDateHour(timeZone, new Date(now));
  const at = new Date(now);
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  let midnight = now - ((part('hour') * 60 + part('minute')) * 60 + part('second')) * 1000 - at.getUTCMilliseconds();
  // A daylight-saving shift today moved the wall clock by an hour: walk to the true turn of the date.
  while (localDateHour(timeZone, new Date(midnight - 1)).date === date) midnight -= HOUR_MS;
  while (localDateHour(timeZone, new Date(midnight)).date !== date) midnight += HOUR_MS;
  return midnight;
}

export class CacheClock {
  /** Tag -> when its last change was received, oldest first. */
  private readonly marks = new Map<string, number>();
  /** Everything cached before this instant counts as changed. */
  private floor = 0;
  private readonly midnights = new Map<string, { midnight: number; until: number }>();

  constructor(private readonly changes: UserChanges) {
    changes.subscribe((subject) => this.mark(subject === null ? null : [subject]));
  }

  /** Whether a cached answer may be kept at all: only while every process's changes are received. */
  get serving(): boolean {
    return this.changes.live;
  }

  /** These tags changed now; null: anything may have changed. */
  mark(tags: readonly string[] | null, now = Date.now()): void {
    if (tags === null) {
      this.floor = now;
      this.marks.clear();
      return;
    }
    for (const tag of tags) {
      this.marks.delete(tag);
      this.marks.set(tag, now);
    }
    while (this.marks.size > MAX_MARKS) {
      const [oldest, at] = this.marks.entries().next().value!;
      this.marks.delete(oldest);
      this.floor = Math.max(this.floor, at);
    }
  }

  /**
   * Whether an answer with these tags whose render began at `since` may be served now: none of
   * them changed, counting every change any process committed before the call.
   */
  async servable(tags: readonly string[], since: number): Promise<boolean> {
    if (this.changedSince(tags, since)) return false;
    if (this.changes.shared && !(await this.changes.heard())) return false;
    return !this.changedSince(tags, since);
  }

  /** True when an answer with these tags whose render began at `since` may be out of date, as far as this process has received. */
  changedSince(tags: readonly string[], since: number, now = Date.now()): boolean {
    if (!this.serving || since <= this.floor) return true;
    for (const tag of tags) if (this.changedAt(tag, now) >= since) return true;
    return false;
  }

  private changedAt(tag: string, now: number): number {
    if (tag === COMMUNITY_TAG || tag === PLANS_TAG) return Math.max(this.marks.get(tag) ?? 0, now - config().PUBLIC_CACHE_SECONDS * 1000);
    if (tag === LEADERBOARD_TAG) return Math.max(this.marks.get(tag) ?? 0, now - config().LEADERBOARD_MAX_AGE * 1000);
    if (tag.startsWith('day:')) return this.midnight(tag.slice(4), now);
    return this.marks.get(tag) ?? 0;
  }

  private midnight(timeZone: string, now: number): number {
    const known = this.midnights.get(timeZone);
    if (known && now < known.until) return known.midnight;
    let midnight: number;
    try {
      midnight = lastMidnight(timeZone, now);
    } catch {
      return now; // not a timezone (cannot happen for a stored one): never serve from cache
    }
    // Until the next turn of the date at the earliest (a day is at least 23 hours).
    this.midnights.set(timeZone, { midnight, until: midnight + 23 * HOUR_MS });
    return midnight;
  }
}

const slot = Symbol.for('codetally.cache-clock');
type ClockSlot = typeof globalThis & { [slot]?: CacheClock };

/** Makes the clock of this server process (boot), where Next's cache handler finds it. */
export function installCacheClock(changes: UserChanges): CacheClock {
  const clock = new CacheClock(changes);
  (globalThis as ClockSlot)[slot] = clock;
  return clock;
}
