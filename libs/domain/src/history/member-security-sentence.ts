// Members' two-step sign-in in words, for their organizations' auditors (the audit explorer's "Sign-in
// security"): setting up and removing factors, recovery codes made and used, failed second steps, an owner's
// reset. A second step passed with the app or a passkey is a routine sign-in and, like sign-ins, not listed.
import type { SecondFactorEvent, SecondStepMethod } from '../user/second-factor-events.js';
import { SECOND_FACTOR_EVENT_TYPES } from '../user/second-factor-events.js';

const FAILED_WITH: Record<Exclude<SecondStepMethod, 'enrolment'>, string> = {
  'authenticator-app': 'a wrong code from the authenticator app',
  passkey: 'a passkey that did not verify',
  'recovery-code': 'a recovery code that is not one of theirs, or was used already',
};

/** Whether the event is one the audit lists (see above). Data is trusted as recorded. */
export function isListedSecondFactorEvent(type: string, data: unknown): boolean {
  if (!(SECOND_FACTOR_EVENT_TYPES as readonly string[]).includes(type)) return false;
  // A confirmation stands before the change it confirmed, which is listed itself.
  if (type === 'FactorChangeConfirmed') return false;
  if (type !== 'SecondStepPassed') return true;
  const method = (data as { method?: unknown }).method;
  return method === 'recovery-code' || method === 'enrolment';
}

export function memberSecuritySentence(event: SecondFactorEvent): string {
  switch (event.type) {
    case 'AuthenticatorAppEnrolled':
      return 'Authenticator app set up';
    case 'AuthenticatorAppRemoved':
      return 'Authenticator app removed';
    case 'PasskeyRegistered':
      return `Passkey added: “${event.data.name}”`;
    case 'PasskeyRenamed':
      return `Passkey renamed: now “${event.data.name}”`;
    case 'PasskeyRemoved':
      return 'Passkey removed';
    case 'RecoveryCodesGenerated':
      return 'Recovery codes made: ten new codes, any earlier ones no longer work';
    case 'SecondStepPassed':
      return event.data.method === 'recovery-code'
        ? 'Signed in with a recovery code'
        : event.data.method === 'enrolment'
          ? 'Signed in after setting up two-step sign-in'
          : 'Signed in with a second step';
    case 'SecondStepFailed':
      return `Second step failed: ${FAILED_WITH[event.data.method]}`;
    case 'SecondFactorsReset':
      return event.data.authority === 'confirmed-by-person'
        ? 'Two-step sign-in reset at an owner’s request, confirmed by the person: every second factor removed'
        : 'Two-step sign-in reset by an owner: every second factor removed';
    case 'SecondFactorsResetRequested':
      return 'An owner asked to reset two-step sign-in: nothing changes unless the person confirms the mailed link';
    case 'FactorChangeConfirmed':
      return `Change of two-step sign-in confirmed (${event.data.method})`;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}
