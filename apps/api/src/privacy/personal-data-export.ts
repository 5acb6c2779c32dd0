// A person's own copy of what Chorus holds about them (GDPR Art. 15 and 20; docs/privacy.md): the account, their
// organizations and roles, their live sessions, their sign-in and account events with where they came from, their
// second factors by name and date, and what else the log keeps of them: their sign-in attempts, their invitations,
// the changes of their memberships, what a company's directory says of them, and refusals to join by their address.
// Never a secret: no password hash, factor secret, code or token.
import { Inject, Injectable } from '@nestjs/common';
import { loadStream } from '#application';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import {
  emailDomain,
  invitationStream,
  joinRefusalNoticeDecider,
  joinRefusalNoticeId,
  organizationStream,
  signInAttemptsStream,
  ssoDomainClaimDecider,
  userStream,
} from '#domain';
import type { Identity } from '#identity';
import { READ_MODELS, type ReadModels } from '#read-models';
import { IDENTITY } from '../auth/identity.provider.js';
import { DirectoryUsers } from '../directory/directory-users.service.js';
import { refusedPersonKey } from '../sso/join-refusals.js';

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
const SECRETS: ReadonlySet<string> = new Set([
  'passwordHash',
  'tokenHash',
  'secretSealed',
  'publicKey',
  'codeHashes',
  'recoveryCodeHash',
  'credentialId',
  'sessionId',
  'previousSessionId',
  'endedSessionIds',
]);

const withoutSecrets = (data: unknown): Record<string, unknown> =>
  Object.fromEntries(Object.entries((data ?? {}) as Record<string, unknown>).filter(([field]) => !SECRETS.has(field)));

/** Where a recorded event came from, as the person's own events show it. */
const origin = (event: RecordedEvent): { clientIp?: unknown; userAgent?: unknown } => ({
  ...(event.metadata.clientIp === undefined ? {} : { clientIp: event.metadata.clientIp }),
  ...(event.metadata.userAgent === undefined ? {} : { userAgent: event.metadata.userAgent }),
});

/** The organization's events about this member (their userId in the data): added, role changed, removed. */
const MEMBERSHIP_EVENTS: ReadonlySet<string> = new Set([
  'MemberAdded',
  'MemberRoleChanged',
  'MemberRemoved',
  'InvitationResent',
]);

export type PersonalDataCopy = {
  exportedAt: string;
  account: {
    userId: string;
    email: string;
    username: string | null;
    googleLinked: boolean;
    ssoOrganizationIds: string[];
    hasPassword: boolean;
  };
  organizations: { id: string; name: string; role: string }[];
  sessions: { method: string; startedAt: string; lastActiveAt: string; expiresAt: string; userAgent: string | null }[];
  secondFactors: {
    authenticatorApp: { setUpAt: string } | null;
    passkeys: { name: string; registeredAt: string; lastUsedAt: string | null }[];
    recoveryCodes: { generatedAt: string; unused: number } | null;
  };
  events: { type: string; at: string; data: Record<string, unknown>; clientIp?: unknown; userAgent?: unknown }[];
  /** Against the account (a wrong password counts) and its second step: when, and from where. */
  signInAttempts: { type: string; at: string; clientIp?: unknown; userAgent?: unknown }[];
  invitations: { type: string; at: string; data: Record<string, unknown> }[];
  /** In the organizations they belong to now: who added them, changed their role, as what. */
  membershipChanges: {
    organizationId: string;
    type: string;
    at: string;
    actor: string;
    data: Record<string, unknown>;
  }[];
  /** What a company's directory (SCIM) pushed about them, and its groups they are in. */
  directoryRecords: { organizationId: string; record: Record<string, unknown>; groups: string[] }[];
  /** Refusals to join by their address (the users limit), by day. */
  joinRefusals: { organizationId: string; domain: string; on: string }[];
};

@Injectable()
export class PersonalDataExport {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly directory: DirectoryUsers,
  ) {}

  /** undefined: no account has this id (an erased person has none). */
  async of(userId: string): Promise<PersonalDataCopy | undefined> {
    const { state } = await this.identity.users.load(userId);
    if (state.status !== 'registered') return undefined;
    const factors = state.secondFactors;
    const stream = await this.store.readStream(userStream(userId), { maxCount: 100_000 });
    const events = stream.found ? stream.events.filter((event) => ACCOUNT_EVENTS.has(event.type)) : [];
    const organizations = this.readModels.organizations.organizationsOfUser(userId);
    // The organization holding the address's domain: where a directory or a join by address may know them too.
    const domain = emailDomain(state.email);
    const domainHolder =
      domain === null ? undefined : (await loadStream(this.store, ssoDomainClaimDecider, domain)).state?.organizationId;
    const attemptStreams = [
      signInAttemptsStream({ kind: 'account', id: userId }),
      signInAttemptsStream({ kind: 'second-step', id: userId }),
    ];
    const memberOf = organizations.map((organization) => organization.organizationId);
    const concerned = [...new Set([...memberOf, ...(domainHolder === undefined ? [] : [domainHolder])])];
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
      organizations: organizations.map(({ organizationId, name, role }) => ({ id: organizationId, name, role })),
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
        recoveryCodes:
          factors.recoveryCodes === null
            ? null
            : { generatedAt: factors.recoveryCodes.generatedAt, unused: factors.recoveryCodes.unused.length },
      },
      events: events.map((event) => ({
        type: event.type,
        at: event.recordedAt,
        data: withoutSecrets(event.data),
        ...origin(event),
      })),
      signInAttempts: (await this.eventsOf(attemptStreams))
        .filter((event) => event.type !== 'SignInAttemptReserved')
        .map((event) => ({ type: event.type, at: event.recordedAt, ...origin(event) })),
      invitations: (await this.eventsOf([invitationStream(userId)])).map((event) => ({
        type: event.type,
        at: event.recordedAt,
        data: withoutSecrets(event.data),
      })),
      membershipChanges: await this.membershipChanges(userId, memberOf),
      directoryRecords: await this.directoryRecords(userId, concerned),
      joinRefusals: domainHolder === undefined ? [] : await this.joinRefusals(userId, state.email, domainHolder),
    };
  }

  private async eventsOf(streams: readonly string[]): Promise<RecordedEvent[]> {
    const read = await Promise.all(streams.map((stream) => this.store.readStream(stream, { maxCount: 100_000 })));
    return read
      .flatMap((result) => (result.found ? result.events : []))
      .sort((a, b) => a.recordedAt.localeCompare(b.recordedAt));
  }

  private async membershipChanges(
    userId: string,
    organizationIds: readonly string[],
  ): Promise<PersonalDataCopy['membershipChanges']> {
    const changes: PersonalDataCopy['membershipChanges'] = [];
    for (const organizationId of organizationIds) {
      for (const event of await this.eventsOf([organizationStream(organizationId)])) {
        const data = event.data as { userId?: unknown };
        if (!MEMBERSHIP_EVENTS.has(event.type) || data.userId !== userId) continue;
        changes.push({
          organizationId,
          type: event.type,
          at: event.recordedAt,
          actor: event.metadata.actor,
          data: withoutSecrets(event.data),
        });
      }
    }
    return changes;
  }

  private async directoryRecords(
    userId: string,
    organizationIds: readonly string[],
  ): Promise<PersonalDataCopy['directoryRecords']> {
    const records: PersonalDataCopy['directoryRecords'] = [];
    for (const organizationId of organizationIds) {
      const found = await this.directory.recordOf(organizationId, userId);
      if (found !== undefined) records.push({ organizationId, ...found });
    }
    return records;
  }

  /** Kept under the user id, or, refused before they had an account, under the keyed hash of their address. */
  private async joinRefusals(
    userId: string,
    email: string,
    organizationId: string,
  ): Promise<PersonalDataCopy['joinRefusals']> {
    const keys = [userId, refusedPersonKey(this.identity, { userId: undefined, email })];
    const streams = keys.map((key) => joinRefusalNoticeDecider.streamOf(joinRefusalNoticeId(organizationId, key)));
    return (await this.eventsOf(streams)).map((event) => {
      const { domain, on } = event.data as { domain: string; on: string };
      return { organizationId, domain, on };
    });
  }
}
