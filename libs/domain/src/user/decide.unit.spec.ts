import { describe, it } from '@jest/globals';
import { given } from '../testing/user-decider-spec.js';
import type { UserEvent } from './events.js';

const userId = '0f5b7c1e-3f55-4a53-9a57-3d4c1b2a9e10';
const at = '2030-01-01T10:00:00.000Z';
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId, email: 'ada@example.com', at: '2030-01-01T08:00:00.000Z' },
};
const passwordSet: UserEvent = {
  type: 'PasswordSet',
  data: { passwordHash: '$argon2id$old', at: '2030-01-01T08:00:00.000Z' },
};
const signedIn = (sessionId: string, absoluteExpiresAt = '2030-01-01T20:00:00.000Z'): UserEvent => ({
  type: 'SignedIn',
  data: { sessionId, method: 'password', absoluteExpiresAt, at: '2030-01-01T08:30:00.000Z' },
});
const resetRequested = (tokenHash: string, requestedAt: string, expiresAt: string): UserEvent => ({
  type: 'PasswordResetRequested',
  data: { tokenHash, expiresAt, at: requestedAt },
});

describe('the user decider', () => {
  describe('RegisterUser', () => {
    it('registers the user and sets the password when one is given', () => {
      given([])
        .when({
          type: 'RegisterUser',
          data: { userId, email: 'ada@example.com', username: 'ada', passwordHash: '$argon2id$x' },
        })
        .then([
          { type: 'UserRegistered', data: { userId, email: 'ada@example.com', username: 'ada', at } },
          { type: 'PasswordSet', data: { passwordHash: '$argon2id$x', at } },
        ]);
    });

    it('registers a user without a password (Google only)', () => {
      given([])
        .when({ type: 'RegisterUser', data: { userId, email: 'ada@example.com' } })
        .then([{ type: 'UserRegistered', data: { userId, email: 'ada@example.com', at } }]);
    });

    it('says when the user took up the id reserved for a member added by their address', () => {
      given([])
        .when({ type: 'RegisterUser', data: { userId, email: 'ada@example.com', invited: true } })
        .then([{ type: 'UserRegistered', data: { userId, email: 'ada@example.com', invited: true, at } }]);
    });

    it('refuses to register the same user twice', () => {
      given([registered])
        .when({ type: 'RegisterUser', data: { userId, email: 'ada@example.com' } })
        .thenThrows('DUPLICATE');
    });
  });

  it('refuses every other command for a user that does not exist', () => {
    given([])
      .when({ type: 'SetPassword', data: { passwordHash: 'x' } })
      .thenThrows('NOT_FOUND');
    given([])
      .when({ type: 'RecordSignOut', data: { sessionId: 's1' } })
      .thenThrows('NOT_FOUND');
  });

  describe('LinkGoogleAccount', () => {
    it('links a Google account once; linking the same one again changes nothing', () => {
      given([registered])
        .when({ type: 'LinkGoogleAccount', data: { subject: 'g-1', email: 'ada@example.com' } })
        .then([{ type: 'GoogleAccountLinked', data: { subject: 'g-1', email: 'ada@example.com', at } }]);
      given([registered, { type: 'GoogleAccountLinked', data: { subject: 'g-1', email: 'ada@example.com', at } }])
        .when({ type: 'LinkGoogleAccount', data: { subject: 'g-1', email: 'ada@example.com' } })
        .then([]);
    });

    it('refuses a second, different Google account', () => {
      given([registered, { type: 'GoogleAccountLinked', data: { subject: 'g-1', email: 'ada@example.com', at } }])
        .when({ type: 'LinkGoogleAccount', data: { subject: 'g-2', email: 'ada@example.com' } })
        .thenThrows('DUPLICATE');
    });
  });

  describe('password reset', () => {
    it('records a requested reset with its expiry', () => {
      given([registered])
        .when({
          type: 'RequestPasswordReset',
          data: { tokenHash: 'h1', expiresAt: new Date('2030-01-01T11:00:00.000Z') },
        })
        .then([resetRequested('h1', at, '2030-01-01T11:00:00.000Z')]);
    });

    it('sends at most three reset mails per hour to one address', () => {
      const three = [
        resetRequested('h1', '2030-01-01T09:05:00.000Z', '2030-01-01T10:05:00.000Z'),
        resetRequested('h2', '2030-01-01T09:10:00.000Z', '2030-01-01T10:10:00.000Z'),
        resetRequested('h3', '2030-01-01T09:20:00.000Z', '2030-01-01T10:20:00.000Z'),
      ];
      const request = {
        type: 'RequestPasswordReset',
        data: { tokenHash: 'h4', expiresAt: new Date('2030-01-01T11:00:00.000Z') },
      } as const;
      given([registered, ...three])
        .when(request)
        .thenThrows('RATE_LIMITED');
      // An hour after the first one, one more is allowed.
      given([registered, ...three], new Date('2030-01-01T10:05:00.000Z'))
        .when(request)
        .then([
          {
            type: 'PasswordResetRequested',
            data: { tokenHash: 'h4', expiresAt: '2030-01-01T11:00:00.000Z', at: '2030-01-01T10:05:00.000Z' },
          },
        ]);
    });

    it('completes a pending reset: every other session ends and the new password is set', () => {
      given([
        registered,
        passwordSet,
        signedIn('s1'),
        signedIn('s2'),
        resetRequested('h1', '2030-01-01T09:30:00.000Z', '2030-01-01T10:30:00.000Z'),
      ])
        .when({
          type: 'CompletePasswordReset',
          data: { tokenHash: 'h1', passwordHash: '$argon2id$new', keepSessionId: 's2' },
        })
        .then([
          { type: 'PasswordResetCompleted', data: { tokenHash: 'h1', endedSessionIds: ['s1'], at } },
          { type: 'PasswordSet', data: { passwordHash: '$argon2id$new', at } },
        ]);
    });

    it('refuses an unknown, expired or already used token', () => {
      const pending = resetRequested('h1', '2030-01-01T09:30:00.000Z', '2030-01-01T10:30:00.000Z');
      const complete = { type: 'CompletePasswordReset', data: { tokenHash: 'h1', passwordHash: 'x' } } as const;
      given([registered, pending])
        .when({ ...complete, data: { ...complete.data, tokenHash: 'other' } })
        .thenThrows('INVALID_TOKEN');
      given([registered, pending], new Date('2030-01-01T10:30:00.000Z')).when(complete).thenThrows('INVALID_TOKEN');
      given([
        registered,
        pending,
        { type: 'PasswordResetCompleted', data: { tokenHash: 'h1', endedSessionIds: [], at } },
      ])
        .when(complete)
        .thenThrows('INVALID_TOKEN');
    });

    it('spends every outstanding link when one is used', () => {
      given([
        registered,
        resetRequested('h1', '2030-01-01T09:30:00.000Z', '2030-01-01T10:30:00.000Z'),
        resetRequested('h2', '2030-01-01T09:40:00.000Z', '2030-01-01T10:40:00.000Z'),
        { type: 'PasswordResetCompleted', data: { tokenHash: 'h2', endedSessionIds: [], at } },
      ])
        .when({ type: 'CompletePasswordReset', data: { tokenHash: 'h1', passwordHash: 'x' } })
        .thenThrows('INVALID_TOKEN');
    });
  });

  describe('password change', () => {
    it('sets the new password and ends every live session but the one asking', () => {
      given([registered, signedIn('s1'), signedIn('s2'), signedIn('s3')])
        .when({ type: 'ChangePassword', data: { passwordHash: '$argon2id$new', keepSessionId: 's2' } })
        .then([
          { type: 'PasswordChanged', data: { endedSessionIds: ['s1', 's3'], at } },
          { type: 'PasswordSet', data: { passwordHash: '$argon2id$new', at } },
        ]);
    });

    it('needs a registered user', () => {
      given([])
        .when({ type: 'ChangePassword', data: { passwordHash: 'x', keepSessionId: 's1' } })
        .thenThrows('NOT_FOUND');
    });
  });

  describe('sign-in history', () => {
    it('records sign-ins and sign-outs', () => {
      given([registered])
        .when({
          type: 'RecordSignIn',
          data: { sessionId: 's1', method: 'google', absoluteExpiresAt: new Date('2030-01-01T22:00:00.000Z') },
        })
        .then([
          {
            type: 'SignedIn',
            data: { sessionId: 's1', method: 'google', absoluteExpiresAt: '2030-01-01T22:00:00.000Z', at },
          },
        ]);
      given([registered, signedIn('s1')])
        .when({ type: 'RecordSignOut', data: { sessionId: 's1' } })
        .then([{ type: 'SignedOut', data: { sessionId: 's1', at } }]);
    });

    it('ends only sessions still open: not signed out, not past their absolute expiry', () => {
      given([
        registered,
        signedIn('old', '2030-01-01T08:45:00.000Z'),
        signedIn('s1'),
        signedIn('s2'),
        { type: 'SignedOut', data: { sessionId: 's2', at } },
        resetRequested('h1', '2030-01-01T09:30:00.000Z', '2030-01-01T10:30:00.000Z'),
      ])
        .when({ type: 'CompletePasswordReset', data: { tokenHash: 'h1', passwordHash: 'x' } })
        .then([
          { type: 'PasswordResetCompleted', data: { tokenHash: 'h1', endedSessionIds: ['s1'], at } },
          { type: 'PasswordSet', data: { passwordHash: 'x', at } },
        ]);
    });
  });
});
