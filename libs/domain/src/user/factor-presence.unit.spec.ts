import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DomainError } from '../errors.js';
import type { UserCommand } from './commands.js';
import { decideUser } from './decide.js';
import type { UserEvent } from './events.js';
import {
  changesFactorPresence,
  evolveFactorPresence,
  hasFactorPresent,
  noFactorPresence,
  type FactorPresence,
} from './factor-presence.js';
import { hasSecondFactor } from './second-factors.js';
import { evolveUser, initialUserState, type UserState } from './user.js';

const userId = '0f5b7c1e-3f55-4a53-9a57-3d4c1b2a9e10';
const codes = Array.from({ length: 10 }, (_, index) => `code-${index}`);
const credential = fc.constantFrom('key-a', 'key-b', 'key-c');

// The commands that touch whether a person has a factor, and some that do not, in any order the decider accepts.
const command: fc.Arbitrary<UserCommand> = fc.oneof(
  fc.constant<UserCommand>({ type: 'RegisterUser', data: { userId, email: 'ada@example.com' } }),
  fc.constant<UserCommand>({
    type: 'EnrolAuthenticatorApp',
    data: { secretSealed: 'sealed', recoveryCodeHashes: codes },
  }),
  fc.constant<UserCommand>({ type: 'RemoveAuthenticatorApp', data: {} }),
  credential.map<UserCommand>((credentialId) => ({
    type: 'RegisterPasskey',
    data: { credentialId, publicKey: 'key', counter: 0, transports: [], name: 'Phone', recoveryCodeHashes: codes },
  })),
  credential.map<UserCommand>((credentialId) => ({ type: 'RenamePasskey', data: { credentialId, name: 'Laptop' } })),
  credential.map<UserCommand>((credentialId) => ({ type: 'RemovePasskey', data: { credentialId } })),
  fc.constant<UserCommand>({ type: 'RegenerateRecoveryCodes', data: { codeHashes: codes } }),
  fc.constant<UserCommand>({
    type: 'ResetSecondFactors',
    data: { kind: 'account-of-organization', organizationId: 'acme' },
  }),
  fc.constant<UserCommand>({ type: 'ErasePersonalData', data: { userId } }),
);

const hasFactorByFold = (state: UserState): boolean =>
  state.status === 'registered' && hasSecondFactor(state.secondFactors);

describe('factor presence', () => {
  it("answers as the user's own fold does after every event the decider writes", () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), fc.boolean(), (commands, twoStepRequired) => {
        let state = initialUserState();
        let presence: FactorPresence = noFactorPresence;
        for (const next of commands) {
          let events: UserEvent[];
          try {
            events = decideUser(next, state, { now: new Date('2030-01-01T10:00:00.000Z'), twoStepRequired });
          } catch (error) {
            if (error instanceof DomainError) continue;
            throw error;
          }
          for (const event of events) {
            state = evolveUser(state, event);
            presence = evolveFactorPresence(presence, event);
            expect(hasFactorPresent(presence)).toBe(hasFactorByFold(state));
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is changed only by the events it names', () => {
    const present: FactorPresence = { authenticatorApp: true, passkeys: 2 };
    for (const type of [
      'SignedIn',
      'PasskeyRenamed',
      'RecoveryCodesGenerated',
      'SecondStepPassed',
      'FactorChangeConfirmed',
      'PasswordSet',
    ]) {
      expect(changesFactorPresence(type)).toBe(false);
      expect(evolveFactorPresence(present, { type })).toBe(present);
    }
    expect(evolveFactorPresence(present, { type: 'PasskeyRemoved' })).toEqual({ authenticatorApp: true, passkeys: 1 });
    expect(evolveFactorPresence(present, { type: 'SecondFactorsReset' })).toEqual(noFactorPresence);
    expect(evolveFactorPresence(present, { type: 'PersonalDataErased' })).toEqual(noFactorPresence);
  });
});
