// A typo stops the process rather than letting every peer, or none, be trusted.
import { isIP } from 'node:net';

/** Which peers may say who the client is (X-Forwarded-For). */
export type TrustProxy = boolean | number | string[];

const trustedNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

export function parseTrustProxy(setting: string, problems: string[]): TrustProxy {
  const value = setting.trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const wrong = entries.filter((entry) => !isTrustedProxyEntry(entry));
  if (wrong.length > 0) {
    problems.push(
      `TRUST_PROXY: ${wrong.map((entry) => `"${entry}"`).join(', ')} is not an address, a subnet or one of ${[...trustedNames].join(', ')} (or use false, true or a hop count)`,
    );
  }
  return entries;
}

function isTrustedProxyEntry(entry: string): boolean {
  if (trustedNames.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}
