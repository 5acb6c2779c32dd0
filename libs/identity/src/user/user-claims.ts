// Unique e-mail addresses, usernames and Google accounts, enforced by the event store itself:
// each value owns a stream (`identity-<kind>-<sha256 of the value>`) that is created with
// expected revision 'no_stream', so two API nodes can never give one value to two users. The same
// stream answers lookups, strongly consistent, with no index to keep in step.
import { randomUUID } from 'node:crypto';
import { WrongExpectedRevisionError, type EventStore } from '#event-store';
import { IdentityError } from '../errors.js';
import { sha256Hex } from '../hashing.js';
import { eventMetadata, type RequestContext } from '../metadata.js';
import { userStream } from './events.js';

export type ClaimKind = 'email' | 'username' | 'google';

export type IdentifierClaimed = { type: 'IdentifierClaimed'; data: { kind: ClaimKind; userId: string } };

export const claimStream = (kind: ClaimKind, normalizedValue: string): string =>
  `identity-${kind}-${sha256Hex(normalizedValue)}`;

const taken = (kind: ClaimKind): IdentityError =>
  new IdentityError('DUPLICATE', `This ${kind === 'google' ? 'Google account' : kind} is already taken.`, { field: kind });

const claimedUserId = (data: unknown): string | undefined =>
  typeof data === 'object' && data !== null && typeof (data as { userId?: unknown }).userId === 'string'
    ? (data as { userId: string }).userId
    : undefined;

export class UserClaims {
  constructor(private readonly store: EventStore) {}

  /** The user holding this value, if any. */
  async find(kind: ClaimKind, normalizedValue: string): Promise<string | undefined> {
    const result = await this.store.readStream(claimStream(kind, normalizedValue), { direction: 'backwards', maxCount: 1 });
    return result.found ? claimedUserId(result.events[0]?.data) : undefined;
  }

  /**
   * Gives the value to the user, or refuses with DUPLICATE. A claim whose user stream was never
   * written (the process stopped between the two appends) is stale and may be taken over.
   */
  async claim(kind: ClaimKind, normalizedValue: string, userId: string, context: RequestContext): Promise<void> {
    const stream = claimStream(kind, normalizedValue);
    const current = await this.store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    let expected: bigint | 'no_stream' = 'no_stream';
    if (current.found) {
      const last = current.events[0];
      const holder = claimedUserId(last?.data);
      if (holder === userId) return;
      if (holder !== undefined && (await this.store.readStream(userStream(holder), { maxCount: 1 })).found) {
        throw taken(kind);
      }
      expected = last?.revision ?? 'no_stream';
    }
    const event: IdentifierClaimed = { type: 'IdentifierClaimed', data: { kind, userId } };
    try {
      await this.store.append(stream, [{ id: randomUUID(), ...event, metadata: eventMetadata(context) }], expected);
    } catch (error) {
      throw error instanceof WrongExpectedRevisionError ? taken(kind) : error;
    }
  }
}
