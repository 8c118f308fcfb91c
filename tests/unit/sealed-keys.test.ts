import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isEditorKey, openKey, sealKey, sealKeyIfKeyed } from '@/lib/auth/sealed-keys';
import { generateToken, hashToken } from '@/lib/auth/tokens';
import { resetConfig } from '@/lib/config';
import { senderName, sinceText } from '@/lib/wakatime/sending/status';

// An editor key kept to be shown again: sealed under a key derived from the session key, bound to
// its own row's hash, opened by nothing else; and the words of Settings, Sending.

const saved = { ...process.env };
const useSecret = (secret: string) => {
  process.env = { ...saved, AUTH_SECRET: secret };
  resetConfig();
};
beforeEach(() => useSecret('a'.repeat(32)));
afterEach(() => {
  process.env = { ...saved };
  resetConfig();
});

describe('an editor key kept sealed', () => {
  it('opens to the key on its own row only, under the session key it was sealed with', () => {
    const { token, hash } = generateToken('uuid');
    const sealed = sealKey(token);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(token);
    expect(sealKey(token)).not.toBe(sealed); // a fresh IV each time
    expect(openKey(sealed, hash)).toBe(token);
    // Moved onto another row: its hash is the associated data, so it does not open.
    expect(openKey(sealed, generateToken('uuid').hash)).toBeNull();
    // Tampered with, truncated, or of another version: null, never a throw.
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(openKey(`v1.${raw.toString('base64url')}`, hash)).toBeNull();
    expect(openKey('v1.AAAA', hash)).toBeNull();
    expect(openKey(`v2.${sealed.slice(3)}`, hash)).toBeNull();
    expect(openKey('', hash)).toBeNull();
    // A new session key: the sealed key is not shown again (the key itself keeps working).
    useSecret('b'.repeat(32));
    expect(openKey(sealed, hash)).toBeNull();
    expect(hashToken(token)).toBe(hash);
  });

  it('is not kept where the process has no session key (a command with DATABASE_URL and no AUTH_SECRET): the key is shown once', () => {
    const { token, hash } = generateToken('uuid');
    const sealed = sealKeyIfKeyed(token)!;
    expect(openKey(sealed, hash)).toBe(token);
    process.env = { ...saved, DATABASE_URL: 'postgres://db/codetally' };
    delete process.env.AUTH_SECRET;
    resetConfig();
    expect(sealKeyIfKeyed(token)).toBeNull();
    expect(openKey(sealed, hash)).toBeNull();
  });

  it('is kept for keys in WakaTime\'s format with editor scopes only', () => {
    expect(isEditorKey('uuid', ['sync', 'stats'])).toBe(true);
    expect(isEditorKey('uuid', ['sync'])).toBe(true);
    expect(isEditorKey('uuid', ['sync', 'badges'])).toBe(false);
    expect(isEditorKey('uuid', ['sync', 'account'])).toBe(false);
    expect(isEditorKey('uuid', [])).toBe(false);
    expect(isEditorKey('ct', ['sync'])).toBe(false);
  });
});

describe('Settings, Sending', () => {
  it('names senders as the dashboard names editors and agents', () => {
    expect(senderName('VS Code', '')).toBe('VS Code');
    expect(senderName('Claude Code', '')).toBe('Claude Code (AI agent)');
    expect(senderName('VS Code', 'Claude')).toBe('Claude Code (AI agent) in VS Code');
    expect(senderName('Cursor', 'Copilot')).toBe('Copilot in Cursor');
    expect(senderName('Chrome', '')).toBe('Chrome (browser)');
    expect(senderName('', '')).toBe('Unknown editor');
  });

  it('says how long ago', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(sinceText('2026-03-10T11:59:30Z', now)).toBe('just now');
    expect(sinceText('2026-03-10T11:55:00Z', now)).toBe('5 minutes ago');
    expect(sinceText('2026-03-10T09:00:00Z', now)).toBe('3 hours ago');
    expect(sinceText('2026-03-09T11:00:00Z', now)).toBe('1 day ago');
    expect(sinceText('2026-03-01T12:00:00Z', now)).toBe('9 days ago');
    expect(sinceText('2026-03-10T12:05:00Z', now)).toBe('just now'); // a clock ahead
  });
});
