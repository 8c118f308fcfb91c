import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { GET as badgeRoute } from '@/app/api/badge/[user]/[[...rest]]/route';
import { GET as shieldsRoute } from '@/app/api/compat/shields/v1/[user]/[[...rest]]/route';
import { POST as postBulk } from '@/app/api/wakatime/v1/users/[user]/heartbeats.bulk/route';
import { PUT as putProjectBadge } from '@/app/main/api/v1/me/projects/[name]/badge/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { updateAccount } from '@/lib/accounts/me';
import { issueToken } from '@/lib/accounts/tokens';
import { wakapiDuration } from '@/lib/badges/wakapi';
import { getDb } from '@/lib/db/client';
import { setProjectHidden } from '@/lib/projects/hidden';
import { isApiPath } from '@/lib/http/api-paths';
import { call, daysFromToday, newUser, tokenWithScopes } from '../helpers/api';
import { documented, expectDocumented } from '../helpers/contract';

// Wakapi's README badge URLs after a switch: /api/badge/{user}/interval:…[/filter:value] (SVG) and
// /api/compat/shields/v1/{user}/interval:…[/filter:value] (shields.io endpoint JSON), answering
// only for what the owner shares, and exactly as for an unknown user otherwise.

async function get(path: string, headers: Record<string, string> = {}) {
  const request = new Request(`http://localhost${path}`, { headers });
  const route = path.startsWith('/api/badge/') ? badgeRoute : shieldsRoute;
  return documented(request, await route(request));
}
const shields = async (path: string) => {
  const res = await get(`/api/compat/shields/v1/${path}`);
  return { status: res.status, body: await res.json() };
};
const svg = async (path: string, query = '') => {
  const res = await get(`/api/badge/${path}${query}`);
  return { status: res.status, text: await res.text(), headers: res.headers };
};
const green = (message: string) => ({ schemaVersion: 1, label: 'codetally', message, color: '2F855A', cacheSeconds: 60 });

/** A coder with buckets today, yesterday and 20 days ago, in two languages, editors and projects. */
async function coder(settings: Record<string, boolean>) {
  const u = await newUser({ settings: { profile_public: true, ...settings } });
  const activities = [
    { language: 'Go', time: 3600, hour: 1, date: daysFromToday(0), project_name: 'app', ide_name: 'vim' },
    { language: 'Rust', time: 1800, hour: 2, date: daysFromToday(0), project_name: 'secret', ide_name: 'emacs' },
    { language: 'Go', time: 600, hour: 3, date: daysFromToday(-1), project_name: 'app', ide_name: 'vim' },
    { language: 'Go', time: 1200, hour: 4, date: daysFromToday(-20), project_name: 'app', ide_name: 'vim' },
  ];
  expect((await call(postBatch, '/sync/activities', { token: u.token, body: { activities } })).status).toBe(200);
  return u;
}

describe("Wakapi's badge URLs", () => {
  it('answer each of Wakapi\'s range names with the time of that range, in Wakapi\'s words', async () => {
    const { user } = await coder({});
    const h = user.handle;
    const expected: Record<string, string> = {
      today: '1 hrs 30 mins',
      yesterday: '0 hrs 10 mins',
      day: '0 hrs 10 mins',
      '7_days': '1 hrs 40 mins',
      last_7_days: '1 hrs 40 mins',
      '14_days': '1 hrs 40 mins',
      '30_days': '2 hrs 0 mins',
      last_30_days: '2 hrs 0 mins',
      '6_months': '2 hrs 0 mins',
      last_6_months: '2 hrs 0 mins',
      '12_months': '2 hrs 0 mins',
      last_year: '2 hrs 0 mins',
      any: '2 hrs 0 mins',
      all_time: '2 hrs 0 mins',
      // Wakapi shows its default (30 days) for a name it does not know, and for none.
      fortnight: '2 hrs 0 mins',
      'fortnight/interval:today': '2 hrs 0 mins',
    };
    for (const [name, message] of Object.entries(expected)) {
      expect(await shields(`${h}/interval:${name}`), name).toEqual({ status: 200, body: green(message) });
    }
    expect((await shields(h)).body.message).toBe('2 hrs 0 mins');
    // The calendar ranges hold today at least (and as much as the calendar gives them).
    for (const name of ['week', 'month', 'year']) {
      const { body } = await shields(`${h}/interval:${name}`);
      expect(['1 hrs 30 mins', '1 hrs 40 mins', '2 hrs 0 mins'], name).toContain(body.message);
    }
    const image = await svg(`${h}/interval:today`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toContain('image/svg+xml');
    expect(image.headers.get('access-control-allow-origin')).toBe('*');
    expect(image.headers.get('etag')).toBeTruthy();
    expect(XMLValidator.validate(image.text)).toBe(true);
    expect(image.text).toContain('1 hrs 30 mins');
    expect(image.text).toContain('codetally');
    // Wakapi's `label` and `color`; a colour that is none is ignored.
    const labelled = await svg(`${h}/interval:today`, '?label=coded%20today&color=ff8800');
    expect(labelled.text).toContain('coded today');
    expect(labelled.text.toLowerCase()).toContain('#ff8800');
    expect((await svg(`${h}/interval:today`, '?color=notacolour')).status).toBe(200);
    // A conditional request with the ETag: 304.
    const again = await get(`/api/badge/${h}/interval:today`, { 'if-none-match': image.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('show a language, editor or system only while the owner shares it, and otherwise answer as for an unknown user', async () => {
    const sharing = await coder({ share_languages: true, share_editors: true });
    const closed = await coder({});
    const unknown = await shields('no_such_user_here/interval:any');
    const unknownSvg = await svg('no_such_user_here/interval:any');
    expect(unknown).toEqual({ status: 404, body: { schemaVersion: 1, label: 'codetally', message: 'badge not found', color: 'lightgrey', isError: true, cacheSeconds: 60 } });
    expect(unknownSvg.status).toBe(404);

    expect((await shields(`${sharing.user.handle}/interval:any/language:Go`)).body.message).toBe('1 hrs 30 mins');
    // Any case, and percent-encoded, as a hand-written URL may be.
    expect((await shields(`${sharing.user.handle}/interval:today/language:rust`)).body.message).toBe('0 hrs 30 mins');
    expect((await shields(`${sharing.user.handle}/interval:any/editor:emacs`)).body.message).toBe('0 hrs 30 mins');
    const svgLanguage = await svg(`${sharing.user.handle}/interval:7_days/language:Go`);
    expect(svgLanguage.status).toBe(200);
    expect(svgLanguage.text).toContain('1 hrs 10 mins');

    // An AI agent's plugin is an editor publicly only with "share AI-assisted coding", however it is spelled.
    const agentTime = {
      activities: [
        { language: 'Go', time: 900, hour: 5, date: daysFromToday(-2), project_name: 'app', ide_name: 'claude-code' },
        { language: 'Go', time: 600, hour: 6, date: daysFromToday(-2), project_name: 'app', ide_name: 'kilo-code' },
      ],
    };
    expect((await call(postBatch, '/sync/activities', { token: sharing.token, body: agentTime })).status).toBe(200);
    for (const spelling of ['Claude%20Code', 'claude-code', 'CLAUDE%20CODE', 'kilo%20code']) {
      expect(await shields(`${sharing.user.handle}/interval:any/editor:${spelling}`), spelling).toEqual(unknown);
    }
    // A Kelvin sign for the K: no listed spelling, yet PostgreSQL may lower it to "k"; still no agent's time.
    expect((await shields(`${sharing.user.handle}/interval:any/editor:%E2%84%AAilo%20Code`)).body.message).toBe('0 hrs 0 mins');
    await updateAccount(await getDb(), sharing.user.id, { settings: { share_ai: true } });
    expect((await shields(`${sharing.user.handle}/interval:any/editor:claude%20code`)).body.message).toBe('0 hrs 15 mins');
    expect((await shields(`${sharing.user.handle}/interval:any/editor:%E2%84%AAilo%20Code`)).body.message).toMatch(/^0 hrs (0|10) mins$/);

    // Text no write could have stored (a NUL, a lone surrogate, a broken escape, a name too long) names nothing: never a 5xx.
    for (const value of ['Go%00', '%ED%A0%80', '%E0%A4%A', 'a'.repeat(256)]) {
      expect(await shields(`${sharing.user.handle}/interval:any/language:${value}`), value).toEqual(unknown);
      expect((await svg(`${sharing.user.handle}/interval:any/project:${value}`)).status, value).toBe(404);
    }
    expect(await shields(`${sharing.user.handle}%00/interval:any`)).toEqual(unknown);
    for (const filter of ['language:Go', 'editor:vim', 'os:Linux', 'machine:laptop', 'label:work', 'project:app']) {
      expect(await shields(`${closed.user.handle}/interval:any/${filter}`), filter).toEqual(unknown);
      const image = await svg(`${closed.user.handle}/interval:any/${filter}`);
      expect({ status: image.status, text: image.text }, filter).toEqual({ status: unknownSvg.status, text: unknownSvg.text });
    }
  });

  it('show an operating system from heartbeats with "share editors"', async () => {
    const u = await newUser({ settings: { profile_public: true, share_editors: true } });
    const { token: key } = await issueToken(await getDb(), u.user.id, { name: 'cli', format: 'uuid' });
    const t = Math.floor(Date.now() / 1000) - 600;
    const beats = [0, 120, 240].map((s) => ({ entity: 'a.go', time: t + s, language: 'Go', project: 'app', category: 'coding' }));
    const request = new Request('http://localhost/api/wakatime/v1/users/current/heartbeats.bulk', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'wakatime/v1.90.0 (linux-6.8.0) go1.22.0 vim/9.1 vim-wakatime/11.0.0', authorization: `Basic ${Buffer.from(key).toString('base64')}` },
      body: JSON.stringify(beats),
    });
    expect((await postBulk(request, { params: Promise.resolve({ user: 'current' }) })).status).toBe(201);
    const total = (await shields(`${u.user.handle}/interval:any`)).body.message;
    expect(total).not.toBe('0 hrs 0 mins');
    expect((await shields(`${u.user.handle}/interval:any/os:linux`)).body.message).toBe(total);
    expect((await shields(`${u.user.handle}/interval:any/os:Windows`)).body.message).toBe('0 hrs 0 mins');
  });

  it("show a project only once its owner made the project's badge public, and never while the profile is private", async () => {
    const { user, token } = await coder({ share_languages: true, share_editors: true });
    const account = await tokenWithScopes(user.id, ['account']);
    const unknown = await shields('no_such_user_here/interval:any');
    const path = `${user.handle}/interval:any/project:app`;
    expect(await shields(path)).toEqual(unknown);

    const put = async (name: string, body: unknown, t = account) => {
      const url = `http://localhost/main/api/v1/me/projects/${encodeURIComponent(name)}/badge`;
      const res = await putProjectBadge(new Request(url, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${t}` }, body: JSON.stringify(body) }), { params: Promise.resolve({ name }) });
      return expectDocumented('PUT', url, res);
    };
    // A plugin's token cannot publish a project; a project with no time is 404; a bad body names the field.
    expect((await put('app', { public: true }, token)).status).toBe(403);
    expect((await put('nothing-here', { public: true })).status).toBe(404);
    const bad = await put('app', { public: 'yes' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain('public');

    const on = await put('app', { public: true });
    expect(on.status).toBe(200);
    expect(await on.json()).toEqual({ project: 'app', public: true });
    expect(await shields(path)).toEqual({ status: 200, body: green('1 hrs 30 mins') });
    expect((await svg(path)).text).toContain('1 hrs 30 mins');
    // Only that project, and only its name as the owner's list writes it.
    expect(await shields(`${user.handle}/interval:any/project:secret`)).toEqual(unknown);
    expect(await shields(`${user.handle}/interval:any/project:APP`)).toEqual(unknown);

    // Hidden, a project shows on no public surface, its public badge included; shown again, it does.
    await setProjectHidden(await getDb(), user.id, 'app', true);
    expect(await shields(path)).toEqual(unknown);
    expect((await svg(path)).status).toBe(404);
    await setProjectHidden(await getDb(), user.id, 'app', false);
    expect(await shields(path)).toEqual({ status: 200, body: green('1 hrs 30 mins') });

    expect((await put('app', { public: false })).status).toBe(200);
    expect(await shields(path)).toEqual(unknown);

    // A private profile shows nothing, a public project badge included.
    await put('app', { public: true });
    await updateAccount(await getDb(), user.id, { settings: { profile_public: false } });
    expect(await shields(path)).toEqual(unknown);
    expect(await shields(`${user.handle}/interval:any`)).toEqual(unknown);
    expect(await shields(`${user.handle}/interval:any/language:Go`)).toEqual(unknown);
  });

  it("are the API's paths: API headers, not a page's", () => {
    expect(isApiPath('/api/badge/someone/interval:today')).toBe(true);
    expect(isApiPath('/api/compat/shields/v1/someone/interval:today/language:Go')).toBe(true);
  });

  it("write durations as Wakapi does", () => {
    expect(wakapiDuration(0)).toBe('0 hrs 0 mins');
    expect(wakapiDuration(89)).toBe('0 hrs 1 mins');
    expect(wakapiDuration(3600 * 12)).toBe('12 hrs 0 mins');
  });
});
