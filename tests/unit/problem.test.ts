import { describe, expect, it, vi } from 'vitest';
import { isDatabaseUnavailable, isTransientConflict } from '../../lib/db/errors';
import { ApiError, errorResponse } from '../../lib/http/problem';

describe('error answers', () => {
  it('turns an ApiError into problem+json with its status, code and headers', async () => {
    const res = errorResponse(new ApiError('rate_limited', 'slow down', { headers: { 'retry-after': '7' } }));
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({ type: '/docs/errors#rate_limited', title: 'Too many requests', status: 429, code: 'rate_limited', detail: 'slow down' });
  });

  it('answers an unexpected failure with a bare 500 that leaks nothing, and logs it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const err = Object.assign(new Error('relation "secret_table" does not exist'), { code: '42P01', query: 'SELECT * FROM secret_table' });
    const res = errorResponse(err);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/secret_table|42P01|SELECT|at /);
    expect(JSON.parse(text)).toMatchObject({ status: 500, code: 'internal' });
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });

  it('recognises a database that does not answer, however deep the cause', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '57P01' }) }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('plain'))).toBe(false);
  });

  it('answers 503 with Retry-After when the database does not answer', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = errorResponse(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(await res.text()).not.toContain('127.0.0.1');
    log.mockRestore();
  });

  it('answers 503 with a short Retry-After when PostgreSQL rolled the statement back for a conflict', async () => {
    const log = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const code of ['40P01', '40001', '55P03']) {
      const err = new Error('write failed', { cause: Object.assign(new Error('deadlock detected'), { code }) });
      expect(isTransientConflict(err)).toBe(true);
      const res = errorResponse(err);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toMatchObject({ status: 503, code: 'unavailable' });
    }
    expect(isTransientConflict(Object.assign(new Error('x'), { code: '23505' }))).toBe(false);
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});
