import { describe, expect, it } from '@jest/globals';
import { given } from '../testing/user-decider-spec.js';
import type { UserCommand } from './commands.js';
import type { UserEvent } from './events.js';
import type { FactorChangeProof } from './second-factors.js';
import { evolveUser, initialUserState, OpenSessionScan, type User } from './user.js';

const userId = '0f5b7c1e-3f55-4a53-9a57-3d4c1b2a9e10';
const at = '2030-01-01T10:00:00.000Z';
const earlier = '2030-01-01T09:00:00.000Z';
const codes = Array.from({ length: 10 }, (_, index) => `hash-${index}`);
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId, email: 'ada@example.com', at: '2030-01-01T08:00:00.000Z' },
};
const appEnrolled: UserEvent = { type: 'AuthenticatorAppEnrolled', data: { secretSealed: 'v1.k.sealed', at: earlier } };
const codesGenerated: UserEvent = { type: 'RecoveryCodesGenerated', data: { codeHashes: codes, at: earlier } };
const passkey = (credentialId: string, counter = 0): UserEvent => ({
  type: 'PasskeyRegistered',
  data: { credentialId, publicKey: 'pk', counter, transports: ['internal'], name: 'Laptop', at: earlier },
});
const passed = (data: Partial<Extract<UserEvent, { type: 'SecondStepPassed' }>['data']>): UserEvent => ({
  type: 'SecondStepPassed',
  data: {
    previousSessionId: 'half',
    sessionId: 'full',
    method: 'authenticator-app',
    absoluteExpiresAt: '2030-01-01T22:00:00.000Z',
    at: earlier,
    ...data,
  },
});
const step = (previousSessionId: string, sessionId: string) => ({
  previousSessionId,
  sessionId,
  absoluteExpiresAt: new Date('2030-01-01T22:00:00.000Z'),
});
const halfOpen = (sessionId: string): UserEvent => ({
  type: 'SignedIn',
  data: {
    sessionId,
    method: 'password',
    absoluteExpiresAt: '2030-01-01T10:15:00.000Z',
    awaiting: 'second-step',
    at: '2030-01-01T09:59:00.000Z',
  },
});
const withApp = [registered, appEnrolled, codesGenerated, halfOpen('h'), halfOpen('h1'), halfOpen('h2')];

describe('second factors', () => {
  describe('enrolling', () => {
    it('a first factor comes with ten recovery codes', () => {
      given([registered])
        .when({ type: 'EnrolAuthenticatorApp', data: { secretSealed: 's', recoveryCodeHashes: codes } })
        .then([
          { type: 'AuthenticatorAppEnrolled', data: { secretSealed: 's', at } },
          { type: 'RecoveryCodesGenerated', data: { codeHashes: codes, at } },
        ]);
    });

    it('a further factor leaves the codes the user keeps', () => {
      given(withApp)
        .when({
          type: 'RegisterPasskey',
          data: {
            credentialId: 'c1',
            publicKey: 'pk',
            counter: 0,
            transports: [],
            name: ' Phone ',
            recoveryCodeHashes: codes,
          },
        })
        .then([
          {
            type: 'PasskeyRegistered',
            data: { credentialId: 'c1', publicKey: 'pk', counter: 0, transports: [], name: 'Phone', at },
          },
        ]);
    });

    it('refuses a second authenticator app, the same passkey twice, and a name that is empty or too long', () => {
      given(withApp)
        .when({ type: 'EnrolAuthenticatorApp', data: { secretSealed: 's', recoveryCodeHashes: codes } })
        .thenThrows('DUPLICATE');
      given([...withApp, passkey('c1')])
        .when({
          type: 'RegisterPasskey',
          data: {
            credentialId: 'c1',
            publicKey: 'pk',
            counter: 0,
            transports: [],
            name: 'Again',
            recoveryCodeHashes: [],
          },
        })
        .thenThrows('DUPLICATE');
      for (const name of ['  ', 'x'.repeat(65)]) {
        given(withApp)
          .when({
            type: 'RegisterPasskey',
            data: { credentialId: 'c2', publicKey: 'pk', counter: 0, transports: [], name, recoveryCodeHashes: [] },
          })
          .thenThrows('VALIDATION_FAILED');
      }
    });

    it('keeps at most ten passkeys', () => {
      const ten = Array.from({ length: 10 }, (_, index) => passkey(`c${index}`));
      given([...withApp, ...ten])
        .when({
          type: 'RegisterPasskey',
          data: {
            credentialId: 'c10',
            publicKey: 'pk',
            counter: 0,
            transports: [],
            name: 'One more',
            recoveryCodeHashes: [],
          },
        })
        .thenThrows('VALIDATION_FAILED');
    });
  });

  describe('the second step', () => {
    it('accepts an authenticator code once: the same or an earlier time step is a replay', () => {
      given(withApp)
        .when({
          type: 'PassSecondStep',
          data: { ...step('h1', 'f1'), proof: { method: 'authenticator-app', timeStep: 100 } },
        })
        .then([passed({ previousSessionId: 'h1', sessionId: 'f1', timeStep: 100, at })]);
      for (const timeStep of [100, 99]) {
        given([...withApp, passed({ timeStep: 100 })])
          .when({
            type: 'PassSecondStep',
            data: { ...step('h2', 'f2'), proof: { method: 'authenticator-app', timeStep } },
          })
          .thenThrows('CODE_ALREADY_USED');
      }
      given([...withApp, passed({ timeStep: 100 })])
        .when({
          type: 'PassSecondStep',
          data: { ...step('h2', 'f2'), proof: { method: 'authenticator-app', timeStep: 101 } },
        })
        .then([passed({ previousSessionId: 'h2', sessionId: 'f2', timeStep: 101, at })]);
    });

    it('uses a recovery code once', () => {
      given(withApp)
        .when({
          type: 'PassSecondStep',
          data: { ...step('h1', 'f1'), proof: { method: 'recovery-code', codeHash: 'hash-3' } },
        })
        .then([
          passed({ previousSessionId: 'h1', sessionId: 'f1', method: 'recovery-code', recoveryCodeHash: 'hash-3', at }),
        ]);
      given([...withApp, passed({ method: 'recovery-code', recoveryCodeHash: 'hash-3' })])
        .when({
          type: 'PassSecondStep',
          data: { ...step('h2', 'f2'), proof: { method: 'recovery-code', codeHash: 'hash-3' } },
        })
        .thenThrows('INVALID_CODE');
    });

    it('takes a passkey of the account whose counter grows, or that keeps none', () => {
      const events = [...withApp, passkey('c1', 5), passkey('c2', 0)];
      given(events)
        .when({
          type: 'PassSecondStep',
          data: { ...step('h', 'f'), proof: { method: 'passkey', credentialId: 'c1', counter: 6 } },
        })
        .then([
          passed({ previousSessionId: 'h', sessionId: 'f', method: 'passkey', credentialId: 'c1', counter: 6, at }),
        ]);
      given(events)
        .when({
          type: 'PassSecondStep',
          data: { ...step('h', 'f'), proof: { method: 'passkey', credentialId: 'c1', counter: 5 } },
        })
        .thenThrows('INVALID_CODE');
      given(events)
        .when({
          type: 'PassSecondStep',
          data: { ...step('h', 'f'), proof: { method: 'passkey', credentialId: 'c2', counter: 0 } },
        })
        .then([
          passed({ previousSessionId: 'h', sessionId: 'f', method: 'passkey', credentialId: 'c2', counter: 0, at }),
        ]);
      given(events)
        .when({
          type: 'PassSecondStep',
          data: { ...step('h', 'f'), proof: { method: 'passkey', credentialId: 'other', counter: 9 } },
        })
        .thenThrows('INVALID_CODE');
    });

    it('passes once per half-open session: a second right code for it is too late', () => {
      given([...withApp, passed({ previousSessionId: 'h1', sessionId: 'f1', timeStep: 100 })])
        .when({
          type: 'PassSecondStep',
          data: { ...step('h1', 'f9'), proof: { method: 'recovery-code', codeHash: 'hash-1' } },
        })
        .thenThrows('INVALID_TOKEN');
      given(withApp)
        .when({
          type: 'PassSecondStep',
          data: { ...step('unknown', 'f9'), proof: { method: 'recovery-code', codeHash: 'hash-1' } },
        })
        .thenThrows('INVALID_TOKEN');
    });

    it('passes by enrolling only once a factor is there', () => {
      given([registered, halfOpen('h')])
        .when({ type: 'PassSecondStep', data: { ...step('h', 'f'), proof: { method: 'enrolment' } } })
        .thenThrows('NO_SECOND_FACTOR');
      given(withApp)
        .when({ type: 'PassSecondStep', data: { ...step('h', 'f'), proof: { method: 'enrolment' } } })
        .then([passed({ previousSessionId: 'h', sessionId: 'f', method: 'enrolment', at })]);
    });

    it('records a failure as it is told', () => {
      given(withApp)
        .when({ type: 'FailSecondStep', data: { sessionId: 'h', method: 'authenticator-app' } })
        .then([{ type: 'SecondStepFailed', data: { sessionId: 'h', method: 'authenticator-app', at } }]);
    });

    it('ends the half-open session and opens the full one among the sessions a reset would end', () => {
      const scan = new OpenSessionScan(Date.parse(at), Number.NEGATIVE_INFINITY);
      const events: UserEvent[] = [
        {
          type: 'SignedIn',
          data: {
            sessionId: 'half',
            method: 'password',
            absoluteExpiresAt: '2030-01-01T21:00:00.000Z',
            awaiting: 'second-step',
            at: earlier,
          },
        },
        passed({ timeStep: 1 }),
      ];
      for (const event of [...events].reverse()) scan.take(event);
      expect(scan.open.map((session) => session.sessionId)).toEqual(['full']);
    });
  });

  describe('removing', () => {
    it('the last factor takes the recovery codes with it', () => {
      const state = [...withApp, { type: 'AuthenticatorAppRemoved', data: { at } } as UserEvent].reduce(
        evolveUser,
        initialUserState(),
      ) as User;
      expect(state.secondFactors).toEqual({
        authenticatorApp: null,
        passkeys: [],
        recoveryCodes: null,
        resetRequests: [],
      });
    });

    it('the last factor is refused while an organization requires two-step sign-in; another may go', () => {
      given(withApp, new Date(at), { twoStepRequired: true })
        .when({ type: 'RemoveAuthenticatorApp', data: {} })
        .thenThrows('TWO_STEP_REQUIRED');
      given([...withApp, passkey('c1')], new Date(at), { twoStepRequired: true })
        .when({ type: 'RemoveAuthenticatorApp', data: {} })
        .then([{ type: 'AuthenticatorAppRemoved', data: { at } }]);
      given([...withApp, passkey('c1')], new Date(at), { twoStepRequired: true })
        .when({ type: 'RemovePasskey', data: { credentialId: 'nope' } })
        .thenThrows('NOT_FOUND');
    });

    it('an owner’s reset of an account the organization answers for removes everything, once', () => {
      const byOrganization = { kind: 'account-of-organization', organizationId: 'acme' } as const;
      given(withApp)
        .when({ type: 'ResetSecondFactors', data: byOrganization })
        .then([
          { type: 'SecondFactorsReset', data: { organizationId: 'acme', authority: 'account-of-organization', at } },
        ]);
      given([registered]).when({ type: 'ResetSecondFactors', data: byOrganization }).then([]);
    });
  });

  describe('an owner’s reset of an account the organization does not answer for', () => {
    const requested: UserEvent = {
      type: 'SecondFactorsResetRequested',
      data: { organizationId: 'globex', tokenHash: 't1', expiresAt: '2030-01-04T09:00:00.000Z', at: earlier },
    };

    it('is only requested: the factors stay until the person confirms', () => {
      given(withApp)
        .when({
          type: 'RequestSecondFactorsReset',
          data: { organizationId: 'globex', tokenHash: 't1', expiresAt: new Date('2030-01-04T10:00:00.000Z') },
        })
        .then([
          {
            type: 'SecondFactorsResetRequested',
            data: { organizationId: 'globex', tokenHash: 't1', expiresAt: '2030-01-04T10:00:00.000Z', at },
          },
        ]);
      given([registered])
        .when({
          type: 'RequestSecondFactorsReset',
          data: { organizationId: 'globex', tokenHash: 't1', expiresAt: new Date(at) },
        })
        .then([]);
      const state = [...withApp, requested].reduce(evolveUser, initialUserState()) as User;
      expect(state.secondFactors.authenticatorApp).not.toBeNull();
    });

    it('happens once the person confirms with the link, which then works no more', () => {
      given([...withApp, requested])
        .when({ type: 'ResetSecondFactors', data: { kind: 'confirmed-by-person', tokenHash: 't1' } })
        .then([
          { type: 'SecondFactorsReset', data: { organizationId: 'globex', authority: 'confirmed-by-person', at } },
        ]);
      const reset: UserEvent = {
        type: 'SecondFactorsReset',
        data: { organizationId: 'globex', authority: 'confirmed-by-person', at },
      };
      given([...withApp, requested, reset])
        .when({ type: 'ResetSecondFactors', data: { kind: 'confirmed-by-person', tokenHash: 't1' } })
        .thenThrows('INVALID_TOKEN');
    });

    it('refuses a link that is not a request’s, or one past its time', () => {
      given([...withApp, requested])
        .when({ type: 'ResetSecondFactors', data: { kind: 'confirmed-by-person', tokenHash: 'other' } })
        .thenThrows('INVALID_TOKEN');
      given([...withApp, requested], new Date('2030-01-04T09:00:00.000Z'))
        .when({ type: 'ResetSecondFactors', data: { kind: 'confirmed-by-person', tokenHash: 't1' } })
        .thenThrows('INVALID_TOKEN');
    });
  });

  describe('confirming a change of factors', () => {
    const withPassword: UserEvent = { type: 'PasswordSet', data: { passwordHash: '$argon2id$x', at: earlier } };
    const regenerate = { type: 'RegenerateRecoveryCodes', data: { codeHashes: codes } } as const;
    const regenerated: UserEvent = { type: 'RecoveryCodesGenerated', data: { codeHashes: codes, at } };
    const confirm = (proof: FactorChangeProof): UserCommand => ({
      type: 'ConfirmFactorChange',
      data: { proof, change: regenerate },
    });

    it('takes the password of an account that has one', () => {
      given([...withApp, withPassword])
        .when(confirm({ method: 'password' }))
        .then([{ type: 'FactorChangeConfirmed', data: { method: 'password', at } }, regenerated]);
      given(withApp)
        .when(confirm({ method: 'password' }))
        .thenThrows('WRONG_PASSWORD');
    });

    it('takes an app code once, as the second step does, and a recovery code once', () => {
      given(withApp)
        .when(confirm({ method: 'authenticator-app', timeStep: 7 }))
        .then([{ type: 'FactorChangeConfirmed', data: { method: 'authenticator-app', timeStep: 7, at } }, regenerated]);
      const used: UserEvent = {
        type: 'FactorChangeConfirmed',
        data: { method: 'authenticator-app', timeStep: 7, at: earlier },
      };
      given([...withApp, used])
        .when(confirm({ method: 'authenticator-app', timeStep: 7 }))
        .thenThrows('CODE_ALREADY_USED');
      given([...withApp, passed({ timeStep: 7 })])
        .when(confirm({ method: 'authenticator-app', timeStep: 7 }))
        .thenThrows('CODE_ALREADY_USED');
      const spent: UserEvent = {
        type: 'FactorChangeConfirmed',
        data: { method: 'recovery-code', recoveryCodeHash: 'hash-1', at: earlier },
      };
      given(withApp)
        .when(confirm({ method: 'recovery-code', codeHash: 'hash-1' }))
        .then([
          { type: 'FactorChangeConfirmed', data: { method: 'recovery-code', recoveryCodeHash: 'hash-1', at } },
          regenerated,
        ]);
      given([...withApp, spent])
        .when(confirm({ method: 'recovery-code', codeHash: 'hash-1' }))
        .thenThrows('INVALID_CODE');
    });

    it('takes a sign-in of the last five minutes only from an account with no password and no app', () => {
      const recent: FactorChangeProof = { method: 'recent-sign-in', signedInAt: '2030-01-01T09:55:00.000Z' };
      const enrol = { type: 'EnrolAuthenticatorApp', data: { secretSealed: 's', recoveryCodeHashes: codes } } as const;
      given([registered])
        .when({ type: 'ConfirmFactorChange', data: { proof: recent, change: enrol } })
        .then([
          { type: 'FactorChangeConfirmed', data: { method: 'recent-sign-in', at } },
          { type: 'AuthenticatorAppEnrolled', data: { secretSealed: 's', at } },
          { type: 'RecoveryCodesGenerated', data: { codeHashes: codes, at } },
        ]);
      const stale: FactorChangeProof = { method: 'recent-sign-in', signedInAt: '2030-01-01T09:54:59.000Z' };
      given([registered])
        .when({ type: 'ConfirmFactorChange', data: { proof: stale, change: enrol } })
        .thenThrows('REAUTHENTICATION_REQUIRED');
      given([registered, withPassword])
        .when({ type: 'ConfirmFactorChange', data: { proof: recent, change: enrol } })
        .thenThrows('REAUTHENTICATION_REQUIRED');
      given(withApp).when(confirm(recent)).thenThrows('REAUTHENTICATION_REQUIRED');
      given([registered, passkey('c1'), codesGenerated])
        .when(confirm(recent))
        .then([{ type: 'FactorChangeConfirmed', data: { method: 'recent-sign-in', at } }, regenerated]);
    });

    it('spends no code on a change refused by its own rules, or that changes nothing', () => {
      const removeApp = { type: 'RemoveAuthenticatorApp', data: {} } as const;
      given(withApp, new Date(at), { twoStepRequired: true })
        .when({
          type: 'ConfirmFactorChange',
          data: { proof: { method: 'authenticator-app', timeStep: 7 }, change: removeApp },
        })
        .thenThrows('TWO_STEP_REQUIRED');
      const rename = { type: 'RenamePasskey', data: { credentialId: 'c1', name: 'Laptop' } } as const;
      given([...withApp, passkey('c1')])
        .when({
          type: 'ConfirmFactorChange',
          data: { proof: { method: 'authenticator-app', timeStep: 7 }, change: rename },
        })
        .then([]);
    });
  });

  it('regenerates recovery codes only for an account with a factor', () => {
    given([registered])
      .when({ type: 'RegenerateRecoveryCodes', data: { codeHashes: codes } })
      .thenThrows('NO_SECOND_FACTOR');
    given(withApp)
      .when({ type: 'RegenerateRecoveryCodes', data: { codeHashes: codes } })
      .then([{ type: 'RecoveryCodesGenerated', data: { codeHashes: codes, at } }]);
  });

  it('a password reset leaves every factor', () => {
    const state = [
      ...withApp,
      { type: 'PasswordResetCompleted', data: { tokenHash: 't', endedSessionIds: [], at } } as UserEvent,
    ].reduce(evolveUser, initialUserState()) as User;
    expect(state.secondFactors.authenticatorApp).not.toBeNull();
  });
});
