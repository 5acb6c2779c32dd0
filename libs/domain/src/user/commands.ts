// What the identity services ask of a user. Hashes, ids and the time are chosen by the caller.
import type { SecondStepAwaited, SignInMethod } from './events.js';
import type { SecondFactorCommand } from './second-factors.js';
import type { OpenSession } from './user.js';

export type RegisterUser = {
  type: 'RegisterUser';
  /** invited: userId is the one reserved for the address when a member was added by it. */
  data: { userId: string; email: string; username?: string; passwordHash?: string; invited?: boolean };
};
export type SetPassword = { type: 'SetPassword'; data: { passwordHash: string } };
export type LinkGoogleAccount = { type: 'LinkGoogleAccount'; data: { subject: string; email: string } };
export type LinkSsoAccount = {
  type: 'LinkSsoAccount';
  data: { organizationId: string; issuer: string; subject: string; email: string };
};
export type RequestPasswordReset = { type: 'RequestPasswordReset'; data: { tokenHash: string; expiresAt: Date } };
export type CompletePasswordReset = {
  type: 'CompletePasswordReset';
  /** keepSessionId: the session making the reset, when it is this user's own, stays open. */
  data: { tokenHash: string; passwordHash: string; keepSessionId?: string };
};
/** keepSessionId: the session asking, which stays open; every other one ends. */
export type ChangePassword = { type: 'ChangePassword'; data: { passwordHash: string; keepSessionId: string } };
export type RecordSignIn = {
  type: 'RecordSignIn';
  data: { sessionId: string; method: SignInMethod; absoluteExpiresAt: Date; awaiting?: SecondStepAwaited };
};
export type RecordSignOut = { type: 'RecordSignOut'; data: { sessionId: string; revoked?: true } };
/** Also for a person who never registered (an invited address): their data is in the log all the same. */
export type ErasePersonalData = { type: 'ErasePersonalData'; data: { userId: string } };

export type UserCommand =
  | RegisterUser
  | SetPassword
  | LinkGoogleAccount
  | LinkSsoAccount
  | RequestPasswordReset
  | CompletePasswordReset
  | ChangePassword
  | RecordSignIn
  | RecordSignOut
  | ErasePersonalData
  | SecondFactorCommand;

export type UserCommandContext = {
  now: Date;
  /**
   * The sessions the stream lists as open (Users.openSessions), for the decisions that end them: a reset, a password
   * change.
   */
  openSessions?: readonly OpenSession[];
  /** An organization the user belongs to requires two-step sign-in (the last second factor stays). */
  twoStepRequired?: boolean;
};
