import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, poolSizeOf } from '../../lib/config';

describe('configuration', () => {
  it('fills in the defaults of the contract', () => {
    const cfg = parseConfig({});
    expect(cfg.PORT).toBe(3000);
    expect(cfg.DATABASE_URL).toBeUndefined();
    expect(cfg.SYNC_RATE_LIMIT_PER_MINUTE).toBe(120);
  });

  it('names the bad variable and the rule', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT: must be a whole number/);
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres/);
  });

  it('refuses an upload limit larger than the room all uploads share', () => {
    expect(() => parseConfig({ IMPORT_MAX_BYTES: '2000', IMPORT_SPOOL_MAX_BYTES: '1000' })).toThrow(/IMPORT_MAX_BYTES: must be at most IMPORT_SPOOL_MAX_BYTES \(1000\)/);
    // The default limit (4 GiB) against a smaller room.
    expect(() => parseConfig({ IMPORT_SPOOL_MAX_BYTES: '1000000' })).toThrow(/IMPORT_MAX_BYTES: must be at most IMPORT_SPOOL_MAX_BYTES/);
    expect(parseConfig({ IMPORT_MAX_BYTES: '1000', IMPORT_SPOOL_MAX_BYTES: '1000' }).IMPORT_MAX_BYTES).toBe(1000);
  });

  it('takes the pool size from the database URL', () => {
    const url = 'postgres://app@db1:5432,db2:5432/codetally?sslmode=require&max=25';
    expect(parseConfig({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    expect(poolSizeOf(url)).toBe(25);
    expect(poolSizeOf('postgres://app@db/codetally')).toBeUndefined();
    for (const max of ['0', '-1', 'ten', '', '2.5']) {
      expect(() => parseConfig({ DATABASE_URL: `postgres://app@db/codetally?max=${max}` })).toThrow(/DATABASE_URL: max \(the pool size\)/);
    }
  });
  it('takes mail with SMTP_URL and MAIL_FROM together, and SITE_URL for its links', () => {
    const mail = { SMTP_URL: 'smtps://user:secret@mail.example:465', MAIL_FROM: 'Codetally <codetally@example.com>', SITE_URL: 'https://codetally.example' };
    expect(parseConfig(mail)).toMatchObject(mail);
    expect(parseConfig({ ...mail, MAIL_FROM: 'codetally@example.com' }).MAIL_FROM).toBe('codetally@example.com');
    expect(() => parseConfig({ ...mail, MAIL_FROM: undefined })).toThrow(/MAIL_FROM: SMTP_URL and MAIL_FROM go together/);
    expect(() => parseConfig({ ...mail, SMTP_URL: undefined })).toThrow(/SMTP_URL: SMTP_URL and MAIL_FROM go together/);
    expect(() => parseConfig({ ...mail, SITE_URL: undefined })).toThrow(/SITE_URL: is required with SMTP_URL/);
    expect(() => parseConfig({ ...mail, SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(() => parseConfig({ ...mail, MAIL_FROM: 'not an address' })).toThrow(/MAIL_FROM: must be an address/);
    expect(() => parseConfig({ ...mail, MAIL_FROM: 'a@b.example\r\nBcc: x@y.example' })).toThrow(/MAIL_FROM/);
    expect(parseConfig({}).SMTP_URL).toBeUndefined();
  });
});
