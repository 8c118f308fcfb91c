// What a heartbeat of the WakaTime-compatible API is once checked and reduced to what is stored
// (lib/wakatime/heartbeat-check.ts), the time limits of the heartbeat routes, and what tells two
// heartbeats apart.

export const MAX_HEARTBEATS = 1000;
/** How late a heartbeat may arrive. */
export const LATE_LIMIT_MS = 14 * 86_400_000;
/** How far ahead of the server's clock a heartbeat may be. */
export const AHEAD_LIMIT_MS = 3_600_000;
/** The longest gap between two heartbeats that counts as time spent. */
export const GAP_MS = 15 * 60_000;

export const heartbeatTypes = ['file', 'app', 'domain', 'url', 'event'] as const;

/** A heartbeat as it is stored: no entity (a keyed digest), nothing of the file but its language and project. */
export interface Heartbeat {
  at: number;
  type: (typeof heartbeatTypes)[number];
  digest: number;
  category: string;
  language: string;
  project: string;
  editor: string;
  os: string;
  app: string;
}

/** What became of one heartbeat of a request: accepted, or what is wrong with it (its answer: heartbeatAnswer). */
export type ItemResult = Heartbeat | string;

/** An entity's digest as the heartbeat's id and the statement's batch write it: in hexadecimal. */
export const digestHex = (digest: number) => digest.toString(16);

/**
 * What tells two heartbeats apart (and the id a heartbeat is answered with:
 * heartbeatAnswer): the same time, type and entity are the same heartbeat.
 */
export const heartbeatKey = (h: { at: number; type: string; digest: number }) => `${h.at}-${h.type}-${digestHex(h.digest)}`;
