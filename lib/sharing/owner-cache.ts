import type { UserChanges } from '../db/types';
import { perDatabase } from '../db/services';
import type { Db } from '../db/client';
import type { PublicOwner } from './owner';
import { cacheTally } from '../metrics/tally';

// Public owners cached in memory, so that a cached chart answer costs no database round trip. An
// entry goes as soon as its user changes (every write bumps the user's stats version, every
// settings change and deletion is announced: lib/db/changes.ts), and after a minute at the latest.
// With other processes on the database, a hit is served once what they committed before it has been
// received (one shared round trip); nothing is served while their changes cannot be received.

const ENTRY_MS = 60_000;
const MAX_ENTRIES = 10_000;
/** Hits and misses in the metrics (a `peek` that misses is followed by a `get`, which counts). */
const tally = cacheTally('public-owners');

export class OwnerCache {
  private byRef = new Map<string, { owner: PublicOwner; expires: number }>();
  private refsById = new Map<string, Set<string>>();
  /** Counts changes received; a lookup that overlapped a change of its user is not cached. */
  private seq = 0;
  private forgotAllAt = 0;
  private loading = 0;
  private changedAt = new Map<string, number>();

  constructor(private readonly changes: UserChanges) {
    changes.subscribe((userId) => this.forget(userId));
  }

  /**
   * The owner if it is in memory and may be served without a promise or the database: only when
   * no other process can change it (the embedded database); otherwise ask `get`.
   */
  peek(ref: string, now = Date.now()): PublicOwner | undefined {
    const hit = this.changes.shared ? undefined : this.cached(ref, now);
    if (hit) tally.hit++;
    return hit;
  }

  private cached(ref: string, now: number): PublicOwner | undefined {
    const hit = this.byRef.get(ref.toLowerCase()); // handles and UUIDs both match without regard to case
    return hit && hit.expires > now && this.changes.live ? hit.owner : undefined;
  }

  async get(ref: string, load: () => Promise<PublicOwner>, now = Date.now()): Promise<PublicOwner> {
    // Cached before and after receiving every change committed so far (a change drops the entry).
    if (this.cached(ref, now) && (await this.changes.heard())) {
      const hit = this.cached(ref, Date.now());
      if (hit) {
        tally.hit++;
        return hit;
      }
    }
    tally.miss++;
    const key = ref.toLowerCase();
    const start = this.seq;
    this.loading++;
    try {
      const owner = await load();
      const changedSince = this.forgotAllAt > start || (this.changedAt.get(owner.user.id) ?? 0) > start;
      if (this.changes.live && !changedSince) this.store(key, owner, now + ENTRY_MS);
      return owner;
    } finally {
      if (--this.loading === 0) this.changedAt.clear();
    }
  }

  private store(key: string, owner: PublicOwner, expires: number): void {
    this.drop(key);
    this.byRef.set(key, { owner, expires });
    const refs = this.refsById.get(owner.user.id) ?? new Set<string>();
    refs.add(key);
    this.refsById.set(owner.user.id, refs);
    if (this.byRef.size > MAX_ENTRIES) this.drop(this.byRef.keys().next().value!); // the oldest
  }

  private drop(key: string): void {
    const entry = this.byRef.get(key);
    if (!entry) return;
    this.byRef.delete(key);
    const refs = this.refsById.get(entry.owner.user.id);
    refs?.delete(key);
    if (refs?.size === 0) this.refsById.delete(entry.owner.user.id);
  }

  private forget(userId: string | null): void {
    this.seq++;
    if (userId === null) {
      this.forgotAllAt = this.seq;
      this.byRef.clear();
      this.refsById.clear();
      return;
    }
    if (this.loading > 0) this.changedAt.set(userId, this.seq);
    for (const key of this.refsById.get(userId) ?? []) this.drop(key);
  }
}

/** The owner cache of a database handle's process; undefined inside a transaction. */
export function ownerCacheOf(db: Db): OwnerCache | undefined {
  return perDatabase(db, 'ownerCache', (services) => new OwnerCache(services.changes));
}
