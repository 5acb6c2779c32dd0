// A person who closes the browser's dialog gets words, not an exception.
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

export class PasskeyCancelled extends Error {}

async function asked<T>(ceremony: () => Promise<T>): Promise<T> {
  try {
    return await ceremony();
  } catch (error) {
    // NotAllowedError: the person closed the dialog, or took too long; there is nothing to report.
    if (error instanceof WebAuthnError || (error instanceof Error && error.name === 'NotAllowedError'))
      throw new PasskeyCancelled(error.message);
    throw error;
  }
}

export const createPasskey = (options: PublicKeyCredentialCreationOptionsJSON) =>
  asked(() => startRegistration({ optionsJSON: options }));
export const provePasskey = (options: PublicKeyCredentialRequestOptionsJSON) =>
  asked(() => startAuthentication({ optionsJSON: options }));
