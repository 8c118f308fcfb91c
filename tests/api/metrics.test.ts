import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GET as scrapeRoute, POST as postToMetrics } from '@/app/metrics/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { issueToken } from '@/lib/accounts/tokens';
import { resetConfig } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { imports } from '@/lib/db/schema';
import { call, daysFromToday, newUser } from '../helpers/api';

// GET /metrics: off without METRICS_TOKEN, for its holder only, and what it counts moves with the
// requests the real route handlers answer, without a word of any user's data.

const metricsToken = 'test-metrics-token-0123456789';

const scrape = (token?: string) =>
  scrapeRoute(new Request('http://localhost/metrics', { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } }));

/** The samples of the exposition text: name, labels and value of each line that is not a comment. */
function samples(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not an exposition line: ${line}`);
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]));
      return { name: m[1], labels, value: Number(m[3]) };
    });
}

/** The sum of a metric's samples whose labels include `labels`. */
function total(text: string, name: string, labels: Record<string, string> = {}): number {
  return samples(text)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function scrapeText(): Promise<string> {
  const res = await scrape(metricsToken);
  expect(res.status).toBe(200);
  return res.text();
}

beforeEach(() => {
  process.env.METRICS_TOKEN = metricsToken;
  resetConfig();
});
afterEach(() => {
  delete process.env.METRICS_TOKEN;
  resetConfig();
});

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN: 404 as an unknown route, whatever is presented', async () => {
    delete process.env.METRICS_TOKEN;
    resetConfig();
    for (const res of [await scrape(), await scrape(metricsToken)]) {
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect((await res.json()).code).toBe('not_found');
    }
  });

  it('answers 401 without the token or with a wrong one, naming the scheme', async () => {
    for (const res of [await scrape(), await scrape('not-the-metrics-token-0123'), await scrape(`${metricsToken}x`)]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="codetally/);
      expect((await res.json()).code).toBe('unauthorized');
    }
  });

  it("answers the holder in Prometheus's text format, never to be cached, with the process's own metrics", async () => {
    const res = await scrape(metricsToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(samples(text).length).toBeGreaterThan(20); // every line parses
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^# TYPE codetally_http_request_duration_seconds histogram$/m);
  });

  it('takes GET alone (405 with Allow)', async () => {
    const res = await postToMetrics(new Request('http://localhost/metrics', { method: 'POST' }), {});
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('counts a sync write and a heartbeat bulk through the real routes, with no user data in any label', async () => {
    const language = 'Metricslang';
    const project = 'metrics-secret-project';
    const u = await newUser({ handle: `metricsowner${Math.random().toString(36).slice(2, 8)}` });
    const { token: wakaKey } = await issueToken(await getDb(), u.user.id, { name: 'vim', format: 'uuid' });
    const before = await scrapeText();

    const write = await call(postBatch, '/sync/activities', {
      token: u.token,
      body: {
        activities: [
          { language, project_name: project, time: 60, date: daysFromToday(-1), hour: 9, ide_name: 'vscode' },
          { language, project_name: project, time: 30, date: daysFromToday(-1), hour: 10, ide_name: 'vscode' },
          { language, time: 5000 }, // over the hour: rejected
        ],
      },
    });
    expect(write.status).toBe(200);

    const now = Math.floor(Date.now() / 1000);
    const beats = [
      { entity: `/home/${u.user.handle}/${project}/main.mx`, time: now - 60, language, project, type: 'file', category: 'coding' },
      { entity: `/home/${u.user.handle}/${project}/main.mx`, time: now - 30, language, project, type: 'file', category: 'coding' },
      { entity: 'x', time: 'not a time', language, project }, // rejected
    ];
    const bulk = await postBulk(
      new Request('http://localhost/api/wakatime/v1/users/current/heartbeats.bulk', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(wakaKey).toString('base64')}` },
        body: JSON.stringify(beats),
      }),
      { params: Promise.resolve({ user: 'current' }) },
    );
    expect(bulk.status).toBe(201);
    // A statement that fails in the database: counted by its SQLSTATE class (22: data exception).
    await expect((await getDb()).execute(sql`SELECT 1 / 0`)).rejects.toThrow();

    const after = await scrapeText();
    const moved = (name: string, labels: Record<string, string> = {}) => total(after, name, labels) - total(before, name, labels);
    expect(moved('codetally_ingest_buckets_total', { kind: 'ide', outcome: 'stored' })).toBe(2);
    expect(moved('codetally_ingest_buckets_total', { kind: 'ide', outcome: 'rejected' })).toBe(1);
    expect(moved('codetally_ingest_batches_total', { kind: 'ide' })).toBe(1);
    expect(moved('codetally_heartbeats_total', { outcome: 'accepted' })).toBe(2);
    expect(moved('codetally_heartbeats_total', { outcome: 'rejected' })).toBe(1);
    expect(moved('codetally_heartbeat_requests_total', { shape: 'bulk' })).toBe(1);
    const requests = 'codetally_http_request_duration_seconds_count';
    expect(moved(requests, { route: '/main/api/v1/sync/activities', method: 'POST', status: '2xx' })).toBe(1);
    expect(moved(requests, { route: '/api/wakatime/v1/users/[user]/heartbeats.bulk', method: 'POST', status: '2xx' })).toBe(1);
    expect(moved('codetally_db_statement_duration_seconds_count')).toBeGreaterThanOrEqual(3);
    expect(moved('codetally_db_statement_failures_total', { class: '22' })).toBe(1);
    expect(moved('codetally_cache_lookups_total', { cache: 'principals' })).toBeGreaterThanOrEqual(2);
    expect(total(after, 'codetally_db_pool_connections')).toBeGreaterThanOrEqual(1);

    // Nothing of the user: not the handle, id, either token, the language, the project, the path.
    for (const secret of [u.user.handle, u.user.id, u.token, wakaKey, language, project, 'main.mx']) {
      expect([secret, after.toLowerCase().includes(secret.toLowerCase())]).toEqual([secret, false]);
    }
  });

  it('reads the import queue at each scrape: a queued import shows', async () => {
    const u = await newUser();
    const queued = (text: string) => total(text, 'codetally_import_queue', { status: 'queued' });
    const before = await scrapeText();
    expect(total(before, 'codetally_import_queue_readable')).toBe(1);
    await (await getDb()).insert(imports).values({ userId: u.user.id, status: 'queued', bytes: 100 });
    const after = await scrapeText();
    expect(queued(after)).toBe(queued(before) + 1);
    expect(after).toMatch(/^codetally_import_queue\{status="running"\} \d+$/m);
  });
});

// Every route file's requests are measured under its own pattern, the path of its folder under
// app/ (lib/http/methods.ts `route`, `measured`): a pattern copied from another file would mix two
// routes' figures, and one with an id in it is impossible by construction.
describe('route patterns', () => {
  const files = (fs.readdirSync('app', { recursive: true }) as string[]).filter((f) => path.basename(f) === 'route.ts');

  it.each(files)('%s is measured under its folder', async (file) => {
    const pattern = `/${path.dirname(file).split(path.sep).join('/')}`;
    const mod = await import(/* @vite-ignore */ path.resolve('app', file));
    const method = mod.OPTIONS ? 'OPTIONS' : 'GET';
    const count = async () => total(await scrapeText(), 'codetally_http_request_duration_seconds_count', { route: pattern, method });
    const before = await count();
    // The cached routes (GET alone) answer a path proxy.ts never makes with a 404 at once.
    await mod[method](new Request(`http://localhost${pattern}`, { method }), { params: Promise.resolve({}) });
    expect(await count()).toBe(before + 1);
  });
});
