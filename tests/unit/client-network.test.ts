import { describe, expect, it } from 'vitest';
import { clientNetwork, isClientAddress } from '@/lib/http/client-network';

// How limits count a client address: an IPv6 address by its /64 (or its /48 for a coarser budget),
// an IPv4 address (mapped into IPv6 or not) by itself, anything else as written.

describe('clientNetwork', () => {
  it('counts an IPv6 address as its /64, however it is written', () => {
    for (const written of ['2001:db8:1:2::9', '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:DB8:0001:0002::', '2001:db8:1:2:0:0:0:1', ' 2001:db8:1:2::1.2.3.4 ']) {
      expect(clientNetwork(written)).toBe('2001:db8:1:2::/64');
    }
    expect(clientNetwork('2001:db8:1:3::9')).not.toBe(clientNetwork('2001:db8:1:2::9'));
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('counts an IPv6 address as its /48 for the coarser budget', () => {
    expect(clientNetwork('2001:db8:1:2::9', 'block')).toBe('2001:db8:1::/48');
    expect(clientNetwork('2001:db8:1:ffff::9', 'block')).toBe('2001:db8:1::/48');
    expect(clientNetwork('2001:db8:2::9', 'block')).toBe('2001:db8:2::/48');
  });

  it('counts an IPv4 address, mapped into IPv6 or not, by itself at both breadths', () => {
    for (const written of ['203.0.113.9', '::ffff:203.0.113.9', '::FFFF:cb00:7109', '0:0:0:0:0:ffff:203.0.113.9']) {
      expect(clientNetwork(written)).toBe('203.0.113.9');
      expect(clientNetwork(written, 'block')).toBe('203.0.113.9');
    }
    expect(clientNetwork('203.0.113.10')).toBe('203.0.113.10');
  });

  it('keeps anything that is no address as written', () => {
    for (const written of ['unknown', '203.0.113.9:abc', '2001:db8::1::2', '']) expect(clientNetwork(written)).toBe(written);
    expect([isClientAddress('unknown'), isClientAddress('203.0.113.9'), isClientAddress('2001:db8::1'), isClientAddress('fe80::1%eth0')]).toEqual([false, true, true, true]);
  });
});
