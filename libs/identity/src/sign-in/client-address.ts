// What the per-address sign-in throttle counts by. One IPv6 host holds a whole /64 (SLAAC, privacy
// addresses: 2^64 of them), so counting per IPv6 address would give an attacker endless fresh keys and
// the store endless streams; a /64 is what one customer line or one host gets, as an IPv4 address is.
import { isIPv4, isIPv6 } from 'node:net';

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The eight 16-bit groups of an IPv6 address, as numbers (a trailing dotted IPv4 part counts as two). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const groupsOf = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!isIPv4(group)) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [a * 256 + b, c * 256 + d];
        });
  const front = groupsOf(head);
  const back = tail === undefined ? [] : groupsOf(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** `203.0.113.7` for IPv4 (also written `::ffff:203.0.113.7`), `2001:db8:0:1::/64` for IPv6, anything else as it is. */
export function clientAddressKey(clientIp: string): string {
  const address = clientIp.trim().toLowerCase().replace(/%.*$/, '');
  const mapped = IPV4_MAPPED.exec(address)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (isIPv4(address) || !isIPv6(address)) return address;
  const prefix = ipv6Groups(address)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':');
  return `${prefix}::/64`;
}
