import { beforeAll, describe, expect, it } from 'vitest';
import { XMLValidator } from 'fast-xml-parser';
import { GET as chartRoute } from '@/app/main/api/v1/public/charts/[userUUID]/[chart]/route';
import { POST as postBatch } from '@/app/main/api/v1/sync/activities/route';
import { resetConfig } from '@/lib/config';
import { call, daysFromToday, newUser } from '../helpers/api';
import { documented } from '../helpers/contract';

// The site-wide images of the home page: /public/charts/community/{chart}.svg, under the same
// rules as the site-wide JSON charts (community members only, PUBLIC_MIN_USERS behind a figure).

async function image(file: string, query = '') {
  const request = new Request(`http://localhost/main/api/v1/public/charts/community/${file}${query ? `?${query}` : ''}`);
  return documented(request, await chartRoute(request, { params: Promise.resolve({ userUUID: 'community', chart: file }) }));
}

async function member(activities: { language: string; time: number }[], community = true) {
  const u = await newUser({ settings: { community_stats: community } });
  const body = { activities: activities.map((a) => ({ ...a, hour: 12, date: daysFromToday(-1) })) };
  expect((await call(postBatch, '/sync/activities', { token: u.token, body })).status).toBe(200);
}

const titleOf = (svg: string) => /<title id="chart-title">([^<]*)<\/title>/.exec(svg)?.[1];
const descOf = (svg: string) => /<desc id="chart-desc">([^<]*)<\/desc>/.exec(svg)?.[1];

beforeAll(() => {
  process.env.PUBLIC_NOISE_SECONDS = '0';
  resetConfig();
});

describe('site-wide chart images', () => {
  it('say so while too few people share, then draw the languages enough people use, the rest as all others', async () => {
    await member([{ language: 'Go', time: 1800 }]);
    await member([{ language: 'Go', time: 1800 }]);
    const early = await image('languages.svg');
    expect(early.status).toBe(200);
    expect(early.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const earlyText = await early.text();
    expect(titleOf(earlyText)).toBe('Languages of the community, the last 30 days');
    expect(descOf(earlyText)).toBe('Too few people share community statistics yet.');

    await member([{ language: 'Go', time: 1800 }, { language: 'Zig', time: 1800 }]);
    await member([{ language: 'Rust', time: 3600 }], false); // opted out: never counted
    const text = await (await image('languages.svg', 'theme=dark')).text();
    expect(XMLValidator.validate(text)).toBe(true);
    // Zig rests on one person: counted in the whole, named nowhere. Rust's owner opted out.
    expect(descOf(text)).toBe('Most time in Go (75%), all others (25%); 2 hrs in the last 30 days.');
    expect(text).not.toMatch(/Zig|Rust/);
  });

  it('draws the weeks and the year, and refuses a chart that does not exist', async () => {
    const weekly = await image('weekly.svg');
    expect(weekly.status).toBe(200);
    expect(titleOf(await weekly.text())).toBe('Weekly coding time of the community, the last 12 weeks: 2 hrs');
    expect(titleOf(await (await image('activity.svg')).text())).toBe('Coding activity of the community, the last 365 days: 2 hrs');
    expect((await image('editors.svg')).status).toBe(404);
    expect((await image('languages.svg', 'range=2d')).status).toBe(400);
  });
});
