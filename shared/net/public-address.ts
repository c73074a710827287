/**
 * Whether an IP address is one a URL given by a user may reach: not loopback, private, link-local,
 * multicast, unspecified or otherwise reserved, in IPv4 or IPv6. IPv6 forms that carry an IPv4
 * address inside them (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`) are judged by that address,
 * so `::ffff:127.0.0.1` is loopback.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", the unspecified address
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, the broadcast address
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['::', 96], // IPv4-compatible (deprecated)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries (IPv4-mapped or NAT64), if any. */
function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address);
  if (!groups) return undefined;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (!mapped && !nat64) return undefined;
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail is folded into the last two). */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(tail);
  const zeros = tail === undefined ? 0 : 8 - front.length - back.length;
  const groups = [...front, ...new Array<number>(Math.max(0, zeros)).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : undefined;
}

export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !blocked.check(address, 'ipv4');
  if (!isIPv6(address)) return false;
  const inner = embeddedIpv4(address);
  if (inner !== undefined) return !blocked.check(inner, 'ipv4');
  return !blocked.check(address, 'ipv6');
}
