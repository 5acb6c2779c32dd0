export type SsoSecretKey = { id: string; key: Buffer };

/**
 * `k2:<base64>,k1:<base64>`: the first seals; the others still open what they sealed until nothing sealed with them is
 * left.
 */
export function parseSsoSecretKeys(setting: string, problems: string[]): SsoSecretKey[] {
  const keys: SsoSecretKey[] = [];
  for (const entry of setting.split(',').map((part) => part.trim())) {
    const separator = entry.indexOf(':');
    const id = entry.slice(0, separator);
    const encoded = entry.slice(separator + 1);
    if (separator < 1 || !/^[A-Za-z0-9_-]{1,32}$/.test(id)) {
      problems.push(`SSO_SECRET_KEYS: an entry is not <key id>:<key> (key ids are 1 to 32 letters, digits, _ or -)`);
      continue;
    }
    const key = Buffer.from(encoded, 'base64');
    // Never echo the key itself.
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded) || key.length !== 32) {
      problems.push(`SSO_SECRET_KEYS: key "${id}" must be 32 bytes in base64 (openssl rand -base64 32)`);
      continue;
    }
    if (keys.some((known) => known.id === id)) {
      problems.push(`SSO_SECRET_KEYS: key id "${id}" is given twice`);
      continue;
    }
    keys.push({ id, key });
  }
  return keys;
}
