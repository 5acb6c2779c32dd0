// Whether a person has a second factor, folded from their stream without the factors themselves: what a read
// model of a whole organization's members keeps, so that listing them reads no user stream and holds no secret.
import type { UserEvent } from './events.js';

export type FactorPresence = { readonly authenticatorApp: boolean; readonly passkeys: number };

export const noFactorPresence: FactorPresence = { authenticatorApp: false, passkeys: 0 };

const presenceEventTypes = [
  'UserRegistered',
  'PersonalDataErased',
  'SecondFactorsReset',
  'AuthenticatorAppEnrolled',
  'AuthenticatorAppRemoved',
  'PasskeyRegistered',
  'PasskeyRemoved',
] as const satisfies readonly UserEvent['type'][];

type PresenceEventType = (typeof presenceEventTypes)[number];

/** Every other event of a user's stream leaves the presence as it is. */
export const changesFactorPresence = (type: string): boolean =>
  (presenceEventTypes as readonly string[]).includes(type);

/**
 * Answers as `hasSecondFactor` of the user's own fold does, for every stream the user's decider writes: a passkey is
 * counted, not named, since the decider registers a key once and removes only a registered one.
 */
export function evolveFactorPresence(presence: FactorPresence, event: { type: string }): FactorPresence {
  switch (event.type as PresenceEventType) {
    case 'UserRegistered':
    case 'PersonalDataErased':
    case 'SecondFactorsReset':
      return noFactorPresence;
    case 'AuthenticatorAppEnrolled':
      return { ...presence, authenticatorApp: true };
    case 'AuthenticatorAppRemoved':
      return { ...presence, authenticatorApp: false };
    case 'PasskeyRegistered':
      return { ...presence, passkeys: presence.passkeys + 1 };
    case 'PasskeyRemoved':
      return { ...presence, passkeys: Math.max(0, presence.passkeys - 1) };
    default:
      return presence;
  }
}

export const hasFactorPresent = ({ authenticatorApp, passkeys }: FactorPresence): boolean =>
  authenticatorApp || passkeys > 0;
