import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * `sync` writes activity, `badges` manages badges, `account` the account itself, `stats` reads
 * the owner's own figures, private ones included (the WakaTime-compatible read routes).
 */
export const scopes = ['sync', 'badges', 'account', 'stats'] as const;
export type Scope = (typeof scopes)[number];

/**
 * What each scope lets a token do and what it does not, as the dashboard's token form and the API
 * reference say it: a person choosing scopes for a key they hand to a program (a README Action, a
 * launcher) reads here what that program could do with it. `stats` is the reader's scope: it
 * changes nothing of the account (goals aside) and never learns which projects are hidden.
 */
export const scopeTexts: Record<Scope, string> = {
  sync: "send your activity, and read today's total for your editor's status bar; no other figure",
  badges: 'make, list and delete README badges of your totals (whoever holds the token can read those figures that way); nothing else',
  stats:
    'read your own figures, private ones included, for the tools made for WakaTime (Raycast, wakatime-client, README Actions); it changes nothing (no goals, no settings, no project changes, no export) and never names a hidden project (its time counts in totals only)',
  account: 'everything the dashboard does: settings, tokens, goals, project changes (rename, merge, split, hide), import, export and deleting the account',
};

/** What a token for an editor plugin or the desktop agent may do. */
export const pluginScopes: Scope[] = ['sync', 'badges'];
/** What a key for WakaTime plugins may do: send heartbeats and read the status bar and summaries. */
export const wakatimeScopes: Scope[] = ['sync', 'stats'];

/**
 * Who may read today's status bar: `stats`, or `sync`. A plugin shows today's time beside the
 * code it sends (WakaTime's plugins do so with the key they send with), so a token that may send
 * may read that one day of its owner's figures; the rest of the figures stay behind `stats`.
 */
export const statusBarScopes: ScopeRule = ['stats', 'sync'];

/** What a route asks of a token: a scope, or any one of several. */
export type ScopeRule = Scope | readonly Scope[];

/** The scopes that satisfy a rule, any one of them enough. */
export const anyOf = (rule: ScopeRule): readonly Scope[] => (typeof rule === 'string' ? [rule] : rule);

/** Whether a token holding `held` satisfies a route's rule. */
export const satisfies = (held: readonly Scope[], rule: ScopeRule): boolean => anyOf(rule).some((scope) => held.includes(scope));

/** `ct`: Codetally's own format; `uuid`: the key format WakaTime plugins and wakatime-cli accept. */
export const tokenFormats = ['ct', 'uuid'] as const;
export type TokenFormat = (typeof tokenFormats)[number];

export const tokenPrefix = 'ct_';
const tokenPattern = /^ct_[A-Za-z0-9_-]{43}$/;
// A version 4 UUID (122 random bits), in any case, also with WakaTime's `waka_` prefix.
const uuidKeyPattern = /^(?:waka_)?([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})$/i;

/**
 * A new token, shown once; only its hash is stored. `ct`: `ct_` and 256 random bits in base64url;
 * `uuid`: a random version 4 UUID.
 */
export function generateToken(format: TokenFormat = 'ct'): { token: string; prefix: string; hash: string } {
  const token = format === 'uuid' ? randomUUID() : tokenPrefix + randomBytes(32).toString('base64url');
  return { token, prefix: token.slice(0, format === 'uuid' ? 8 : 11), hash: hashToken(token) };
}

/** The hash stored for a token. A UUID key hashes alike in any case and with or without `waka_`. */
export function hashToken(token: string): string {
  const uuid = uuidKeyPattern.exec(token);
  return createHash('sha256')
    .update(uuid ? uuid[1].toLowerCase() : token)
    .digest('hex');
}

/** What a shown prefix can be (the start of either format): only such a string names a token. */
export function looksLikeTokenPrefix(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(value);
}

export function looksLikeToken(value: string): boolean {
  return tokenPattern.test(value) || uuidKeyPattern.test(value);
}

/** Compares two secrets in constant time (hashing first makes the lengths equal). */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
