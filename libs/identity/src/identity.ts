import { randomUUID } from 'node:crypto';
import { PersonErasure } from './privacy/person-erasure.js';
import type { EventStore } from '#event-store';
import { systemClock, type Clock } from './clock.js';
import { deriveKey } from './hashing.js';
import { Invitations } from './invitations/invitations.js';
import type { IdentityLogger } from './logger.js';
import type { Mailer } from './mail/mailer.js';
import { PasswordChange } from './passwords/password-change.js';
import { PasswordHasher } from './passwords/password-hasher.js';
import { PasswordReset } from './password-reset/password-reset.js';
import { SessionCookies } from './sessions/session-cookie.js';
import { defaultSessionPolicy, Sessions, type SessionPolicy } from './sessions/sessions.js';
import { resetRequestThrottlePolicy } from '#domain';
import { GoogleSignIn } from './sign-in/google-sign-in.js';
import { GoogleStateSeal } from './sign-in/google-state.js';
import { PasswordSignIn } from './sign-in/password-sign-in.js';
import { SignInAttempts } from './sign-in/sign-in-attempts.service.js';
import { ThrottleCounters } from './sign-in/throttle-counters.js';
import { UserClaims, UserDirectory } from './user/user-claims.js';
import type { IdentifierNames } from './user/identifier-names.js';
import { UserRegistration } from './user/user-registration.js';
import { SamlProviders } from './sso/saml-providers.js';
import { OidcProviders } from './sso/oidc-providers.js';
import { SecretBox, type SecretKey } from './sso/secret-box.js';
import { SsoStateSeal } from './sso/sso-state.js';
import { Users } from './user/users.js';
import { PasskeyCeremonies, relyingPartyOf } from './two-step/passkeys.js';
import { OwnerResets } from './two-step/owner-resets.js';
import { TwoStep } from './two-step/two-step.js';
import { TwoStepSeal } from './two-step/two-step-seal.js';
import { XsrfTokens } from './xsrf/xsrf-tokens.js';

export type IdentityOptions = {
  eventStore: EventStore;
  /** openIdentifierNames: the names of the streams that hold addresses, usernames and Google accounts. */
  identifierNames: IdentifierNames;
  sessionSecret: string;
  mailer: Mailer;
  logger: IdentityLogger;
  publicUrl: string;
  productName: string;
  clock?: Clock;
  sessionPolicy?: SessionPolicy;
  /** Newest first; unset: one key derived from the session secret (never in production). */
  ssoSecretKeys?: readonly SecretKey[];
  allowHttpSsoIssuers?: boolean;
  publicSsoProvidersOnly?: boolean;
  nodeName?: string;
  mailClaimMs?: number;
  passwordHashesAtOnce?: number;
};

export type Identity = {
  clock: Clock;
  /** Also for refusals that must cost what a password check costs, so they cannot be told apart by time. */
  hasher: PasswordHasher;
  users: Users;
  identifierNames: IdentifierNames;
  directory: UserDirectory;
  registration: UserRegistration;
  passwordSignIn: PasswordSignIn;
  signInAttempts: SignInAttempts;
  googleSignIn: GoogleSignIn;
  googleState: GoogleStateSeal;
  passwordReset: PasswordReset;
  passwordChange: PasswordChange;
  invitations: Invitations;
  sessions: Sessions;
  sessionCookies: SessionCookies;
  xsrf: XsrfTokens;
  ssoClientSecrets: SecretBox;
  ssoState: SsoStateSeal;
  oidcProviders: OidcProviders;
  samlProviders: SamlProviders;
  twoStep: TwoStep;
  ownerResets: OwnerResets;
  erasure: PersonErasure;
};

export function createIdentity(options: IdentityOptions): Identity {
  const clock = options.clock ?? systemClock;
  const store = options.eventStore;
  const sessionPolicy = options.sessionPolicy ?? defaultSessionPolicy;
  const users = new Users(store, clock, sessionPolicy.absoluteTimeoutMs);
  const claims = new UserClaims(store, users, options.identifierNames);
  const hasher = new PasswordHasher(
    options.passwordHashesAtOnce === undefined ? {} : { hashesAtOnce: options.passwordHashesAtOnce },
  );
  const registration = new UserRegistration(store, users, claims, hasher);
  const sessionCookies = new SessionCookies(deriveKey(options.sessionSecret, 'session-cookie'));
  const sessions = new Sessions(store, users, sessionCookies, clock, sessionPolicy);
  const attempts = new SignInAttempts(store, clock, deriveKey(options.sessionSecret, 'sign-in-attempts'));
  const links = { publicUrl: options.publicUrl, productName: options.productName };
  const twoStep = new TwoStep({
    users,
    sessions,
    attempts,
    hasher,
    clock,
    mailer: options.mailer,
    logger: options.logger,
    links,
    // The keys that seal SSO client secrets seal authenticator secrets too: one set of keys at rest to rotate.
    secretsAtRest: new SecretBox(
      options.ssoSecretKeys ?? [{ id: 'derived', key: deriveKey(options.sessionSecret, 'authenticator-app') }],
      'authenticator-app',
    ),
    seal: new TwoStepSeal(
      new SecretBox([{ id: 'step', key: deriveKey(options.sessionSecret, 'two-step') }], 'two-step'),
      clock,
    ),
    passkeys: new PasskeyCeremonies(relyingPartyOf(options.publicUrl, options.productName)),
  });
  return {
    clock,
    hasher,
    users,
    identifierNames: options.identifierNames,
    directory: new UserDirectory(users, claims),
    registration,
    passwordSignIn: new PasswordSignIn(users, claims, hasher, sessions, clock, attempts),
    signInAttempts: attempts,
    googleSignIn: new GoogleSignIn(store, users, claims, registration),
    googleState: new GoogleStateSeal(deriveKey(options.sessionSecret, 'oauth-state'), clock),
    passwordReset: new PasswordReset(
      users,
      claims,
      hasher,
      sessions,
      options.mailer,
      clock,
      links,
      options.logger,
      new ThrottleCounters(resetRequestThrottlePolicy),
      attempts,
    ),
    passwordChange: new PasswordChange(users, hasher, sessions, clock, attempts),
    invitations: new Invitations(
      store,
      users,
      claims,
      registration,
      sessions,
      options.mailer,
      clock,
      { ...links, sender: options.nodeName ?? `process-${randomUUID()}`, mailClaimMs: options.mailClaimMs ?? 60_000 },
      options.logger,
      deriveKey(options.sessionSecret, 'invitation-links'),
    ),
    sessions,
    sessionCookies,
    xsrf: new XsrfTokens(deriveKey(options.sessionSecret, 'xsrf')),
    ssoClientSecrets: new SecretBox(
      options.ssoSecretKeys ?? [{ id: 'derived', key: deriveKey(options.sessionSecret, 'sso-client-secret') }],
      'sso-client-secret',
    ),
    ssoState: new SsoStateSeal(
      new SecretBox([{ id: 'state', key: deriveKey(options.sessionSecret, 'sso-state') }], 'sso-state'),
      clock,
    ),
    oidcProviders: new OidcProviders({
      allowHttpIssuers: options.allowHttpSsoIssuers ?? false,
      publicAddressesOnly: options.publicSsoProvidersOnly ?? true,
      clock,
    }),
    samlProviders: new SamlProviders({
      allowHttpMetadata: options.allowHttpSsoIssuers ?? false,
      publicAddressesOnly: options.publicSsoProvidersOnly ?? true,
    }),
    twoStep,
    ownerResets: new OwnerResets({
      users,
      attempts,
      hasher,
      clock,
      mailer: options.mailer,
      logger: options.logger,
      links,
    }),
    erasure: new PersonErasure(users, claims, sessions),
  };
}
