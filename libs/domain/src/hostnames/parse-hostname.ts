// Seed section 5: a value starting with http:// or https:// is parsed as is, otherwise https:// is
// prepended; a hostname without a dot is rejected unless it is localhost. Stored ASCII, shown Unicode.
import punycode from 'punycode/punycode.js';

export type Hostname = { ascii: string; unicode: string };

const MAX_INPUT_LENGTH = 2048;
const MAX_NAME_LENGTH = 253;
// Letters, digits and inner hyphens, 1 to 63 characters (RFC 1035 labels; IDN labels arrive as xn--).
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const SCHEME = /^https?:\/\//i;

/** The Unicode (display) form of an ASCII hostname; the input itself if it is not valid punycode. */
export function toUnicodeHostname(ascii: string): string {
  try {
    return punycode.toUnicode(ascii);
  } catch {
    return ascii;
  }
}

export function parseHostname(value: string): Hostname | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > MAX_INPUT_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(SCHEME.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return null;
  }
  // A user name or password in a hostname field is a mistake or a disguise (e.g. "mailto:x@example.com").
  if (url.username !== '' || url.password !== '') return null;
  // URL lower-cases and converts Unicode labels to punycode; one trailing root dot is dropped.
  const ascii = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  if (ascii.length > MAX_NAME_LENGTH) return null;
  const labels = ascii.split('.');
  if (!labels.every((label) => LABEL.test(label))) return null;
  if (labels.length < 2 && ascii !== 'localhost') return null;
  const unicode = toUnicodeHostname(ascii);
  return { ascii, unicode };
}
