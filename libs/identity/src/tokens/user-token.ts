// A link's token (password reset, invitation): the user's id and 256 random bits, base64url. The id
// says which stream to read; only the SHA-256 of the whole token is stored, so the mail holds the sole copy.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../hashing.js';

export type IssuedUserToken = { token: string; tokenHash: string };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function issueUserToken(userId: string): IssuedUserToken {
  if (!uuidPattern.test(userId)) throw new Error(`Link tokens need a UUID user id, not ${userId}`);
  const token = Buffer.concat([Buffer.from(userId.replaceAll('-', ''), 'hex'), randomBytes(32)]).toString('base64url');
  return { token, tokenHash: sha256Hex(token) };
}

/** The user a token names, or undefined for anything that is not one of our tokens. */
export function readUserToken(token: string): { userId: string; tokenHash: string } | undefined {
  if (!/^[A-Za-z0-9_-]{64}$/.test(token)) return undefined;
  const hex = Buffer.from(token, 'base64url').subarray(0, 16).toString('hex');
  const userId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { userId, tokenHash: sha256Hex(token) };
}
