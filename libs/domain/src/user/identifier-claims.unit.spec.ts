import { describe, expect, it } from '@jest/globals';
import { foldEvents } from '../decider.js';
import { deciderSpec } from '../testing/decider-spec.js';
import { identifierClaimDecider, type ClaimEvent } from './identifier-claims.js';

const spec = deciderSpec(identifierClaimDecider);

const reserved = (userId: string): ClaimEvent => ({ type: 'IdentifierReserved', data: { kind: 'email', userId } });
const claimed = (kind: 'email' | 'username' | 'google', userId: string): ClaimEvent => ({
  type: 'IdentifierClaimed',
  data: { kind, userId },
});

describe('an identifier claim stream', () => {
  it('is named after the kind and digest of its value', () => {
    expect(identifierClaimDecider.streamOf('email-abc123')).toBe('identity-email-abc123');
  });

  it('remembers that an address began as a reservation, whoever claims it later', () => {
    expect(foldEvents(identifierClaimDecider, [reserved('u-invited'), claimed('email', 'u-invited')])).toStrictEqual({
      userId: 'u-invited',
      lastType: 'IdentifierClaimed',
      reserved: true,
    });
    expect(foldEvents(identifierClaimDecider, [claimed('email', 'u-1')])).toStrictEqual({
      userId: 'u-1',
      lastType: 'IdentifierClaimed',
      reserved: false,
    });
  });
});

describe('reserving an address for a member added by it', () => {
  it('reserves the proposed id for an address nobody has', () => {
    spec
      .given([])
      .when({ type: 'ReserveEmail', data: { userId: 'u-proposed' } })
      .then([{ type: 'IdentifierReserved', data: { kind: 'email', userId: 'u-proposed' } }]);
  });

  it('changes nothing for an address already reserved: its id stays the one reserved first', () => {
    spec
      .given([reserved('u-first')])
      .when({ type: 'ReserveEmail', data: { userId: 'u-second' } })
      .then([]);
  });

  it('changes nothing for an address a user registered with', () => {
    spec
      .given([claimed('email', 'u-registered')])
      .when({ type: 'ReserveEmail', data: { userId: 'u-proposed' } })
      .then([]);
  });
});

describe('claiming an address for a registration', () => {
  it('gives a free address the fresh id', () => {
    spec
      .given([])
      .when({ type: 'ClaimEmail', data: { fresh: 'u-fresh', holderConfirmed: false } })
      .then([{ type: 'IdentifierClaimed', data: { kind: 'email', userId: 'u-fresh' } }]);
  });

  it('claims a reserved address under the id reserved for it, not the fresh one', () => {
    spec
      .given([reserved('u-invited')])
      .when({ type: 'ClaimEmail', data: { fresh: 'u-fresh', holderConfirmed: false } })
      .then([{ type: 'IdentifierClaimed', data: { kind: 'email', userId: 'u-invited' } }]);
  });

  it('refuses an address a registered user holds', () => {
    spec
      .given([claimed('email', 'u-registered')])
      .when({ type: 'ClaimEmail', data: { fresh: 'u-fresh', holderConfirmed: true } })
      .thenThrows('DUPLICATE', { field: 'email' });
  });

  it('refuses a reserved address once its invited user registered with it', () => {
    spec
      .given([reserved('u-invited')])
      .when({ type: 'ClaimEmail', data: { fresh: 'u-fresh', holderConfirmed: true } })
      .thenThrows('DUPLICATE', { field: 'email' });
  });

  it('records nothing for a claim left by a registration that never finished: its id is reused as it stands', () => {
    spec
      .given([claimed('email', 'u-stale')])
      .when({ type: 'ClaimEmail', data: { fresh: 'u-fresh', holderConfirmed: false } })
      .then([]);
  });
});

describe('claiming a username or a Google account', () => {
  it('gives a free value to the user', () => {
    spec
      .given([])
      .when({ type: 'ClaimIdentifier', data: { kind: 'username', userId: 'u-1', holderConfirmed: false } })
      .then([{ type: 'IdentifierClaimed', data: { kind: 'username', userId: 'u-1' } }]);
  });

  it('changes nothing when the user already holds the value', () => {
    spec
      .given([claimed('google', 'u-1')])
      .when({ type: 'ClaimIdentifier', data: { kind: 'google', userId: 'u-1', holderConfirmed: true } })
      .then([]);
  });

  it('refuses a username another registered user holds', () => {
    spec
      .given([claimed('username', 'u-other')])
      .when({ type: 'ClaimIdentifier', data: { kind: 'username', userId: 'u-1', holderConfirmed: true } })
      .thenThrows('DUPLICATE', { field: 'username' });
  });

  it('refuses a Google account another registered user holds', () => {
    spec
      .given([claimed('google', 'u-other')])
      .when({ type: 'ClaimIdentifier', data: { kind: 'google', userId: 'u-1', holderConfirmed: true } })
      .thenThrows('DUPLICATE', { field: 'google' });
  });

  it('takes over a value whose holder never registered with it', () => {
    spec
      .given([claimed('username', 'u-stale')])
      .when({ type: 'ClaimIdentifier', data: { kind: 'username', userId: 'u-1', holderConfirmed: false } })
      .then([{ type: 'IdentifierClaimed', data: { kind: 'username', userId: 'u-1' } }]);
  });
});
