import { describe, expect, it } from 'vitest';
import { openApiDocument } from '@/lib/openapi';
import { wakatimeAliasRewrites } from '@/lib/wakatime/paths';
import { readmeCards } from '@/lib/web/public/readme-cards';

// The README card setups name each tool's own parameters; from them each tool builds its URLs
// (as its source does), and every one of those must be a route this site documents, under
// WakaTime's path layout (/api/v1), the one next.config.ts rewrites to the WakaTime-compatible API.

const origin = 'https://codetally.example';
const cards = Object.fromEntries(readmeCards({ origin, host: 'codetally.example', handle: 'Ann Lee' }).map((c) => [c.id, c.snippet]));
/** A `KEY: value` line of a YAML snippet. */
const setting = (snippet: string, key: string) => new RegExp(`^\\s*${key}: (.+)$`, 'm').exec(snippet)?.[1];

const doc = openApiDocument() as { paths: Record<string, { servers?: { url: string }[]; get?: unknown; post?: unknown }> };
/** The documented operation a GET of `url` reaches, by server and path template. */
function documentedGet(url: string): string | undefined {
  const { pathname } = new URL(url);
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const server of item.servers ?? []) {
      const pattern = new RegExp(`^${server.url}${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      if (pattern.test(pathname) && item.get) return `${server.url}${template}`;
    }
  }
  return undefined;
}

describe('README card setups', () => {
  it('github-readme-stats: username and api_domain (a host), read at https://{api_domain}/api/v1/users/{username}/stats', () => {
    const card = new URL(/\((https:\/\/github-readme-stats[^)]+)\)/.exec(cards['github-readme-stats'])![1]);
    expect(card.searchParams.get('username')).toBe('Ann Lee');
    expect(card.searchParams.get('api_domain')).toBe('codetally.example');
    const asked = `https://${card.searchParams.get('api_domain')}/api/v1/users/${encodeURIComponent(card.searchParams.get('username')!)}/stats?is_including_today=true`;
    expect(documentedGet(asked)).toBe('/api/v1/users/{user}/stats');
  });

  it('waka-readme: API_BASE_URL, to which it appends /v1/users/current/stats/{TIME_RANGE}', () => {
    const base = setting(cards['waka-readme'], 'API_BASE_URL')!;
    expect(setting(cards['waka-readme'], 'WAKATIME_API_KEY')).toBe('${{ secrets.WAKATIME_API_KEY }}');
    expect(documentedGet(`${base.replace(/\/$/, '')}/v1/users/current/stats/${setting(cards['waka-readme'], 'TIME_RANGE')}`)).toBe('/api/v1/users/{user}/stats/{range}');
  });

  it('waka-readme-stats: WAKATIME_API_URL, to which it appends users/current/stats/last_7_days and users/current/all_time_since_today', () => {
    const base = setting(cards['waka-readme-stats'], 'WAKATIME_API_URL')!;
    expect(base.endsWith('/')).toBe(true);
    expect(documentedGet(`${base}users/current/stats/last_7_days?api_key=k`)).toBe('/api/v1/users/{user}/stats/{range}');
    expect(documentedGet(`${base}users/current/all_time_since_today?api_key=k`)).toBe('/api/v1/users/{user}/all_time_since_today');
  });

  it('metrics: plugin_wakatime_url, to which it appends /api/v1/users/{plugin_wakatime_user}/stats/{range}', () => {
    const url = setting(cards.metrics, 'plugin_wakatime_url')!;
    expect(url).toBe(origin);
    expect(documentedGet(`${url}/api/v1/users/${setting(cards.metrics, 'plugin_wakatime_user')}/stats/last_7_days?api_key=k`)).toBe('/api/v1/users/{user}/stats/{range}');
  });

  it('/api/v1 is the rewrite to the WakaTime-compatible routes, and a server of each of them; Wakapi\'s /api of users/... and the heartbeat routes', () => {
    expect(wakatimeAliasRewrites).toContainEqual({ source: '/api/v1/:path*', destination: '/api/wakatime/v1/:path*' });
    expect(wakatimeAliasRewrites).toContainEqual({ source: '/api/users/:path*', destination: '/api/wakatime/v1/users/:path*' });
    const wakatimePaths = Object.entries(doc.paths).filter(([, item]) => item.servers?.[0]?.url === '/api/wakatime/v1');
    expect(wakatimePaths.length).toBeGreaterThan(8);
    for (const [path, item] of wakatimePaths) {
      const wakapi = path.startsWith('/users/') || path.startsWith('/heartbeats');
      expect([path, item.servers!.map((s) => s.url)]).toEqual([path, ['/api/wakatime/v1', '/api/v1', ...(wakapi ? ['/api'] : [])]]);
    }
  });
});
