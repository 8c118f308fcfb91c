import { getPathMatch } from 'next/dist/shared/lib/router/utils/path-match';
import { describe, expect, it } from 'vitest';
import { isApiPath } from '@/lib/http/api-paths';
import { dataHeaders, pageHeaders, siteHeaderRules } from '@/lib/http/site-headers';
import { wakatimeAliasRewrites } from '@/lib/wakatime/paths';

// The API's paths are one list (lib/http/api-paths.ts): the headers Next gives an answer and what
// the proxy takes for the API both read it, so that a path plugins use (WakaTime's and Wakapi's
// layouts) never gets a page's headers. The black-box suite checks the real server
// (tests/e2e/hardening.test.ts); here, every alias, as Next matches `headers()` sources.

const apiExamples = [
  '/main/api/v1/health',
  '/api/wakatime/v1/users/current/statusbar/today',
  '/api/v1/users/current/heartbeats.bulk',
  '/api/compat/wakatime/v1/users/current/stats/last_7_days',
  '/api/users/current/heartbeats.bulk',
  '/api/heartbeat',
  '/api/heartbeats',
];
const pageExamples = ['/', '/pricing', '/u/someone', '/dashboard/settings', '/api', '/api/heartbeatsx', '/apiary', '/docs/api', '/api/heartbeat/x'];

/** The headers Next gives `path` under siteHeaderRules (later rules win, as in Next). */
function headersOf(path: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of siteHeaderRules()) {
    if (getPathMatch(rule.source, { strict: true })(path)) for (const { key, value } of rule.headers) headers[key] = value;
  }
  return headers;
}

describe('the API\'s paths', () => {
  it('hold every path the WakaTime-compatible API is rewritten from', () => {
    for (const { source } of wakatimeAliasRewrites) {
      const example = source.replace(':path*', 'users/current/heartbeats.bulk');
      expect([source, isApiPath(example)]).toEqual([source, true]);
    }
  });

  it('are the API\'s, with data headers and never a page\'s; pages keep theirs', () => {
    for (const path of apiExamples) {
      expect([path, isApiPath(path)]).toEqual([path, true]);
      const headers = headersOf(path);
      expect([path, headers['Content-Security-Policy']]).toEqual([path, dataHeaders['Content-Security-Policy']]);
      expect([path, headers['X-Frame-Options']]).toEqual([path, undefined]);
    }
    for (const path of pageExamples) {
      expect([path, isApiPath(path)]).toEqual([path, false]);
      expect([path, headersOf(path)]).toEqual([path, expect.objectContaining(pageHeaders)]);
    }
  });
});
