import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { GET as chartRoute, POST as chartPost } from '@/app/main/api/v1/public/charts/[userUUID]/[chart]/route';
import { POST as createBadge } from '@/app/main/api/v1/badges/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { darkColours, lightColours } from '@/lib/charts/svg';
import { call, daysFromToday, newUser } from '../helpers/api';
import { documented } from '../helpers/contract';

const allShared = { profile_public: true, share_languages: true, share_editors: true };

/** GETs a chart image as an embed would; the answer must be as openapi.json says. */
async function image(userUUID: string, file: string, query = '', headers: Record<string, string> = {}) {
  const request = new Request(`http://localhost/main/api/v1/public/charts/${userUUID}/${file}${query ? `?${query}` : ''}`, { headers });
  return documented(request, await chartRoute(request, { params: Promise.resolve({ userUUID, chart: file }) }));
}

async function coder(settings: Record<string, boolean> = allShared) {
  const u = await newUser({ settings, display_name: 'Ada <Lovelace>' });
  const activities = [
    { language: 'TypeScript', time: 3600, hour: 9, date: daysFromToday(-1) },
    { language: 'Go', time: 1800, hour: 10, date: daysFromToday(-1) },
    { language: 'TypeScript', time: 1800, hour: 9, date: daysFromToday(-20) },
    { language: 'Rust', time: 600, hour: 9, date: daysFromToday(-200) },
  ];
  expect((await call(postBatch, '/sync/activities', { token: u.token, body: { activities } })).status).toBe(200);
  return u;
}

const titleOf = (svg: string) => /<title id="chart-title">([^<]*)<\/title>/.exec(svg)?.[1];
const descOf = (svg: string) => /<desc id="chart-desc">([^<]*)<\/desc>/.exec(svg)?.[1];

describe('chart images', () => {
  it('draws a public user\'s four charts, each naming its figures in <title> and <desc>', async () => {
    const { user } = await coder();
    const languages = await image(user.id, 'languages.svg');
    expect(languages.status).toBe(200);
    expect(languages.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(languages.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60, stale-while-revalidate=60');
    expect(languages.headers.get('access-control-allow-origin')).toBe('*');
    const text = await languages.text();
    expect(XMLValidator.validate(text)).toBe(true);
    expect(titleOf(text)).toBe('Languages of Ada &lt;Lovelace&gt;, the last 30 days: 2 hrs');
    expect(descOf(text)).toBe('Most time in TypeScript (75%), Go (25%); 2 hrs in the last 30 days.');

    const year = await (await image(user.id, 'activity.svg', 'range=7d')).text(); // activity ignores range
    expect(titleOf(year)).toBe('Coding activity of Ada &lt;Lovelace&gt;, the last 365 days: 2 hrs 10 mins');
    expect(descOf(year)).toBe(`3 active days between ${daysFromToday(-364)} and ${daysFromToday(0)}, 2 hrs 10 mins in all; the busiest day ${daysFromToday(-1)} (1 hr 30 mins).`);
    expect([...year.matchAll(/width="10" height="10"/g)]).toHaveLength(365 + 5);

    const hours = await (await image(user.id, 'hours.svg')).text();
    const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(`${daysFromToday(-1)}T12:00:00Z`).getUTCDay()];
    expect(titleOf(hours)).toBe(`When in the week Ada &lt;Lovelace&gt; codes, ${daysFromToday(-364)} to ${daysFromToday(0)}: 2 hrs 10 mins`);
    expect(descOf(hours)).toBe(`Coding time by weekday and hour between ${daysFromToday(-364)} and ${daysFromToday(0)}: 4 of the week&apos;s 168 hours have some; the busiest, ${weekday} 9:00 to 10:00, 1 hr in all.`);

    const weekly = await (await image(user.id, 'weekly.svg')).text();
    expect(titleOf(weekly)).toBe('Weekly coding time of Ada &lt;Lovelace&gt;, the last 12 weeks: 2 hrs');
    expect(descOf(weekly)).toMatch(/^2 hrs in 12 weeks: week of \d{4}-\d\d-\d\d /);

    const longer = await (await image(user.id, 'languages.svg', 'range=365d')).text();
    expect(descOf(longer)).toBe('Most time in TypeScript (69.2%), Go (23.1%), Rust (7.7%); 2 hrs 10 mins in the last 365 days.');
  });

  it('draws the light or the dark theme, or both by the colour scheme', async () => {
    const { user } = await coder();
    const light = await (await image(user.id, 'activity.svg', 'theme=light')).text();
    const dark = await (await image(user.id, 'activity.svg', 'theme=dark')).text();
    const both = await (await image(user.id, 'activity.svg')).text();
    expect(light).toContain(lightColours.l0);
    expect(light).not.toContain(darkColours.l0);
    expect(dark).toContain(darkColours.l0);
    expect(dark).not.toContain(lightColours.l0);
    expect(both).toContain('@media (prefers-color-scheme: dark)');
  });

  it('answers 404 without an image for a private or unknown user, a bad id or an unknown chart', async () => {
    const priv = await coder({ share_languages: true });
    for (const [id, file] of [
      [priv.user.id, 'languages.svg'],
      [priv.user.id, 'activity.svg'],
      ['0f8fad5b-d9cb-469f-a165-70867728950e', 'weekly.svg'],
      ['nobody', 'weekly.svg'],
      [(await coder()).user.id, 'time.svg'],
    ]) {
      const res = await image(id, file);
      expect(res.status, `${id}/${file}`).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const text = await res.text();
      expect(text).not.toContain('<svg');
      expect(JSON.parse(text).code).toBe('not_found');
    }
  });

  it('refuses a bad theme or range with a 400 naming it', async () => {
    const { user } = await coder();
    for (const [query, field] of [['theme=blue', 'theme'], ['range=all', 'range']]) {
      const res = await image(user.id, 'languages.svg', query);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect((await res.json()).errors[0].path).toBe(field);
    }
  });

  it('says so when languages are not shared', async () => {
    const { user } = await coder({ profile_public: true });
    const res = await image(user.id, 'languages.svg');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(descOf(text)).toBe('Languages are not shared.');
    expect(text).toContain('>Languages are not shared.</text>');
    expect(text).not.toContain('TypeScript');
  });

  it('answers 304 to a matching If-None-Match, and 405 with Allow to another method', async () => {
    const { user } = await coder();
    const first = await image(user.id, 'weekly.svg', 'theme=dark');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    const again = await image(user.id, 'weekly.svg', 'theme=dark', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await image(user.id, 'weekly.svg', 'theme=light', { 'if-none-match': etag })).status).toBe(200);
    const post = await chartPost(new Request(`http://localhost/main/api/v1/public/charts/${user.id}/weekly.svg`, { method: 'POST' }), {});
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('still answers a badge URL whose site is named charts, as the badge routes do', async () => {
    const { user, token } = await coder({});
    const badge = await (await call(createBadge, '/badges', { token, body: { metric: 'total', range: '7d' } })).json();
    const svg = await image('svg', user.id, `badge=${badge.id}`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await svg.text()).toContain('1 hr 30 mins');
    expect((await image('svg', user.id, `badge=${badge.id}`, { 'if-none-match': svg.headers.get('etag')! })).status).toBe(304);
    const shields = await image('shields', user.id);
    expect((await shields.json()).message).toBe('1 hr 30 mins');
  });
});
