/**
 * Whether an IP address is one a URL given by a user may reach: not loopback, private, link-local,
 * multicast, unspecified or otherwise reserved, in IPv4 or IPv6. IPv6 forms that carry an IPv4
 * address inside them are judged by that address, so `::ffff:127.0.0.1` is loopback: IPv4-mapped
 * `::ffff:a.b.c.d`, NAT64 (`64:ff9b::/96` and the local-use `64:ff9b:1::/48`), 6to4 (`2002::/16`) and
 * Teredo (`2001::/32`, which carries two: its server's and its client's). Each of these reaches the
 * IPv4 address through a gateway, so `2002:7f00:1::` is as much 127.0.0.1 as `::ffff:127.0.0.1` is.
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

/** The IPv4 addresses an IPv6 address carries (see the top of this file); none for a plain one. */
function embeddedIpv4s(address: string): string[] {
  const groups = expandIpv6(address);
  if (!groups) return [];
  const [g0, g1, g2 = 0, g3 = 0, , , g6 = 0, g7 = 0] = groups;
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const mapped = zero(0, 5) && groups[5] === 0xffff;
  const nat64 = g0 === 0x64 && g1 === 0xff9b && zero(2, 6);
  // RFC 8215: the local-use prefix; its IPv4 address is taken to be the last 32 bits.
  const localNat64 = g0 === 0x64 && g1 === 0xff9b && g2 === 1;
  if (mapped || nat64 || localNat64) return [ipv4Of(g6, g7)];
  // RFC 3056: 2002:AABB:CCDD::/48 is the 6to4 site behind AA.BB.CC.DD.
  if (g0 === 0x2002) return [ipv4Of(g1 ?? 0, g2)];
  // RFC 4380: 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the client's address stored inverted.
  if (g0 === 0x2001 && g1 === 0) return [ipv4Of(g2, g3), ipv4Of(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

function ipv4Of(high: number, low: number): string {
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
  const inner = embeddedIpv4s(address);
  if (inner.length > 0) return inner.every((ipv4) => !blocked.check(ipv4, 'ipv4'));
  return !blocked.check(address, 'ipv6');
}
