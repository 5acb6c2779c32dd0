// Passkeys (WebAuthn) as a second factor, with @simplewebauthn/server. The relying party is PUBLIC_URL:
// its host is the RP ID and its origin the only origin accepted. A second factor proves possession, so
// user verification is asked for where the authenticator can, not required.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Passkey } from '#domain';

// Loaded at the first ceremony, not at start-up: with its ASN.1 stack it is about a fifth of a cold start,
// which the command line and most sign-ins never need (bench/cli).
let library: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webAuthn = (): Promise<typeof import('@simplewebauthn/server')> => (library ??= import('@simplewebauthn/server'));

export type RelyingParty = { id: string; name: string; origin: string };

export const relyingPartyOf = (publicUrl: string, productName: string): RelyingParty => {
  const url = new URL(publicUrl);
  return { id: url.hostname, name: productName, origin: url.origin };
};

export type NewPasskey = { credentialId: string; publicKey: string; counter: number; transports: string[] };

export class PasskeyCeremonies {
  constructor(private readonly party: RelyingParty) {}

  async registrationOptions(
    user: { userId: string; email: string },
    existing: readonly Passkey[],
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const { generateRegistrationOptions } = await webAuthn();
    return generateRegistrationOptions({
      rpName: this.party.name,
      rpID: this.party.id,
      userName: user.email,
      userID: new TextEncoder().encode(user.userId),
      attestationType: 'none',
      excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: key.transports })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
  }

  /** The new passkey, or undefined when the response does not verify against the challenge, origin and RP ID. */
  async registered(response: RegistrationResponseJSON, challenge: string): Promise<NewPasskey | undefined> {
    const { verifyRegistrationResponse } = await webAuthn();
    try {
      const verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.party.origin,
        expectedRPID: this.party.id,
        requireUserVerification: false,
      });
      if (!verification.verified) return undefined;
      const { credential } = verification.registrationInfo;
      return {
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
      };
    } catch {
      return undefined;
    }
  }

  async signInOptions(passkeys: readonly Passkey[]): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const { generateAuthenticationOptions } = await webAuthn();
    return generateAuthenticationOptions({
      rpID: this.party.id,
      allowCredentials: passkeys.map((key) => ({ id: key.credentialId, transports: key.transports as never })),
      userVerification: 'preferred',
    });
  }

  /** The passkey used and its new counter, or undefined when the assertion does not verify. */
  async signedIn(
    response: AuthenticationResponseJSON,
    challenge: string,
    passkeys: readonly Passkey[],
  ): Promise<{ credentialId: string; counter: number } | undefined> {
    const passkey = passkeys.find((key) => key.credentialId === response.id);
    if (passkey === undefined) return undefined;
    const { verifyAuthenticationResponse } = await webAuthn();
    try {
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.party.origin,
        expectedRPID: this.party.id,
        credential: {
          id: passkey.credentialId,
          publicKey: Buffer.from(passkey.publicKey, 'base64url'),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
        requireUserVerification: false,
      });
      return verification.verified
        ? { credentialId: passkey.credentialId, counter: verification.authenticationInfo.newCounter }
        : undefined;
    } catch {
      return undefined;
    }
  }
}
