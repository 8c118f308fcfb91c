import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const scopes = ['sync', 'badges', 'account'] as const;
export type Scope = (typeof scopes)[number];

/** What a token for an editor plugin or the desktop agent may do. */
export const pluginScopes: Scope[] = ['sync', 'badges'];

export const tokenPrefix = 'ct_';
const tokenPattern = /^ct_[A-Za-z0-9_-]{43}$/;

/** A new token: `ct_` and 256 random bits in base64url. Shown once; only its hash is kept. */
export function generateToken(): { token: string; prefix: string; hash: string } {
  const token = tokenPrefix + randomBytes(32).toString('base64url');
  return { token, prefix: token.slice(0, 11), hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function looksLikeToken(value: string): boolean {
  return tokenPattern.test(value);
}

/** Compares two secrets in constant time (hashing first makes the lengths equal). */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
