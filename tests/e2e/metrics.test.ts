import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

// GET /metrics on the built server: what only a real server shows. Next bundles the route files,
// the database client and the metrics in several copies of each module; a count moved by the copy
// that served a write must show in the one that answers the scrape (the registry is one per
// process, lib/metrics/registry.ts), and the page cache (lib/cache/next-handler.mjs, loaded by
// Next outside the bundles) counts into the same place. A server of its own, with METRICS_TOKEN.

const ADMIN_TOKEN = 'e2e-admin-token-0123456789';
const METRICS_TOKEN = 'e2e-metrics-token-0123456789';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_TOKEN, METRICS_TOKEN, SYNC_RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(async () => {
  await server?.stop();
  server?.remove();
});

const scrape = async (token = METRICS_TOKEN) => fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });

/** A sample's value, its labels given in any order; 0 when absent. */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('GET /metrics on the real server', () => {
  it('answers only its token, as text for Prometheus, and is kept from crawlers', async () => {
    expect((await scrape('wrong-metrics-token-0123456789')).status).toBe(401);
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(await (await fetch(`${server.baseUrl}/robots.txt`)).text()).toMatch(/^Disallow: \/metrics$/m);
  });

  it('counts the requests, writes and heartbeats other routes served, in the copy that answers the scrape', async () => {
    const api = `${server.baseUrl}/main/api/v1`;
    const before = await (await scrape()).text();
    const created = await fetch(`${api}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ handle: `metrics${Math.random().toString(36).slice(2, 8)}` }),
    });
    expect(created.status).toBe(201);
    const { user, token } = (await created.json()) as { user: { id: string; handle: string }; token: string };
    const write = await fetch(`${api}/sync/activities`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ activities: [{ language: 'E2eMetricsLang', project_name: 'e2e-metrics-project', time: 30, date: '2026-01-02', hour: 4 }] }),
    });
    expect(write.status).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    const bulk = await fetch(`${server.baseUrl}/api/wakatime/v1/users/current/heartbeats.bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify([
        { entity: 'e2e-metrics.go', time: now - 20, language: 'E2eMetricsLang', project: 'e2e-metrics-project', type: 'file', category: 'coding' },
        { entity: 'e2e-metrics.go', time: now - 10, language: 'E2eMetricsLang', project: 'e2e-metrics-project', type: 'file', category: 'coding' },
      ]),
    });
    expect(bulk.status).toBe(201);
    // A public page twice: Next's cache handler counts its lookups with the rest.
    for (let i = 0; i < 2; i++) expect((await fetch(`${server.baseUrl}/pricing`)).status).toBe(200);

    const after = await (await scrape()).text();
    const moved = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    const requests = 'codetally_http_request_duration_seconds_count';
    expect(moved(requests, { route: '/main/api/v1/admin/users', method: 'POST', status: '2xx' })).toBe(1);
    expect(moved(requests, { route: '/main/api/v1/sync/activities', method: 'POST', status: '2xx' })).toBe(1);
    expect(moved(requests, { route: '/api/wakatime/v1/users/[user]/heartbeats.bulk', method: 'POST', status: '2xx' })).toBe(1);
    expect(moved(requests, { route: '/metrics', method: 'GET', status: '2xx' })).toBe(1);
    expect(moved('codetally_ingest_buckets_total', { kind: 'ide', outcome: 'stored' })).toBe(1);
    expect(moved('codetally_heartbeats_total', { outcome: 'accepted' })).toBe(2);
    expect(moved('codetally_db_statement_duration_seconds_count')).toBeGreaterThan(3);
    expect(moved('codetally_cache_lookups_total', { cache: 'page-cache' })).toBeGreaterThanOrEqual(2);
    expect(value(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    for (const secret of [user.id, user.handle, token, 'E2eMetricsLang', 'e2e-metrics-project', 'e2e-metrics.go']) expect(after).not.toContain(secret);
  });
});
