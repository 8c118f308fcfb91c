import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../lib/auth/password';

describe('password hashing', () => {
  it('keeps a salted scrypt hash that only the same password matches', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b); // a fresh salt each time
    expect(a).not.toContain('correct');
    await expect(verifyPassword('correct horse battery', a)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterz', a)).resolves.toBe(false);
    await expect(verifyPassword('', a)).resolves.toBe(false);
  });

  it('fails for an unknown account after doing the same work', async () => {
    await expect(verifyPassword('anything at all', undefined)).resolves.toBe(false);
    await expect(verifyPassword('anything at all', 'plain-text-is-not-a-hash')).resolves.toBe(false);
  });
});
