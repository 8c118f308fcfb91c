import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { chartOfSegment } from '../../lib/charts/schemas';
import { activitySvg, darkColours, escapeXml, hoursSvg, languagesSvg, lightColours, weeklySvg, type ChartTheme } from '../../lib/charts/svg';
import { cachedChartOf, cachedChartPath, chartEmbeds } from '../../lib/charts/urls';
import { addDays, eachDay, isoWeekStart } from '../../lib/dates';

const hostile = `<script>alert("x")</script> & 'quotes'`;
const year = (to: string) => eachDay(addDays(to, -364), to).map((date, i) => ({ date, seconds: i % 3 === 0 ? 600 : 0, level: i % 3 === 0 ? 2 : 0 }));
const parse = (svg: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(svg).svg;

describe('chart images', () => {
  it('escapes the five XML characters', () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
  });

  it('are valid SVG with a title and desc the image is labelled by, and escape names from users', () => {
    const drawn = [
      activitySvg({ name: hostile, days: year('2026-11-26') }, 'auto'),
      hoursSvg({ name: hostile, grid: Array.from({ length: 7 }, () => Array(24).fill(60)), from: '2025-11-27', to: '2026-11-26' }, 'auto'),
      languagesSvg({ name: hostile, range: '30d', languages: [{ name: hostile, seconds: 3600 }] }, 'light'),
      weeklySvg({ name: hostile, weeks: [{ week_start: '2026-11-23', seconds: 60 }], today: '2026-11-26' }, 'dark'),
    ];
    for (const { svg, title, width, height } of drawn) {
      expect(XMLValidator.validate(svg)).toBe(true);
      expect(svg).not.toContain('<script');
      expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;quotes&apos;');
      const root = parse(svg);
      expect(root.xmlns).toBe('http://www.w3.org/2000/svg');
      expect(root.role).toBe('img');
      expect(root['aria-labelledby']).toBe('chart-title chart-desc');
      expect(root.title).toMatchObject({ id: 'chart-title', '#text': title });
      expect(root.desc.id).toBe('chart-desc');
      expect(root.viewBox).toBe(`0 0 ${width} ${height}`);
      expect([Number(root.width), Number(root.height)]).toEqual([width, height]);
    }
  });

  it('activity: one cell per day of the year in 53 columns, and its figures in words', () => {
    const days = year('2026-11-26');
    const { svg, title, desc } = activitySvg({ name: 'Ada', days }, 'light');
    expect(title).toBe('Coding activity of Ada, the last 365 days: 20 hrs 20 mins');
    const cells = [...svg.matchAll(/<rect x="(\d+)" y="(\d+)" width="10" height="10" rx="2" class="l(\d)"\/>/g)];
    // The day cells, then the legend's five.
    expect(cells).toHaveLength(365 + 5);
    const dayCells = cells.slice(0, 365);
    expect(new Set(dayCells.map((c) => c[1])).size).toBe(53);
    expect(new Set(dayCells.map((c) => c[2])).size).toBe(7);
    expect(new Set(dayCells.map((c) => `${c[1]},${c[2]}`)).size).toBe(365);
    expect(dayCells.filter((c) => c[3] === '2')).toHaveLength(122);
    expect(desc).toBe('122 active days between 2025-11-27 and 2026-11-26, 20 hrs 20 mins in all; the busiest day 2025-11-27 (10 mins).');
    for (const label of ['Mon', 'Wed', 'Fri', 'Jan', 'Less', 'More']) expect(svg).toContain(`>${label}</text>`);
  });

  it('hours: a square per weekday and hour, as dark as its share of the busiest, and its figures in words', () => {
    const grid = Array.from({ length: 7 }, () => Array<number>(24).fill(0));
    grid[1][13] = 7200; // Tuesday 13:00, the busiest
    grid[1][14] = 1800;
    grid[6][22] = 60;
    const { svg, title, desc } = hoursSvg({ name: 'Ada', grid, from: '2025-11-27', to: '2026-11-26' }, 'light');
    const cells = [...svg.matchAll(/<rect x="(\d+)" y="(\d+)" width="12" height="12" rx="2" class="l(\d)"\/>/g)];
    // The hour cells, Monday's first, then the legend's five.
    expect(cells).toHaveLength(168 + 5);
    const hourCells = cells.slice(0, 168);
    expect(new Set(hourCells.map((c) => c[1])).size).toBe(24);
    expect(new Set(hourCells.map((c) => c[2])).size).toBe(7);
    const levelAt = (day: number, hour: number) => Number(hourCells[day * 24 + hour][3]);
    expect([levelAt(1, 13), levelAt(1, 14), levelAt(6, 22), levelAt(0, 0)]).toEqual([4, 1, 1, 0]);
    expect(hourCells.filter((c) => c[3] !== '0')).toHaveLength(3);
    expect(title).toBe('When in the week Ada codes, 2025-11-27 to 2026-11-26: 2 hrs 31 mins');
    expect(desc).toBe("Coding time by weekday and hour between 2025-11-27 and 2026-11-26: 3 of the week's 168 hours have some; the busiest, Tue 13:00 to 14:00, 2 hrs in all.");
    for (const label of ['Mon', 'Sun', '0', '21', 'Less', 'More']) expect(svg).toContain(`>${label}</text>`);
    expect(hoursSvg({ name: 'Ada', grid: grid.map((row) => row.map(() => 0)), from: '2025-11-27', to: '2026-11-26' }, 'light').desc).toBe('No coding time between 2025-11-27 and 2026-11-26.');
  });

  it('languages: the top 8 and "All others", each with its time and share', () => {
    const languages = Array.from({ length: 10 }, (_, i) => ({ name: `L${i}`, seconds: (10 - i) * 600 }));
    const { svg, title, desc } = languagesSvg({ name: 'Ada', range: '7d', languages }, 'light');
    expect(title).toBe('Languages of Ada, the last 7 days: 9 hrs 10 mins');
    expect(desc).toMatch(/^Most time in L0 \(18\.2%\), L1 \(16\.4%\), .*L7 \(5\.5%\), all others \(5\.5%\); 9 hrs 10 mins in the last 7 days\.$/);
    expect(svg).toContain('>1 hr 40 mins · 18.2%</text>');
    expect(svg).toContain('>All others</text>');
    expect(svg).not.toContain('>L8</text>');
    expect(languagesSvg({ name: 'Ada', range: '30d', languages: null }, 'light').svg).toContain('>Languages are not shared.</text>');
    expect(languagesSvg({ name: 'Ada', range: '30d', languages: [] }, 'light')).toMatchObject({ title: 'Languages of Ada, the last 30 days: 0 mins', desc: 'No coding time in the last 30 days.' });
    // Languages not shared: neither they nor their total are named.
    expect(languagesSvg({ name: 'Ada', range: '30d', languages: null }, 'light').title).toBe('Languages of Ada, the last 30 days');
  });

  it('weekly: a column per week, the current one marked as so far', () => {
    const today = '2026-11-26'; // a Thursday
    const weeks = Array.from({ length: 12 }, (_, i) => ({ week_start: addDays(isoWeekStart(today), -7 * (11 - i)), seconds: i * 3600 }));
    const { svg, title, desc } = weeklySvg({ name: 'Ada', weeks, today }, 'light');
    expect(title).toBe('Weekly coding time of Ada, the last 12 weeks: 66 hrs');
    expect([...svg.matchAll(/class="c1"/g)]).toHaveLength(12);
    expect(svg).toContain('fill-opacity="0.45"');
    expect(svg).toContain('>so far</text>');
    expect(desc).toContain('week of 2026-09-07 0 mins, week of 2026-09-14 1 hr,');
    expect(desc).toMatch(/this week so far \(4 of 7 days\) 11 hrs\.$/);
    expect(desc.startsWith('66 hrs in 12 weeks: ')).toBe(true);
  });

  it('the profile\'s two card-sized images fit a phone\'s card with their text 9 px or more', () => {
    // A 390 px screen leaves a card 324 px of content (1 rem of page and of card padding each side, a 1 px border).
    const card = 390 - 4 * 16 - 2;
    const grid = Array.from({ length: 7 }, () => Array<number>(24).fill(60));
    const weeks = Array.from({ length: 12 }, (_, i) => ({ week_start: addDays('2026-11-23', -7 * (11 - i)), seconds: 3600 }));
    for (const drawn of [hoursSvg({ name: 'Ada', grid, from: '2025-11-27', to: '2026-11-26' }, 'light'), weeklySvg({ name: 'Ada', weeks, today: '2026-11-26' }, 'light')]) {
      expect(drawn.svg).toContain(`font-size:${drawn.textPx}px`);
      expect((drawn.textPx * Math.min(1, card / drawn.width))).toBeGreaterThanOrEqual(9);
    }
  });

  it('carry their own colours: light, dark, or both by the colour scheme', () => {
    const draw = (theme: ChartTheme) => activitySvg({ name: 'Ada', days: year('2026-11-26') }, theme).svg;
    expect(draw('light')).toContain(lightColours.l0);
    expect(draw('light')).not.toContain(darkColours.l0);
    expect(draw('dark')).toContain(darkColours.l0);
    expect(draw('dark')).not.toContain(lightColours.l0);
    expect(draw('light')).not.toContain('prefers-color-scheme');
    const auto = draw('auto');
    expect(auto).toMatch(new RegExp(`${lightColours.l0}.*@media \\(prefers-color-scheme: dark\\)\\{.*${darkColours.l0}`));
  });
});

describe('chart image URLs', () => {
  const owner = '0F8FAD5B-D9CB-469F-A165-70867728950E';
  const lower = owner.toLowerCase();
  const paramsOf = (path: string) => {
    const [, , userUUID, chart, range, theme] = path.split('/');
    return { userUUID, chart, range, theme };
  };

  it('names charts by their file name only', () => {
    expect(chartOfSegment('languages.svg')).toBe('languages');
    expect(chartOfSegment('activity.svg')).toBe('activity');
    expect(chartOfSegment('weekly.svg')).toBe('weekly');
    for (const s of ['languages', 'languages.png', 'time.svg', 'Languages.svg', 'weekly.svg.svg']) expect(chartOfSegment(s)).toBeNull();
  });

  it('sends a GET or HEAD of a chart URL to one cached path per chart, range and theme', () => {
    const path = (url: string, method = 'GET') => cachedChartPath(method, new URL(`http://x/main/api/v1/public/charts/${url}`));
    expect(path(`${owner}/languages.svg`)).toBe(`/cached-chart/${lower}/languages/30d/auto`);
    expect(path(`${owner}/languages.svg?range=7d&theme=dark`, 'HEAD')).toBe(`/cached-chart/${lower}/languages/7d/dark`);
    expect(path(`${owner}/activity.svg?range=30d&theme=light`)).toBe(`/cached-chart/${lower}/activity/own/light`);
    expect(path(`${owner}/weekly.svg`)).toBe(`/cached-chart/${lower}/weekly/own/auto`);
    // Left to the public route: its 400, its 404, other methods.
    expect(path(`${owner}/weekly.svg?theme=blue`)).toBeNull();
    expect(path(`${owner}/languages.svg?range=all`)).toBeNull();
    expect(path(`not-a-uuid/weekly.svg`)).toBeNull();
    expect(path(`${owner}/time.svg`)).toBeNull();
    expect(path(`${owner}/weekly.svg`, 'POST')).toBeNull();
    // The site-wide images (the home page's) are cached alike.
    expect(path('community/languages.svg?theme=light')).toBe('/cached-chart/community/languages/30d/light');
    expect(path('Community/weekly.svg')).toBe('/cached-chart/community/weekly/own/auto');
    for (const url of [`${owner}/languages.svg?range=365d`, `${owner}/activity.svg`, `${owner}/weekly.svg?theme=dark`, 'community/activity.svg']) {
      expect(cachedChartOf(paramsOf(path(url)!)), url).not.toBeNull();
    }
  });

  it('the cached route answers no other path', () => {
    for (const params of [
      { userUUID: owner, chart: 'weekly', range: 'own', theme: 'auto' },
      { userUUID: lower, chart: 'weekly.svg', range: 'own', theme: 'auto' },
      { userUUID: lower, chart: 'weekly', range: '30d', theme: 'auto' },
      { userUUID: lower, chart: 'languages', range: 'own', theme: 'auto' },
      { userUUID: lower, chart: 'languages', range: '30d', theme: 'blue' },
      { userUUID: lower, chart: 'languages', range: '30d', theme: 'auto.rsc' },
      { userUUID: 'nobody', chart: 'activity', range: 'own', theme: 'auto' },
      { userUUID: 'Community', chart: 'activity', range: 'own', theme: 'auto' },
    ]) {
      expect(cachedChartOf(params), JSON.stringify(params)).toBeNull();
    }
    expect(cachedChartOf({ userUUID: lower, chart: 'languages', range: '365d', theme: 'dark' })).toEqual({ owner: lower, chart: 'languages', range: '365d', theme: 'dark' });
  });
});

describe('chart embeds for a README', () => {
  it('give each chart\'s public URL as Markdown, each URL one the proxy sends to the cache', () => {
    const id = '0b8f9e4e-5a53-4a6f-9d1c-2f3b4c5d6e7f';
    const embeds = chartEmbeds('https://codetally.example', id);
    expect(embeds.map((e) => e.chart)).toEqual(['languages', 'activity', 'hours', 'weekly']);
    for (const e of embeds) {
      expect(e.markdown).toBe(`![${e.title}](https://codetally.example/main/api/v1/public/charts/${id}/${e.chart}.svg)`);
      expect(cachedChartPath('GET', new URL(e.url))).toBe(`/cached-chart/${id}/${e.chart}/${e.chart === 'languages' ? '30d' : 'own'}/auto`);
    }
  });
});
