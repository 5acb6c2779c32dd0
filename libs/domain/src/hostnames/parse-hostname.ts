// Stored ASCII, shown Unicode.
import punycode from 'punycode/punycode.js';

export type Hostname = { ascii: string; unicode: string };

const MAX_INPUT_LENGTH = 2048;
const MAX_NAME_LENGTH = 253;
// RFC 1035 labels; IDN labels arrive as xn--.
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const SCHEME = /^https?:\/\//i;

export function toUnicodeHostname(ascii: string): string {
  try {
    return punycode.toUnicode(ascii);
  } catch {
    return ascii;
  }
}

export type HostnameFault =
  'empty' | 'too-long' | 'scheme' | 'space' | 'credentials' | 'characters' | 'label' | 'no-dot';

// A scheme other than http(s) would otherwise become a host named after it ("ftp"), refused for its missing dot.
const OTHER_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

export function readHostname(value: string): { hostname: Hostname } | { fault: HostnameFault } {
  if (typeof value !== 'string') return { fault: 'empty' };
  const trimmed = value.trim();
  if (trimmed === '') return { fault: 'empty' };
  if (trimmed.length > MAX_INPUT_LENGTH) return { fault: 'too-long' };
  if (!SCHEME.test(trimmed) && OTHER_SCHEME.test(trimmed)) return { fault: 'scheme' };
  let url: URL;
  try {
    url = new URL(SCHEME.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return { fault: /\s/.test(trimmed) ? 'space' : 'characters' };
  }
  // A user name or password in a hostname field is a mistake or a disguise (e.g. "mailto:x@example.com").
  if (url.username !== '' || url.password !== '') return { fault: 'credentials' };
  const ascii = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  if (ascii.length > MAX_NAME_LENGTH) return { fault: 'too-long' };
  const labels = ascii.split('.');
  if (!labels.every((label) => LABEL.test(label))) return { fault: 'label' };
  if (labels.length < 2 && ascii !== 'localhost') return { fault: 'no-dot' };
  return { hostname: { ascii, unicode: toUnicodeHostname(ascii) } };
}

export function parseHostname(value: string): Hostname | null {
  const read = readHostname(value);
  return 'hostname' in read ? read.hostname : null;
}
