import { config } from '../../lib/config';
import { openDb } from '../../lib/db/client';
import { refreshCommunity } from '../../lib/stats/community';
import { startTestServer, type TestServer } from './server';

// The site the audits and the Lighthouse benchmark (bench/lighthouse.ts) look at: a production
// server with a year of data behind its public pages, each page rendered once as after its first
// visit.

const ADMIN_TOKEN = 'audit-admin-token-0123456789';
export const auditedHandle = 'ada';
export const auditedPages = { home: '/', leaderboard: '/leaderboard', pricing: '/pricing', docs: '/docs', docsApi: '/docs/api', profile: `/u/${auditedHandle}` };

const languages = ['TypeScript', 'Go', 'Python', 'Rust', 'SQL', 'Lua'];
const projects = ['codetally', 'website', 'cli', 'infra'];
const editors = ['vscode', 'neovim', 'intellij'];

/**
 * A year of coding: three sessions a day on all but one day in eight, in languages that change
 * with the day and are the same for everyone (so every site-wide cell has the same people behind
 * it); `n` varies the amounts, projects and editors between users.
 */
function yearOfActivity(n: number) {
  const activities = [];
  for (let d = 364; d >= 0; d--) {
    if (d % 8 === 3) continue;
    const date = new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
    for (const [i, hour] of [9, 13, 16].entries()) {
      activities.push({
        language: languages[(d + i) % languages.length],
        time: 900 + ((d * 37 + i * 11 + n * 13) % 2700),
        date,
        hour,
        project_name: projects[(d + i + n) % projects.length],
        ide_name: editors[(d + n) % editors.length],
      });
    }
  }
  return activities;
}

async function post(server: TestServer, route: string, token: string, body: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}/main/api/v1${route}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

function expectStatus(what: string, res: Response, status: number): void {
  if (res.status !== status) throw new Error(`${what}: ${res.status}, expected ${status}`);
}

/** A user made through the admin API with the given sharing settings, and a year of their activity. */
async function userWithAYear(server: TestServer, user: { handle: string; display_name?: string; settings: Record<string, boolean> }, n: number) {
  const created = await post(server, '/admin/users', ADMIN_TOKEN, user);
  expectStatus(`making @${user.handle}`, created, 201);
  const { token } = (await created.json()) as { token: string };
  const activities = yearOfActivity(n);
  for (let i = 0; i < activities.length; i += 1000) expectStatus('a year of activity', await post(server, '/sync/activities', token, { activities: activities.slice(i, i + 1000) }), 200);
}

/**
 * Starts the audited site: the profile audited shares everything and is on the leaderboard; with
 * it, as many others as it takes (PUBLIC_MIN_USERS) for the site-wide figures on `/` to show.
 * Returns the server and each page's first HTML.
 */
export async function startAuditedSite(): Promise<{ server: TestServer & { port: number }; html: Record<keyof typeof auditedPages, string> }> {
  let server = await startTestServer({ ADMIN_TOKEN });
  await userWithAYear(server, { handle: auditedHandle, display_name: 'Ada Lovelace', settings: { profile_public: true, share_languages: true, share_editors: true, leaderboard: true } }, 0);
  for (let n = 1; n <= config().PUBLIC_MIN_USERS; n++) {
    await userWithAYear(server, { handle: `coder${n}`, settings: { profile_public: true, share_languages: true, leaderboard: true } }, n);
  }
  // Readers bring the site-wide figures up to date a few dates at a time; `npm start` does every
  // written date before it serves (scripts/migrations.ts). So does this restart: the year is there.
  await server.stop();
  const database = await openDb({ dataDir: server.dataDir });
  await refreshCommunity(database.db, Infinity);
  await database.close();
  server = await startTestServer({ ADMIN_TOKEN }, server);
  const html = {} as Record<keyof typeof auditedPages, string>;
  for (const [name, url] of Object.entries(auditedPages) as [keyof typeof auditedPages, string][]) {
    const res = await fetch(`${server.baseUrl}${url}`);
    expectStatus(url, res, 200);
    html[name] = await res.text();
  }
  return { server, html };
}
