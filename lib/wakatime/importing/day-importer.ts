import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client';
import { col, cols } from '../../db/names';
import { importedDays } from '../../db/schema';
import { aliasedCredits, announce, Deltas, type Credits } from '../sending/credits';
import { lockedAliases } from '../../projects/aliases';
import { DayHeartbeats } from './day-heartbeats';
import { DistinctHeartbeats } from '../sending/distinct-heartbeats';
import { LATE_LIMIT_MS, MAX_HEARTBEATS, type Heartbeat } from '../sending/heartbeat';
import { storeHeartbeats } from '../sending/heartbeat-store';

// How an import counts a dump's heartbeats (lib/wakatime/importing/imports.ts says why): those of the last
// 14 days through the heartbeat path, older ones that path did not count credited by UTC day, each
// day's credits replaced when an import holds at least as much of it.

const DAY_MS = 86_400_000;
/**
 * Days whose credits are written in one transaction, and at most so many of their credits in it,
 * unless one day alone holds more (a day credits at most 25 hours of each combination it names),
 * besides what earlier imports credited to those days, subtracted.
 */
const DAYS_PER_WRITE = 64;
const CREDITS_PER_WRITE = 20_000;
/**
 * The most heartbeats one UTC day may hold (about six a second all day; a busy day of editing
 * holds a few tens of thousands): a day is held whole until it is credited, at most three at once.
 */
export const MAX_DAY_HEARTBEATS = 500_000;
/** The most different combinations of type, language, project, editor, operating system and application one UTC day may name. */
export const MAX_DAY_NAMES = 2_000;

const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Why an import's heartbeats cannot be counted, in words for its owner. */
export class ImportError extends Error {}

/** What a day's credits are, for telling whether an import changes them. */
const creditsKey = (c: Credits) => JSON.stringify([c.ide, c.desktop]);

/** One UTC day as an import credits it. */
interface Day {
  day: number;
  credits: Credits;
  heartbeats: number;
  continues: boolean;
}

/** Whether `next` holds at least as much of its day as `stored` did (a later export holds what an earlier one did). */
const fuller = (next: Day, stored: Day) => next.heartbeats > stored.heartbeats || (next.heartbeats === stored.heartbeats && (next.continues || !stored.continues));

/**
 * Routes a dump's heartbeats (see lib/wakatime/importing/imports.ts) and credits the older ones by UTC day.
 * `since`: the user's heartbeats_since.
 */
export class DayImporter {
  /** Heartbeats before the cutoff, by UTC day, not yet credited (at most three days). */
  private readonly days = new Map<number, DayHeartbeats>();
  /** Days credited and waiting to be written, and how many credits they hold. */
  private ready: Day[] = [];
  private readyCredits = 0;
  private live = new DistinctHeartbeats();
  /** Heartbeats from here on go through the heartbeat path. */
  private readonly liveFrom: number;
  /** Heartbeats from here on are the heartbeat path's: sent now, or counted when they were sent. */
  private readonly cutoff: number;
  /** The earliest heartbeat at or after the cutoff (the heartbeat path's first one, if any). */
  private firstAfterCutoff: number;
  /** The latest heartbeat time seen. */
  private latestSeen = -Infinity;
  /** Days before this one have been credited. */
  private creditedBefore = -Infinity;

  constructor(
    private readonly db: Db,
    private readonly user: { id: string; timezone: string },
    since: number | null,
    now: number,
  ) {
    // The heartbeat routes take the last 14 days from now on: none of these can be sent there again.
    this.liveFrom = now - LATE_LIMIT_MS;
    this.cutoff = Math.min(since ?? Infinity, this.liveFrom);
    this.firstAfterCutoff = since ?? Infinity;
  }

  async add(h: Heartbeat): Promise<void> {
    this.latestSeen = Math.max(this.latestSeen, h.at);
    if (h.at >= this.cutoff) {
      this.firstAfterCutoff = Math.min(this.firstAfterCutoff, h.at);
      if (h.at >= this.liveFrom) {
        this.live.add(h);
        if (this.live.size >= MAX_HEARTBEATS) await this.flushLive();
      }
      return;
    }
    const day = Math.floor(h.at / DAY_MS);
    if (day < this.creditedBefore) {
      throw new ImportError(`The dump is not in date order: a heartbeat of ${dateOf(day)} comes after later days (export it again from WakaTime).`);
    }
    let found = this.days.get(day);
    if (!found) this.days.set(day, (found = new DayHeartbeats()));
    if (found.size >= MAX_DAY_HEARTBEATS) {
      throw new ImportError(
        `The dump holds more than ${MAX_DAY_HEARTBEATS} heartbeats on ${dateOf(day)} (UTC), more than a day of editing sends: it is not imported.`,
      );
    }
    found.add(h);
    if (found.named > MAX_DAY_NAMES) {
      throw new ImportError(
        `The dump names more than ${MAX_DAY_NAMES} different combinations of type, language, project, editor, operating system and application on ${dateOf(day)} (UTC), more than a day of editing does: it is not imported.`,
      );
    }
    // A day is complete once the dump has gone two days past it (and its successor day is known).
    const complete = Math.floor(this.latestSeen / DAY_MS) - 2;
    if (complete > this.creditedBefore) await this.creditDays(complete);
  }

  async finish(): Promise<void> {
    await this.creditDays(Infinity);
    await this.writeDays();
    await this.flushLive();
  }

  private async flushLive(): Promise<void> {
    const batch = this.live.list;
    this.live = new DistinctHeartbeats();
    await storeHeartbeats(this.db, this.user, batch);
  }

  /** Credits every waiting day before `before`. */
  private async creditDays(before: number): Promise<void> {
    const days = [...this.days.keys()].filter((d) => d < before).sort((a, b) => a - b);
    this.creditedBefore = Math.max(this.creditedBefore, Number.isFinite(before) ? before : this.creditedBefore);
    for (const day of days) {
      const beats = this.days.get(day)!;
      this.days.delete(day);
      const firstNext = Math.min(this.firstAfterCutoff, this.days.get(day + 1)?.earliest ?? Infinity);
      const deltas = new Deltas();
      const heartbeats = beats.credit(firstNext, this.user.timezone, deltas);
      // Whether this dump goes on past the day (so it knew what followed the day's last heartbeat).
      const continues = this.latestSeen >= (day + 1) * DAY_MS;
      const credits = deltas.credits();
      const count = credits.ide.length + credits.desktop.length;
      if (this.readyCredits + count > CREDITS_PER_WRITE) await this.writeDays();
      this.ready.push({ day, credits, heartbeats, continues });
      this.readyCredits += count;
      if (this.ready.length >= DAYS_PER_WRITE) await this.writeDays();
    }
  }

  /** Replaces what earlier imports credited for the ready days with what they credit now. */
  private async writeDays(): Promise<void> {
    if (this.ready.length === 0) return;
    const ready = this.ready;
    this.ready = [];
    this.readyCredits = 0;
    const d = importedDays;
    // Under the user's import lock: two imports never replace the same day at once (one import
    // per user runs at a time, but one given up as stuck may still be running somewhere).
    const changed = await this.db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`codetally:imports:${this.user.id}`}, 0))`);
      // Stored credits name projects as they count now (a rename rewrites them): so do these.
      const aliases = await lockedAliases(tx, this.user.id);
      for (const r of ready) r.credits = aliasedCredits(r.credits, aliases);
      const before = await rows<Omit<Day, 'credits'> & { credits: string }>(
        tx,
        sql`SELECT ${d.day} AS day, ${d.credits}::text AS credits, ${d.heartbeats} AS heartbeats, ${d.continues} AS continues FROM ${d}
            WHERE ${d.userId} = ${this.user.id}::uuid AND ${d.day} = ANY(${`{${ready.map((r) => r.day).join(',')}}`}::int[])`,
      );
      const stored = new Map(before.map((r): [number, Day] => [r.day, { ...r, credits: JSON.parse(r.credits) as Credits }]));
      const deltas = new Deltas();
      const replaced = ready.filter((r) => {
        const old = stored.get(r.day);
        return !old || (fuller(r, old) && (creditsKey(old.credits) !== creditsKey(r.credits) || old.heartbeats !== r.heartbeats || old.continues !== r.continues));
      });
      for (const r of replaced) {
        const old = stored.get(r.day);
        if (old) deltas.addCredits(old.credits, -1);
        deltas.addCredits(r.credits, 1);
      }
      if (replaced.length === 0) return false;
      const tuples = replaced.map((r) => [r.day, r.credits, r.heartbeats, r.continues]);
      await tx.execute(
        sql`INSERT INTO ${d} (${cols(d.userId, d.day, d.credits, d.heartbeats, d.continues)})
            SELECT ${this.user.id}::uuid, (e->>0)::int, e->1, (e->>2)::int, (e->>3)::boolean
            FROM jsonb_array_elements(${JSON.stringify(tuples)}::text::jsonb) AS e ORDER BY 2
            ON CONFLICT (${cols(d.userId, d.day)}) DO UPDATE
              SET ${col(d.credits)} = excluded.${col(d.credits)}, ${col(d.heartbeats)} = excluded.${col(d.heartbeats)}, ${col(d.continues)} = excluded.${col(d.continues)}`,
      );
      return deltas.write(tx, this.user.id);
    });
    if (changed) await announce(this.db, this.user.id);
  }
}
