import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/config';
import { lsnOf } from '../../lib/db/replicas';

// DATABASE_REPLICA_URL as an operator writes it, and what it cannot go with; WAL positions as
// PostgreSQL prints them, compared as numbers (text order would put 9/0 after 10/0).

describe('DATABASE_REPLICA_URL', () => {
  const primary = 'postgres://app@db-primary:5432/codetally';

  it('takes comma-separated PostgreSQL URLs, and REPLICA_MAX_LAG_SECONDS defaults to 10', () => {
    const cfg = parseConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URL: ' postgres://app@db-r1/codetally , postgresql://app@db-r2:5433/codetally,' });
    expect(cfg.DATABASE_REPLICA_URL).toEqual(['postgres://app@db-r1/codetally', 'postgresql://app@db-r2:5433/codetally']);
    expect(cfg.REPLICA_MAX_LAG_SECONDS).toBe(10);
    expect(parseConfig({ DATABASE_URL: primary }).DATABASE_REPLICA_URL).toBeUndefined();
  });

  it('is refused with the embedded database, behind a transaction pooler, or when not a URL', () => {
    expect(() => parseConfig({ DATABASE_REPLICA_URL: 'postgres://app@db-r1/codetally' })).toThrow(/DATABASE_REPLICA_URL: needs DATABASE_URL/);
    expect(() =>
      parseConfig({ DATABASE_URL: primary, DATABASE_POOLER: 'transaction', DATABASE_MIGRATION_URL: primary, DATABASE_REPLICA_URL: 'postgres://app@db-r1/codetally' }),
    ).toThrow(/DATABASE_REPLICA_URL: cannot be used with DATABASE_POOLER=transaction/);
    expect(() => parseConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URL: 'db-r1:5432' })).toThrow(/DATABASE_REPLICA_URL/);
    expect(() => parseConfig({ DATABASE_URL: primary, REPLICA_MAX_LAG_SECONDS: '0' })).toThrow(/REPLICA_MAX_LAG_SECONDS/);
  });
});

describe('lsnOf', () => {
  it('orders WAL positions as PostgreSQL does', () => {
    expect(lsnOf('0/16B3A40')).toBe(0x16b3a40n);
    expect(lsnOf('9/FFFFFFFF') < lsnOf('10/0')).toBe(true);
    expect(lsnOf('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
  });
});
