// What a heartbeat of the WakaTime-compatible API is once checked and reduced to what is stored
// (lib/wakatime/sending/heartbeat-check.ts), the time limits of the heartbeat routes, and what tells two
// heartbeats apart.

export const MAX_HEARTBEATS = 1000;
/** How long heartbeats are kept by their time: a heartbeat older than this arrives late (lib/wakatime/sending/heartbeat-store.ts). */
export const LATE_LIMIT_MS = 14 * 86_400_000;
/** The earliest time a heartbeat may have: the earliest date a bucket may carry (lib/ingest/schemas.ts). */
export const EARLIEST_HEARTBEAT_MS = Date.parse('2000-01-01T00:00:00Z');
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
  /** The machine (X-Machine-Name, else the heartbeat's `hostname`); '' unknown. */
  machine: string;
  /** The AI agent named in the User-Agent; '' none. */
  agent: string;
  /** WakaTime's ai_line_changes and human_line_changes (net lines; may be negative). */
  aiLines: number;
  humanLines: number;
  /** The heartbeat's is_write (a save) as sent: only `true` is true; absent or anything else is false. */
  isWrite?: boolean;
  /**
   * What an AI agent reported with it (wakatime-cli's ai_session, ai_input_tokens,
   * ai_output_tokens, ai_prompt_length; decision 0037), absent or 0 when nothing: the session as a
   * keyed digest of its id, and the model named in the User-Agent ('' none).
   */
  aiSession?: number;
  aiInputTokens?: number;
  aiOutputTokens?: number;
  aiPromptLength?: number;
  aiModel?: string;
}

/** A User-Agent a request's heartbeats came with, and what it says (lib/wakatime/sending/user-agent.ts). */
export interface SeenAgent {
  value: string;
  editor: string;
  os: string;
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
