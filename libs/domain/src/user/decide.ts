// The user's rules: one branch per command, invariants as plain ifs with typed errors.
import { DomainError, InvalidToken, RateLimited } from '../errors.js';
import type { UserCommand, UserCommandContext } from './commands.js';
import type { Decider } from '../decider.js';
import { userStream, type UserEvent } from './events.js';
import { decideSecondFactors } from './second-factors.js';
import {
  evolveUser,
  initialUserState,
  resetMailsPerHour,
  type OpenSession,
  type User,
  type UserState,
} from './user.js';

const hourMs = 3_600_000;

function registered(state: UserState): User {
  if (state.status === 'unregistered') throw new DomainError('NOT_FOUND', 'No such user.');
  return state;
}

/** The sessions the user's stream lists as open (Users.openSessions) and not past their absolute expiry. */
const liveSessionIds = (openSessions: readonly OpenSession[], now: Date): string[] =>
  openSessions
    .filter((session) => Date.parse(session.absoluteExpiresAt) > now.getTime())
    .map((session) => session.sessionId);

const factorContext = (user: User, at: string, twoStepRequired: boolean) => ({
  at,
  twoStepRequired,
  hasPassword: user.passwordHash !== null,
});

export function decideUser(
  command: UserCommand,
  state: UserState,
  { now, openSessions = [], twoStepRequired = false }: UserCommandContext,
): UserEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'RegisterUser': {
      if (state.status === 'registered') throw new DomainError('DUPLICATE', 'This user already exists.');
      if (state.erased === true)
        throw new DomainError('NOT_FOUND', 'This person was erased: a new account takes a new id.');
      const { userId, email, username, passwordHash, invited } = command.data;
      const events: UserEvent[] = [
        {
          type: 'UserRegistered',
          data: {
            userId,
            email,
            ...(username === undefined ? {} : { username }),
            ...(invited === true ? { invited } : {}),
            at,
          },
        },
      ];
      if (passwordHash !== undefined) events.push({ type: 'PasswordSet', data: { passwordHash, at } });
      return events;
    }
    case 'SetPassword':
      registered(state);
      return [{ type: 'PasswordSet', data: { passwordHash: command.data.passwordHash, at } }];
    case 'LinkGoogleAccount': {
      const user = registered(state);
      if (user.googleSubject === command.data.subject) return [];
      if (user.googleSubject !== null) {
        throw new DomainError('DUPLICATE', 'Another Google account is already linked to this user.');
      }
      return [{ type: 'GoogleAccountLinked', data: { ...command.data, at } }];
    }
    case 'LinkSsoAccount': {
      const user = registered(state);
      if (user.email !== command.data.email.toLowerCase()) {
        throw new DomainError('VALIDATION_FAILED', 'The provider asserted another address than the account’s.');
      }
      return user.ssoOrganizationIds.includes(command.data.organizationId)
        ? []
        : [{ type: 'SsoAccountLinked', data: { ...command.data, at } }];
    }
    case 'RequestPasswordReset': {
      const user = registered(state);
      const recent = user.resetRequestTimes.filter((time) => now.getTime() - new Date(time).getTime() < hourMs);
      if (recent.length >= resetMailsPerHour) {
        const oldest = new Date(recent[0] ?? at).getTime();
        throw new RateLimited(Math.ceil((oldest + hourMs - now.getTime()) / 1000));
      }
      return [
        {
          type: 'PasswordResetRequested',
          data: { tokenHash: command.data.tokenHash, expiresAt: command.data.expiresAt.toISOString(), at },
        },
      ];
    }
    case 'CompletePasswordReset': {
      const user = registered(state);
      const pending = user.pendingResets.find((reset) => reset.tokenHash === command.data.tokenHash);
      if (pending === undefined || new Date(pending.expiresAt).getTime() <= now.getTime()) throw new InvalidToken();
      const endedSessionIds = liveSessionIds(openSessions, now).filter(
        (sessionId) => sessionId !== command.data.keepSessionId,
      );
      return [
        { type: 'PasswordResetCompleted', data: { tokenHash: command.data.tokenHash, endedSessionIds, at } },
        { type: 'PasswordSet', data: { passwordHash: command.data.passwordHash, at } },
      ];
    }
    case 'ChangePassword': {
      registered(state);
      const endedSessionIds = liveSessionIds(openSessions, now).filter(
        (sessionId) => sessionId !== command.data.keepSessionId,
      );
      return [
        { type: 'PasswordChanged', data: { endedSessionIds, at } },
        { type: 'PasswordSet', data: { passwordHash: command.data.passwordHash, at } },
      ];
    }
    case 'RecordSignIn':
      registered(state);
      return [
        {
          type: 'SignedIn',
          data: {
            sessionId: command.data.sessionId,
            method: command.data.method,
            absoluteExpiresAt: command.data.absoluteExpiresAt.toISOString(),
            ...(command.data.awaiting === undefined ? {} : { awaiting: command.data.awaiting }),
            at,
          },
        },
      ];
    case 'ErasePersonalData':
      if (state.status === 'unregistered' && state.erased === true) return [];
      return [
        {
          type: 'PersonalDataErased',
          data: { userId: command.data.userId, endedSessionIds: liveSessionIds(openSessions, now), at },
        },
      ];
    case 'RecordSignOut':
      // Asked once per session: by whoever ended it on its own stream (Sessions), which decides that.
      registered(state);
      return [{ type: 'SignedOut', data: { ...command.data, at } }];
    case 'PassSecondStep':
      // Once per half-open session, however many right codes arrive for it at once: its sign-in must still be open.
      if (!liveSessionIds(openSessions, now).includes(command.data.previousSessionId))
        throw new InvalidToken('This sign-in is over: sign in again.');
      return decideSecondFactors(
        command,
        registered(state).secondFactors,
        factorContext(registered(state), at, twoStepRequired),
      );
    case 'EnrolAuthenticatorApp':
    case 'RemoveAuthenticatorApp':
    case 'RegisterPasskey':
    case 'RenamePasskey':
    case 'RemovePasskey':
    case 'RegenerateRecoveryCodes':
    case 'FailSecondStep':
    case 'ResetSecondFactors':
    case 'RequestSecondFactorsReset':
    case 'ConfirmFactorChange':
      return decideSecondFactors(
        command,
        registered(state).secondFactors,
        factorContext(registered(state), at, twoStepRequired),
      );
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

/**
 * A command with what its decision needs from outside: the time, the sessions the stream lists as open, the
 * organizations' requirement.
 */
export type UserDecision = UserCommand & { readonly facts: UserCommandContext };

/** A user's stream, its id the user's. */
export const userDecider: Decider<UserState, UserDecision, UserEvent> = {
  streamOf: userStream,
  initialState: initialUserState(),
  evolve: evolveUser,
  decide: (command, state) => decideUser(command, state, command.facts),
};
