// SESSION_SECRET signs session, XSRF and OAuth-state values. Unset outside production, one is
// generated once and kept in DATA_DIR/session-secret (0600), so restarts keep sessions valid.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type SessionSecretSource = { configured: string | undefined; dataDir: string; production: boolean };

export function loadSessionSecret({ configured, dataDir, production }: SessionSecretSource): string {
  if (configured !== undefined) return configured;
  if (production) throw new Error('SESSION_SECRET: required when NODE_ENV=production');
  const file = join(dataDir, 'session-secret');
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(48).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Tighten a file that was copied or created looser than we would have made it.
  chmodSync(file, 0o600);
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file}: the stored session secret is shorter than 32 characters`);
  return secret;
}
