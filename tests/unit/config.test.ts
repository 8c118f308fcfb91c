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

  it('takes the pool size from the database URL', () => {
    const url = 'postgres://app@db1:5432,db2:5432/codetally?sslmode=require&max=25';
    expect(parseConfig({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    expect(poolSizeOf(url)).toBe(25);
    expect(poolSizeOf('postgres://app@db/codetally')).toBeUndefined();
    for (const max of ['0', '-1', 'ten', '', '2.5']) {
      expect(() => parseConfig({ DATABASE_URL: `postgres://app@db/codetally?max=${max}` })).toThrow(/DATABASE_URL: max \(the pool size\)/);
    }
  });
});
