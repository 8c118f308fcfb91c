import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/config';
import { clientAddress, siteOrigin } from '@/lib/http/origin';

const saved = { ...process.env };
function env(vars: Record<string, string>) {
  process.env = { ...saved, ...vars };
  delete process.env.SITE_URL;
  delete process.env.TRUST_PROXY;
  Object.assign(process.env, vars);
  resetConfig();
}
afterEach(() => {
  process.env = { ...saved };
  resetConfig();
});
const headers = (h: Record<string, string>) => new Headers(h);

describe('the site origin', () => {
  it('is SITE_URL when set, whatever the request says', () => {
    env({ SITE_URL: 'https://codetally.example/ignored/path' });
    expect(siteOrigin(headers({ host: 'internal:3000', 'x-forwarded-host': 'evil.example' }))).toBe('https://codetally.example');
  });

  it('is the Host over http when no proxy is trusted: forwarded headers are anybody\'s', () => {
    env({});
    expect(siteOrigin(headers({ host: 'codetally.example:8080', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }))).toBe('http://codetally.example:8080');
  });

  it('is what the trusted proxy says when there is one', () => {
    env({ TRUST_PROXY: 'true' });
    expect(siteOrigin(headers({ host: 'internal:3000', 'x-forwarded-host': 'codetally.example', 'x-forwarded-proto': 'https' }))).toBe('https://codetally.example');
  });

  it('never echoes a Host that is not a host name', () => {
    env({});
    for (const host of ['evil.example/path', 'a b', 'x"><script>', '']) expect(siteOrigin(headers(host ? { host } : {}))).toBe('http://localhost');
  });
});

describe('the client address', () => {
  it('is the entry the nearest trusted hop added', () => {
    env({});
    expect(clientAddress(headers({ 'x-forwarded-for': '203.0.113.9' }))).toBe('203.0.113.9');
    env({ TRUST_PROXY: '1' });
    // A client's own claim, then the proxy's view of the client, then the proxy as the server saw it.
    expect(clientAddress(headers({ 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.0.0.2' }))).toBe('203.0.113.9');
    env({ TRUST_PROXY: '2' });
    expect(clientAddress(headers({ 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.0.0.5, 10.0.0.2' }))).toBe('203.0.113.9');
  });
});
