import { isIPv4, isIPv6 } from 'node:net';

// A client address (lib/http/origin.ts) as limits count it. One IPv6 host holds a whole /64 (it
// picks a new address in it at will: privacy addresses), and one site usually a /48: counted
// address by address, one host asked as thousands of visitors. So an IPv6 address counts as its
// /64 (its "network"), and a coarser budget as its /48 (its "block"). IPv4 addresses are scarce
// and count one by one at both breadths; an IPv4-mapped IPv6 address (::ffff:203.0.113.9, how a
// dual-stack socket names an IPv4 peer) is the IPv4 address it maps. Anything that is no address
// ("unknown": nobody recorded it) counts as written.

export type Breadth = 'network' | 'block';

const prefixGroups: Record<Breadth, number> = { network: 4, block: 3 };

/** The eight 16-bit groups of a valid IPv6 address (zone already removed). */
function groupsOf(address: string): number[] {
  let text = address;
  if (text.includes('.')) {
    // A dotted IPv4 tail (::ffff:203.0.113.9) is the last two groups.
    const colon = text.lastIndexOf(':');
    const [a, b, c, d] = text.slice(colon + 1).split('.').map(Number);
    text = `${text.slice(0, colon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const [head, tail] = text.split('::');
  if (tail === undefined) return parse(head);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The subject a limit counts for this client address: an IPv4 address itself; an IPv6 address's
 * /64 (`network`) or /48 (`block`), written `2001:db8:1:2::/64`; anything else as given.
 */
export function clientNetwork(address: string, breadth: Breadth = 'network'): string {
  const text = address.trim().toLowerCase();
  if (isIPv4(text)) return text;
  const bare = text.split('%')[0]; // a zone (fe80::1%eth0) names the server's interface, not the client
  if (!isIPv6(bare)) return text;
  const groups = groupsOf(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  const kept = prefixGroups[breadth];
  return `${groups.slice(0, kept).map((g) => g.toString(16)).join(':')}::/${kept * 16}`;
}

/** Whether this is an address at all (a limit may trust what it learned of one, never of "unknown"). */
export const isClientAddress = (address: string) => isIPv4(address.trim()) || isIPv6(address.trim().split('%')[0]);
