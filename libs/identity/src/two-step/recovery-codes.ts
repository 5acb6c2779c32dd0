// Recovery codes: ten single-use codes of 80 random bits each, shown once, kept as SHA-256 digests (the
// codes are random, so a slow hash adds nothing). Letters and digits that cannot be mistaken for one another.
import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '#domain';
import { sha256Hex } from '../hashing.js';

const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 4;

export type RecoveryCodes = { codes: string[]; hashes: string[] };

/** "7K2M-QX9P-3HDA-W4ZT": 16 characters of 32, 80 bits. */
function newCode(): string {
  const groups: string[] = [];
  for (let group = 0; group < GROUPS; group += 1) {
    let text = '';
    for (let index = 0; index < GROUP_LENGTH; index += 1) text += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(text);
  }
  return groups.join('-');
}

/** Upper case, without spaces or dashes; undefined for anything that cannot be a recovery code. */
export function asRecoveryCode(input: string): string | undefined {
  const code = input.replace(/[\s-]+/g, '').toUpperCase();
  return code.length === GROUPS * GROUP_LENGTH && [...code].every((character) => ALPHABET.includes(character))
    ? code
    : undefined;
}

export const recoveryCodeHash = (code: string): string => sha256Hex(`recovery-code:${code}`);

export function newRecoveryCodes(): RecoveryCodes {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  return { codes, hashes: codes.map((code) => recoveryCodeHash(asRecoveryCode(code) as string)) };
}
