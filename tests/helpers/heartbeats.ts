import { knownCategory } from '../../lib/activity';
import { storedDimensions } from './api';

// The reference of heartbeat time: each gap of at most 15 minutes to the next heartbeat (in time
// order, duplicates once) is credited to the earlier one, cut at the local hours of a timezone of
// fixed offset.

export interface Beat {
  entity: string;
  time: number;
  language: string;
  project: string;
  category: string;
}

/** Totals per [local date, hour, language, project, category] of the unique stream in order. */
export function referenceTotals(beats: Beat[], offsetMs: number): Map<string, number> {
  const unique = [...new Map(beats.map((b) => [`${b.time}/${b.entity}`, b])).values()];
  const ordered = unique.sort((a, b) => a.time - b.time);
  const totals = new Map<string, number>();
  for (const [i, b] of ordered.entries()) {
    const next = ordered[i + 1];
    if (!next || next.time - b.time > 900) continue;
    for (let ms = b.time * 1000; ms < next.time * 1000; ) {
      const local = new Date(ms + offsetMs);
      const hourEnd = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), local.getUTCHours() + 1) - offsetMs;
      const end = Math.min(next.time * 1000, hourEnd);
      const key = JSON.stringify([local.toISOString().slice(0, 10), local.getUTCHours(), b.language, b.project, knownCategory(b.category)]);
      totals.set(key, (totals.get(key) ?? 0) + end - ms);
      ms = end;
    }
  }
  return totals;
}

/** What is stored for a user, in the reference's keys. */
export async function storedTotals(userId: string): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  for (const r of await storedDimensions(userId)) {
    if (r.millis === 0) continue;
    const key = JSON.stringify([r.date, r.hour, r.language, r.project, r.category]);
    totals.set(key, (totals.get(key) ?? 0) + r.millis);
  }
  return totals;
}
