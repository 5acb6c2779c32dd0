// The key that signs the history's checkpoints: HISTORY_SIGNING_KEY (a PEM, or the path of one), which nodes sharing
// a store share, or else one generated into DATA_DIR. It is never in the log: whoever can write the log cannot sign.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyFingerprint } from './history-checkpoint.js';

export const GENERATED_KEY_FILE = 'history-signing-key.pem';

/** A signing key that cannot be used: what is wrong, naming the setting, so the server does not start on it. */
export class HistoryKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HistoryKeyError';
  }
}

export type HistorySigningKey = {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SubjectPublicKeyInfo, PEM: what `GET /history/public-key` serves. */
  publicPem: string;
  fingerprint: string;
  /** Where it came from, in words for the start-up line and the errors. */
  source: string;
  /** Kept in DATA_DIR, the setting unset; `generated`: made there by this call. */
  inDataDir: boolean;
  generated: boolean;
};

function parsed(pem: string, source: string): HistorySigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new HistoryKeyError(`HISTORY_SIGNING_KEY: ${source} is not a PEM private key`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new HistoryKeyError(
      `HISTORY_SIGNING_KEY: ${source} is a ${privateKey.asymmetricKeyType ?? 'secret'} key; checkpoints are signed with Ed25519 (openssl genpkey -algorithm ed25519)`,
    );
  const publicKey = createPublicKey(privateKey);
  return {
    privateKey,
    publicKey,
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    fingerprint: keyFingerprint(publicKey),
    source,
    inDataDir: false,
    generated: false,
  };
}

/** The configured key: the PEM itself, or the file it names (which must exist). */
function configuredKey(setting: string): HistorySigningKey {
  if (setting.trimStart().startsWith('-----BEGIN')) return parsed(setting, 'the PEM it holds');
  if (!existsSync(setting))
    throw new HistoryKeyError(
      `HISTORY_SIGNING_KEY: no file at ${setting} (give a PEM private key, or the path of one)`,
    );
  return parsed(readFileSync(setting, 'utf8'), setting);
}

/** The setting's key; unset, the one in DATA_DIR, generated there the first time (mode 0600). */
export function loadHistorySigningKey({
  configured,
  dataDir,
}: {
  configured: string | undefined;
  dataDir: string;
}): HistorySigningKey {
  if (configured !== undefined) return configuredKey(configured);
  const file = join(dataDir, GENERATED_KEY_FILE);
  let generated = false;
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    try {
      writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { flag: 'wx', mode: 0o600 });
      generated = true;
    } catch (error) {
      // Another process on this DATA_DIR made it first: theirs is the key.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(file, 0o600);
  return { ...parsed(readFileSync(file, 'utf8'), file), inDataDir: true, generated };
}

/** The public half only, without generating anything (`store:verify` reads, never writes): undefined when none. */
export function existingHistoryPublicKey({
  configured,
  dataDir,
}: {
  configured: string | undefined;
  dataDir: string;
}): HistorySigningKey | undefined {
  if (configured !== undefined) return configuredKey(configured);
  const file = join(dataDir, GENERATED_KEY_FILE);
  return existsSync(file) ? { ...parsed(readFileSync(file, 'utf8'), file), inDataDir: true } : undefined;
}
