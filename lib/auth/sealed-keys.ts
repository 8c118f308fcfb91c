import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { hashToken, wakatimeScopes, type Scope, type TokenFormat } from './tokens';
import { ConfigError } from '../config';
import { authSecret } from './secret';

// An editor key its owner can see again. Tokens are stored as their hash only (./tokens.ts), so
// a second machine would need a key of its own; WakaTime shows the key again instead. Here only
// editor keys are kept so: WakaTime's format, and no scope beyond what a WakaTime plugin uses
// (sync, stats): a key that can change the account, its tokens or its badges is never shown twice.
// Such a key is also stored sealed with AES-256-GCM under a key derived (HKDF) from the session
// key, which the database never holds (./secret.ts): a leaked backup alone reveals no key, and a
// new session key makes every sealed key unreadable (they keep working; they are not shown again).
// The token's hash is the sealed value's associated data, so a sealed value opens only on its own
// row. Only the owner's session opens one (the dashboard's "Show key"); no API route does.
// The sealing itself (seal, unseal: one key per purpose) seals relays' keys too
// (lib/wakatime/relaying/sealed.ts).

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The sealing key of one purpose, derived from the session key. */
function sealingKey(purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', authSecret(), 'codetally', purpose, 32));
}

/**
 * `plain` sealed with AES-256-GCM under the key of `purpose`, bound to `boundTo` (its associated
 * data: the value opens only with the same): `v1.<base64url of iv, tag, ciphertext>`. Throws
 * ConfigError where this process has no session key.
 */
export function seal(purpose: string, plain: string, boundTo: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(purpose), iv);
  cipher.setAAD(Buffer.from(boundTo));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** What a sealed value holds, when it opens under the current session key for `purpose` and `boundTo`; null otherwise. */
export function unseal(purpose: string, sealed: string, boundTo: string): string | null {
  const [version, data] = sealed.split('.');
  if (version !== VERSION || !data) return null;
  const raw = Buffer.from(data, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(purpose), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(boundTo));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

const EDITOR_KEYS = 'editor keys shown again';

/** Whether a token of this format and these scopes is an editor key, kept to be shown again. */
export function isEditorKey(format: TokenFormat, scopes: readonly Scope[]): boolean {
  return format === 'uuid' && scopes.length > 0 && scopes.every((s) => wakatimeScopes.includes(s));
}

/** `token` sealed, bound to its hash: `v1.<base64url of iv, tag, ciphertext>`. */
export function sealKey(token: string): string {
  return seal(EDITOR_KEYS, token, hashToken(token));
}

/**
 * sealKey, or null where this process has no session key to seal with (an operator's command run
 * with DATABASE_URL and no AUTH_SECRET): the key is then made as any token, shown once.
 */
export function sealKeyIfKeyed(token: string): string | null {
  try {
    return sealKey(token);
  } catch (err) {
    if (err instanceof ConfigError) return null;
    throw err;
  }
}

/**
 * The token a sealed value holds, when it opens with the current session key on the row whose
 * hash is `hash` and is that row's token; null otherwise (another session key, another row).
 */
export function openKey(sealed: string, hash: string): string | null {
  const token = unseal(EDITOR_KEYS, sealed, hash);
  return token !== null && hashToken(token) === hash ? token : null;
}
