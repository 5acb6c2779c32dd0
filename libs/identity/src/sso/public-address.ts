// So that an issuer (or the endpoints it names) cannot make this server call itself, its neighbours or a cloud
// metadata service.
import { BlockList, isIPv4, isIPv6 } from 'node:net';

const notPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", the unspecified address
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  notPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: the IPv4 address it leads to is obfuscated
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some)
  ['ff00::', 8], // multicast
] as const) {
  notPublic.addSubnet(network, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const bare = address.split('%')[0] ?? '';
  if (isIPv4(bare)) return !notPublic.check(bare, 'ipv4');
  if (!isIPv6(bare)) return false;
  const embedded = embeddedIPv4(bare);
  if (embedded !== undefined && !isPublicAddress(embedded)) return false;
  return !notPublic.check(bare, 'ipv6');
}

/** IPv4-mapped, IPv4-compatible, NAT64 or 6to4: each would otherwise smuggle a private IPv4 address past the list. */
function embeddedIPv4(address: string): string | undefined {
  const words = ipv6Words(address);
  const high = words.slice(0, 6);
  const isZero = (list: number[]) => list.every((word) => word === 0);
  const quad = (first: number, second: number) => [first >> 8, first & 0xff, second >> 8, second & 0xff].join('.');
  const mapped = isZero(high.slice(0, 5)) && (high[5] === 0xffff || high[5] === 0);
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b && isZero(words.slice(2, 6));
  if (mapped || nat64) return quad(words[6] ?? 0, words[7] ?? 0);
  if (words[0] === 0x2002) return quad(words[1] ?? 0, words[2] ?? 0);
  return undefined;
}

function ipv6Words(address: string): number[] {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((word) => parseInt(word, 16)));
  if (tail === undefined) return parse(head);
  const [left, right] = [parse(head), parse(tail)];
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
