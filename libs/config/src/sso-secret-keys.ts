// SSO_SECRET_KEYS: the keys that seal secrets at rest (SSO client secrets, authenticator app secrets).

export type SsoSecretKey = { id: string; key: Buffer };

/**
 * `k2:<base64>,k1:<base64>`: key ids (1 to 32 letters, digits, `_`, `-`, each once) with 32-byte keys
 * in base64 or base64url. The first seals new secrets; the others still open what they sealed, so a key
 * is rotated by putting a new one first and dropping the old one once nothing sealed with it is left.
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
    // Never echo the key itself: the message names the key id only.
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

