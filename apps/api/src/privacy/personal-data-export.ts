// A person's own copy of what Chorus holds about them (GDPR Art. 15 and 20; docs/privacy.md): the account, their
// organizations and roles, their live sessions, their sign-in and account events with where they came from, and
// their second factors by name and date. Never a secret: no password hash, factor secret, code or token.
import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '#event-store';
import { userStream } from '#domain';
import type { Identity } from '#identity';
import { READ_MODELS, type ReadModels } from '#read-models';
import { IDENTITY } from '../auth/identity.provider.js';

/** The events of a person's stream that say what happened to their account, with their own words kept. */
const ACCOUNT_EVENTS: ReadonlySet<string> = new Set([
  'UserRegistered',
  'PasswordSet',
  'GoogleAccountLinked',
  'SsoAccountLinked',
  'PasswordResetRequested',
  'PasswordResetCompleted',
  'PasswordChanged',
  'SignedIn',
  'SignedOut',
  'AuthenticatorAppEnrolled',
  'AuthenticatorAppRemoved',
  'PasskeyRegistered',
  'PasskeyRenamed',
  'PasskeyRemoved',
  'RecoveryCodesGenerated',
  'SecondStepPassed',
  'SecondStepFailed',
  'SecondFactorsReset',
  'SecondFactorsResetRequested',
  'FactorChangeConfirmed',
]);
/** What an event's data may hold that is a credential or a token's digest: left out of the copy. */
const SECRETS: ReadonlySet<string> = new Set(['passwordHash', 'tokenHash', 'secretSealed', 'publicKey', 'codeHashes', 'recoveryCodeHash', 'credentialId', 'sessionId', 'previousSessionId', 'endedSessionIds']);

const withoutSecrets = (data: unknown): Record<string, unknown> =>
  Object.fromEntries(Object.entries((data ?? {}) as Record<string, unknown>).filter(([field]) => !SECRETS.has(field)));

export type PersonalDataCopy = {
  exportedAt: string;
  account: { userId: string; email: string; username: string | null; googleLinked: boolean; ssoOrganizationIds: string[]; hasPassword: boolean };
  organizations: { id: string; name: string; role: string }[];
  sessions: { method: string; startedAt: string; lastActiveAt: string; expiresAt: string; userAgent: string | null }[];
  secondFactors: {
    authenticatorApp: { setUpAt: string } | null;
    passkeys: { name: string; registeredAt: string; lastUsedAt: string | null }[];
    recoveryCodes: { generatedAt: string; unused: number } | null;
  };
  events: { type: string; at: string; data: Record<string, unknown>; clientIp?: unknown; userAgent?: unknown }[];
};

@Injectable()
export class PersonalDataExport {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  /** undefined: no account has this id (an erased person has none). */
  async of(userId: string): Promise<PersonalDataCopy | undefined> {
    const { state } = await this.identity.users.load(userId);
    if (state.status !== 'registered') return undefined;
    const factors = state.secondFactors;
    const stream = await this.store.readStream(userStream(userId), { maxCount: 100_000 });
    const events = stream.found ? stream.events.filter((event) => ACCOUNT_EVENTS.has(event.type)) : [];
    return {
      exportedAt: this.identity.clock.now().toISOString(),
      account: {
        userId,
        email: state.email,
        username: state.username,
        googleLinked: state.googleSubject !== null,
        ssoOrganizationIds: state.ssoOrganizationIds,
        hasPassword: state.passwordHash !== null,
      },
      organizations: this.readModels.organizations.organizationsOfUser(userId).map(({ organizationId, name, role }) => ({ id: organizationId, name, role })),
      sessions: (await this.identity.sessions.listForUser(userId)).map((session) => ({
        method: session.method,
        startedAt: session.startedAt,
        lastActiveAt: session.lastActiveAt,
        expiresAt: session.absoluteExpiresAt,
        userAgent: session.userAgent,
      })),
      secondFactors: {
        authenticatorApp: factors.authenticatorApp === null ? null : { setUpAt: factors.authenticatorApp.enrolledAt },
        passkeys: factors.passkeys.map(({ name, registeredAt, lastUsedAt }) => ({ name, registeredAt, lastUsedAt })),
        recoveryCodes: factors.recoveryCodes === null ? null : { generatedAt: factors.recoveryCodes.generatedAt, unused: factors.recoveryCodes.unused.length },
      },
      events: events.map((event) => ({
        type: event.type,
        at: event.recordedAt,
        data: withoutSecrets(event.data),
        ...(event.metadata.clientIp === undefined ? {} : { clientIp: event.metadata.clientIp }),
        ...(event.metadata.userAgent === undefined ? {} : { userAgent: event.metadata.userAgent }),
      })),
    };
  }
}
