import type { Decider } from '../decider.js';
import { DomainError } from '../errors.js';

export type ClaimKind = 'email' | 'username' | 'google';

export type IdentifierClaimed = { type: 'IdentifierClaimed'; data: { kind: ClaimKind; userId: string } };
/** userId is the id the address's future user will have. */
export type IdentifierReserved = { type: 'IdentifierReserved'; data: { kind: 'email'; userId: string } };
/** The person was erased: the value is free for anyone, who gets a new id. */
export type IdentifierReleased = { type: 'IdentifierReleased'; data: { kind: ClaimKind; userId: string } };
export type ClaimEvent = IdentifierClaimed | IdentifierReserved | IdentifierReleased;

export type ClaimState = { userId: string; lastType: ClaimEvent['type']; reserved: boolean } | undefined;

export const identifierTaken = (kind: ClaimKind): DomainError =>
  new DomainError(
    'DUPLICATE',
    `This ${kind === 'google' ? 'Google account' : kind === 'email' ? 'e-mail address' : kind} is already taken.`,
    { field: kind },
  );

/**
 * `holderConfirmed`: the holder's own stream agrees; a claim left by a registration that lost a race or stopped halfway
 * does not.
 */
export type ClaimCommand =
  | { type: 'ReserveEmail'; data: { userId: string } }
  | { type: 'ClaimEmail'; data: { fresh: string; holderConfirmed: boolean } }
  | { type: 'ClaimIdentifier'; data: { kind: 'username' | 'google'; userId: string; holderConfirmed: boolean } }
  | { type: 'ReleaseIdentifier'; data: { kind: ClaimKind; userId: string } };

function evolveClaim(state: ClaimState, event: ClaimEvent): ClaimState {
  if (event.type === 'IdentifierReleased') return state?.userId === event.data.userId ? undefined : state;
  const { userId } = event.data;
  if (typeof userId !== 'string') return state;
  return { userId, lastType: event.type, reserved: state?.reserved ?? event.type === 'IdentifierReserved' };
}

function decideClaim(command: ClaimCommand, claim: ClaimState): ClaimEvent[] {
  switch (command.type) {
    case 'ReserveEmail':
      return claim === undefined
        ? [{ type: 'IdentifierReserved', data: { kind: 'email', userId: command.data.userId } }]
        : [];
    case 'ClaimEmail': {
      if (claim === undefined)
        return [{ type: 'IdentifierClaimed', data: { kind: 'email', userId: command.data.fresh } }];
      if (command.data.holderConfirmed) throw identifierTaken('email');
      return claim.lastType === 'IdentifierClaimed'
        ? []
        : [{ type: 'IdentifierClaimed', data: { kind: 'email', userId: claim.userId } }];
    }
    case 'ReleaseIdentifier':
      return claim?.userId === command.data.userId ? [{ type: 'IdentifierReleased', data: command.data }] : [];
    case 'ClaimIdentifier': {
      const { kind, userId, holderConfirmed } = command.data;
      if (claim?.userId === userId) return [];
      if (claim !== undefined && holderConfirmed) throw identifierTaken(kind);
      return [{ type: 'IdentifierClaimed', data: { kind, userId } }];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const identifierClaimDecider: Decider<ClaimState, ClaimCommand, ClaimEvent> = {
  streamOf: (id) => `identity-${id}`,
  initialState: undefined,
  evolve: evolveClaim,
  decide: decideClaim,
};
