// What a public surface may know of a user (lib/sharing/gate.ts decides who that is).

/** What anyone may see of a user: never an email, a token or a setting. */
export interface PublicUser {
  id: string;
  handle: string;
  display_name: string;
}

/** A user whose profile is public, with what they share. */
export interface PublicOwner {
  user: PublicUser;
  timezone: string;
  /** What the owner shares besides their totals: ai (AI-assisted coding) and machines (their names) only by their own settings. */
  shares: { languages: boolean; editors: boolean; apps: boolean; ai: boolean; machines: boolean };
  /** Changes with every write of the user's activity: per-user caches key on it. */
  statsVersion: number;
  /** The window of history the owner's plan shows (null: all of it; absent: read when needed): no read shows an older day. */
  historyDays?: number | null;
}
