import { describe, expect, it } from 'vitest';
import { agentLabel, originText } from '@/lib/accounts/token-origin';

// What a token's record keeps of the User-Agent that made it: what a person recognises, never
// the whole header (it can carry versions precise enough to fingerprint a machine).

describe('agentLabel', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 'Safari on macOS'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge on Windows'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1', 'Chrome on iOS'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['Mozilla/5.0 (compatible; SomeBot)', 'A browser'],
    ['curl/8.5.0', 'curl/8.5.0'],
    ['python-requests/2.31.0 extra words', 'python-requests/2.31.0'],
    ['node', 'node'],
  ])('%s -> %s', (ua, label) => expect(agentLabel(ua)).toBe(label));

  it('keeps nothing of an empty or unreadable header', () => {
    for (const ua of [null, undefined, '', '   ', '\u0000bad', '(no product)']) expect(agentLabel(ua)).toBeNull();
    expect(agentLabel(`${'x'.repeat(200)}/1`)?.length).toBe(64);
  });

  it('says where a token was made', () => {
    expect(originText({ created_via: 'dashboard', created_agent: 'Firefox on Linux', created_with: null })).toBe('the dashboard, in Firefox on Linux');
    expect(originText({ created_via: 'api', created_agent: 'curl/8.5.0', created_with: 'ct_ab12cd3' })).toBe('the API with key ct_ab12cd3…, by curl/8.5.0');
    expect(originText({ created_via: 'operator', created_agent: null, created_with: null })).toBe('an operator');
    expect(originText({ created_via: null, created_agent: null, created_with: null })).toBe('not recorded');
  });
});
