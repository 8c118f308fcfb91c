import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// What README tools ask of the production build, as they ask it: github-readme-stats' WakaTime
// card requests https://{api_domain}/api/v1/users/{username}/stats?is_including_today=true
// without a key (any non-2xx is "user not found"), so the site is reached over HTTPS, through a
// small TLS proxy with a certificate made here; the plugins and README Actions use WakaTime's
// path layout, /api/v1, with a key. /api/v1 reaches the WakaTime-compatible routes by a rewrite
// (next.config.ts), which only a real server applies.

const base = inject('baseUrl');
let proxy: https.Server;
let apiDomain: string;
const userAgent = 'wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0';

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codetally-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const upstream = new URL(base);
  proxy = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, (req, res) => {
    const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  apiDomain = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  fs.rmSync(dir, { recursive: true, force: true });
});

afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

/** A GET over HTTPS to the proxy, the certificate being this test's own. */
function httpsGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { headers, rejectUnauthorized: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

async function wakaUser(settings: Record<string, boolean>) {
  const res = await fetch(`${base}/main/api/v1/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inject('adminToken')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ handle: `card${Math.random().toString(36).slice(2, 10)}`, token: { format: 'uuid' }, settings }),
  });
  expect(res.status).toBe(201);
  const { user, token } = (await res.json()) as { user: { id: string; handle: string }; token: string };
  // A plugin whose api_url is https://<site>/api/v1 sends its heartbeats there: 20 minutes of
  // TypeScript (and the 30 s to the Go heartbeat), then 30 seconds of Go (under a minute: the card
  // leaves it out).
  const now = Math.floor(Date.now() / 1000);
  const t = Math.max(now - 1800, Math.floor(now / 86_400) * 86_400);
  const beats = [
    ...Array.from({ length: 21 }, (_, i) => ({ entity: `/src/app${i % 2}.ts`, type: 'file', time: t + i * 60, language: 'TypeScript', project: 'private-work', category: 'coding' })),
    { entity: '/src/main.go', type: 'file', time: t + 1230, language: 'Go', project: 'private-work', category: 'coding' },
    { entity: '/src/app.ts', type: 'file', time: t + 1260, language: 'TypeScript', project: 'private-work', category: 'coding' },
  ];
  const bulk = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = https.request(
      `https://${apiDomain}/api/v1/users/current/heartbeats.bulk`,
      { method: 'POST', rejectUnauthorized: false, headers: { authorization: `Basic ${Buffer.from(token).toString('base64')}`, 'content-type': 'application/json', 'user-agent': userAgent } },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(beats));
  });
  expect(bulk.status).toBe(201);
  const answers = (JSON.parse(bulk.body) as { responses: [unknown, number][] }).responses;
  expect(answers.map((a) => a[1])).toEqual(beats.map(() => 201));
  return { user, token };
}

describe('README cards against the production build, over HTTPS', () => {
  it('github-readme-stats: the card\'s request without a key reads a public profile\'s languages', async () => {
    const { user } = await wakaUser({ profile_public: true, share_languages: true, share_editors: true });
    // Exactly the card's fetcher: https://{api_domain}/api/v1/users/{username}/stats?is_including_today=true.
    const res = await httpsGet(`https://${apiDomain.replace(/\/$/gi, '')}/api/v1/users/${user.handle}/stats?is_including_today=true`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+, s-maxage=\d+/);
    const { data } = JSON.parse(res.body) as { data: Record<string, unknown> & { languages: Record<string, unknown>[] } };
    // What the card reads: languages' name, percent, text, hours, minutes; range and the visibility flags.
    for (const l of data.languages) {
      expect([typeof l.name, typeof l.percent, typeof l.text, typeof l.hours, typeof l.minutes]).toEqual(['string', 'number', 'string', 'number', 'number']);
    }
    expect(data.languages.filter((l) => Number(l.hours) || Number(l.minutes)).map((l) => [l.name, l.text])).toEqual([['TypeScript', '20 mins']]);
    expect(data.languages.map((l) => [l.name, l.minutes])).toContainEqual(['Go', 0]);
    expect([typeof data.range, data.is_coding_activity_visible, data.is_other_usage_visible]).toEqual(['string', true, true]);
    expect(data.projects).toEqual([]);
    expect(res.body).not.toContain('private-work');

    // WakaTime's own layout without a range, and with one, the same figures.
    const ranged = await httpsGet(`https://${apiDomain}/api/v1/users/${user.handle.toUpperCase()}/stats/last_7_days`);
    expect(JSON.parse(ranged.body).data.total_seconds).toBe(data.total_seconds);
  });

  it('github-readme-stats: a private or unknown user is not a 2xx', async () => {
    const { user } = await wakaUser({ profile_public: false, share_languages: true });
    for (const username of [user.handle, user.id, 'no-such-user-here']) {
      const res = await httpsGet(`https://${apiDomain}/api/v1/users/${username}/stats?is_including_today=true`);
      expect(res.status, username).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ error: expect.any(String) });
    }
  });

  it('waka-readme and metrics: the owner\'s own figures with a key, at /api/v1, with WakaTime\'s start and end', async () => {
    const { token } = await wakaUser({ profile_public: false });
    // waka-readme: API_BASE_URL + /v1/users/current/stats/{range}, Basic auth.
    const basic = await httpsGet(`https://${apiDomain}/api/v1/users/current/stats/last_7_days`, { authorization: `Basic ${Buffer.from(token).toString('base64')}` });
    expect(basic.status).toBe(200);
    expect(basic.headers['cache-control']).toBe('private, no-store');
    const { data } = JSON.parse(basic.body) as { data: Record<string, unknown> & { languages: { name: string }[]; projects: { name: string }[] } };
    expect(data.start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(data.end).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(typeof data.human_readable_total).toBe('string');
    expect(data.projects.map((p) => p.name)).toEqual(['private-work']);
    // metrics and waka-readme-stats: ?api_key=.
    const query = await httpsGet(`https://${apiDomain}/api/v1/users/current/all_time_since_today?api_key=${token}`);
    expect(query.status).toBe(200);
    expect(typeof JSON.parse(query.body).data.text).toBe('string');
    // Without the key, `current` is nobody.
    expect((await httpsGet(`https://${apiDomain}/api/v1/users/current/stats/last_7_days`)).status).toBe(401);
  });
});
