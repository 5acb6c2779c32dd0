// Only the token's SHA-256 is stored, so the mail holds the sole copy.
import { createHmac, randomBytes } from 'node:crypto';
import { sha256Hex } from '../hashing.js';

export type IssuedUserToken = { token: string; tokenHash: string };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function issueUserToken(userId: string): IssuedUserToken {
  return userToken(userId, randomBytes(32));
}

/** Deterministic, so a link can be mailed again after a crash; unguessable without the key. */
export function deriveUserToken(userId: string, key: Buffer, reason: string): IssuedUserToken {
  return userToken(userId, createHmac('sha256', key).update(reason, 'utf8').digest());
}

function userToken(userId: string, secret: Buffer): IssuedUserToken {
  if (!uuidPattern.test(userId)) throw new Error(`Link tokens need a UUID user id, not ${userId}`);
  const token = Buffer.concat([Buffer.from(userId.replaceAll('-', ''), 'hex'), secret]).toString('base64url');
  return { token, tokenHash: sha256Hex(token) };
}

export function readUserToken(token: string): { userId: string; tokenHash: string } | undefined {
  if (!/^[A-Za-z0-9_-]{64}$/.test(token)) return undefined;
  const hex = Buffer.from(token, 'base64url').subarray(0, 16).toString('hex');
  const userId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { userId, tokenHash: sha256Hex(token) };
}
