import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../lib/badges/format';
import { notFoundFace, renderSvg, styleOf } from '../../lib/badges/render';
import { badgeStyles } from '../../lib/badges/schemas';
import { cachedBadgeOf, cachedBadgePath } from '../../lib/badges/urls';

describe('badge durations', () => {
  it.each([
    [0, '0 mins'],
    [59, '0 mins'],
    [60, '1 min'],
    [45 * 60, '45 mins'],
    [3600, '1 hr'],
    [7200, '2 hrs'],
    [5400, '1 hr 30 mins'],
    [3660, '1 hr 1 min'],
    [123 * 3600 + 4 * 60, '123 hrs 4 mins'],
  ])('%i s reads %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe('badge SVG', () => {
  it.each(badgeStyles)('renders valid SVG in the %s style', (style) => {
    const svg = renderSvg({ label: 'coded 7d', message: '1 hr 30 mins', color: 'blue' }, style);
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain(style === 'for-the-badge' ? '1 HR 30 MINS' : '1 hr 30 mins');
  });

  it('keeps a hostile label as text', () => {
    const svg = renderSvg({ label: '</text><script>alert(1)</script><text>', message: '"><img src=x onerror=alert(1)>', color: 'red' }, 'flat');
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<img');
    const doc = new XMLParser({ ignoreAttributes: false }).parse(svg);
    const elements = new Set<string>();
    const texts: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '#text') texts.push(String(value));
          else if (!key.startsWith('@_')) elements.add(key);
          walk(value);
        }
      }
    };
    walk(doc);
    expect([...elements]).not.toContain('script');
    expect([...elements]).not.toContain('img');
    expect(texts).toContain('</text><script>alert(1)</script><text>');
  });

  it('has a small valid "badge not found" image', () => {
    const svg = renderSvg(notFoundFace, 'flat');
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain('badge not found');
  });

  it('falls back to the badge style for an unknown requested style', () => {
    expect(styleOf('plastic', 'flat')).toBe('plastic');
    expect(styleOf('neon', 'social')).toBe('social');
    expect(styleOf(null, 'bogus')).toBe('flat');
  });
});

describe('the cached badge route', () => {
  const owner = '4A37A771-ACF4-473A-8795-8622C5EF53E0';
  const badge = '79E4A471-FED3-40D7-A004-E2590D3AD097';
  const paramsOf = (path: string) => {
    const [, , format, userUUID, b, style] = path.split('/');
    return { format, userUUID, badge: b, style };
  };

  it('answers every path the proxy makes of a badge URL, with its ids in lower case', () => {
    const urls = [
      `svg/${owner}`,
      `svg/${owner}?badge=${badge}&style=for-the-badge`,
      `svg/${owner}?style=nonsense`,
      `shields/${owner}?badge=${badge}&style=flat`,
    ];
    for (const url of urls) {
      const path = cachedBadgePath('GET', new URL(`http://x/main/api/v1/public/github/${url}`))!;
      const named = cachedBadgeOf(paramsOf(path));
      expect(named, path).not.toBeNull();
      expect(named!.owner).toBe(owner.toLowerCase());
      expect(named!.badge).toBe(url.includes('badge=') ? badge.toLowerCase() : undefined);
    }
  });

  it('answers no other path: ids in upper case, unknown formats and styles', () => {
    const lower = owner.toLowerCase();
    for (const params of [
      { format: 'svg', userUUID: owner, badge: 'first', style: 'own' },
      { format: 'svg', userUUID: lower, badge: badge, style: 'own' },
      { format: 'png', userUUID: lower, badge: 'first', style: 'own' },
      { format: 'svg', userUUID: lower, badge: 'first', style: 'zzz' },
      { format: 'svg', userUUID: lower, badge: 'first', style: 'own.rsc' },
      { format: 'shields', userUUID: lower, badge: 'first', style: 'flat' },
      { format: 'svg', userUUID: 'not-a-uuid', badge: 'first', style: 'own' },
      { format: 'svg', userUUID: lower, badge: 'second', style: 'own' },
    ]) {
      expect(cachedBadgeOf(params), JSON.stringify(params)).toBeNull();
    }
  });
});
