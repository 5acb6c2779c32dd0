import { describe, expect, it } from '@jest/globals';
import type { EventMetadata, RecordedEvent } from '#event-store';
import { liveTableNames } from '../projection.js';
import { memberSecurityProjection } from './member-security.projection.js';
import { MemberSecurityQueries } from './member-security.queries.js';
import { projectionUnderTest } from '../testing/projection-under-test.js';

const projection = memberSecurityProjection();

let position = 0n;
function recorded(streamId: string, type: string, data: Record<string, unknown>): RecordedEvent {
  position += 1n;
  const metadata = { actor: 'cli', correlationId: 'c', causationId: 'c' } as EventMetadata;
  return {
    id: `event-${position}`,
    streamId,
    type,
    data,
    metadata,
    recordedAt: '2030-01-01T09:00:00.000Z',
    revision: position,
    position,
  };
}

const at = '2030-01-01T09:00:00.000Z';
const log: RecordedEvent[] = [
  recorded('user-ada', 'AuthenticatorAppEnrolled', { secretSealed: 's', at }),
  recorded('organization-acme', 'MemberAdded', { userId: 'ada', email: 'ada@acme.example', role: 'owner' }),
  recorded('organization-globex', 'MemberAdded', { userId: 'ada', email: 'ada@globex.example', role: 'member' }),
  recorded('user-ada', 'SecondStepFailed', { sessionId: 'h', method: 'authenticator-app', at }),
  // A routine second step is a sign-in: not listed.
  recorded('user-ada', 'SecondStepPassed', {
    previousSessionId: 'h',
    sessionId: 'f',
    method: 'authenticator-app',
    absoluteExpiresAt: at,
    timeStep: 1,
    at,
  }),
  recorded('organization-globex', 'MemberRemoved', { userId: 'ada' }),
  recorded('user-ada', 'SecondStepPassed', {
    previousSessionId: 'h2',
    sessionId: 'f2',
    method: 'recovery-code',
    absoluteExpiresAt: at,
    recoveryCodeHash: 'x',
    at,
  }),
  recorded('user-grace', 'PasskeyRegistered', {
    credentialId: 'c',
    publicKey: 'p',
    counter: 0,
    transports: [],
    name: 'Phone',
    at,
  }),
];

const subject = projectionUnderTest(projection, (db) => new MemberSecurityQueries(db));
const { commit } = subject;

const listed = (organizationId: string) =>
  subject.queries.page(organizationId, 10).map(({ type, email }) => `${email} ${type}`);
const rows = (): unknown =>
  ['security_memberships', 'member_security_events', 'member_second_factors'].map((table) =>
    subject.db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all(),
  );

describe('member-security projection', () => {
  it("lists a member's two-step events for each organization while they are its member, newest first", () => {
    commit(log);

    expect(listed('acme')).toEqual(['ada@acme.example SecondStepPassed', 'ada@acme.example SecondStepFailed']);
    // Before she joined, and after she left, is not Globex's to read; Grace is no member anywhere.
    expect(listed('globex')).toEqual(['ada@globex.example SecondStepFailed']);
    expect(listed('initech')).toEqual([]);
  });

  it("indexes every member event the webhooks send, the routine sign-ins and an account's failed attempts included, where each is", () => {
    commit([
      ...log,
      recorded('user-ada', 'SignedIn', { sessionId: 's', method: 'password', absoluteExpiresAt: at, at }),
      recorded('sign-in-attempts-account-ada', 'SignInAttemptFailed', { reservedAt: at, streak: {}, at }),
      recorded('sign-in-attempts-name-x', 'SignInAttemptFailed', { reservedAt: at, streak: {}, at }),
    ]);
    const located = subject.queries
      .after('acme', 0n, 1_000n, 10)
      .map(({ streamId, revision, userId }) => `${userId} ${streamId}@${revision}`);
    expect(located).toEqual([
      'ada user-ada@4',
      'ada user-ada@5',
      'ada user-ada@7',
      'ada user-ada@9',
      'ada sign-in-attempts-account-ada@10',
    ]);
    expect(subject.queries.after('acme', 5n, 9n, 10).map(({ position }) => position)).toEqual([7n, 9n]);
    expect(subject.queries.after('globex', 0n, 1_000n, 10).map(({ position }) => position)).toEqual([4n, 5n]);
    // The console's list stays the two-step events it names.
    expect(listed('acme')).toEqual(['ada@acme.example SecondStepPassed', 'ada@acme.example SecondStepFailed']);
  });

  it('knows who has a second factor, from their own stream, whatever organizations they are in', () => {
    const people = ['ada', 'grace', 'linus'];
    commit(log);
    expect(subject.queries.withSecondFactor(people)).toEqual(new Set(['ada', 'grace']));
    expect(subject.queries.withSecondFactor([])).toEqual(new Set());

    commit([
      recorded('user-ada', 'AuthenticatorAppRemoved', { at }),
      recorded('user-grace', 'PasskeyRegistered', {
        credentialId: 'd',
        publicKey: 'p',
        counter: 0,
        transports: [],
        name: 'Laptop',
        at,
      }),
      recorded('user-grace', 'PasskeyRemoved', { credentialId: 'c', at }),
      recorded('user-linus', 'UserRegistered', { userId: 'linus', email: 'linus@acme.example', at }),
    ]);
    // Grace keeps her laptop's passkey; Ada has none left; Linus never had one.
    expect(subject.queries.withSecondFactor(people)).toEqual(new Set(['grace']));

    commit([
      recorded('user-grace', 'SecondFactorsReset', {
        organizationId: 'acme',
        authority: 'account-of-organization',
        at,
      }),
      recorded('user-linus', 'AuthenticatorAppEnrolled', { secretSealed: 's', at }),
      recorded('user-linus', 'PersonalDataErased', { userId: 'linus', endedSessionIds: [], at }),
    ]);
    expect(subject.queries.withSecondFactor(people)).toEqual(new Set());
  });

  it('pages by position', () => {
    commit(log);
    const [newest] = subject.queries.page('acme', 1);
    expect(subject.queries.page('acme', 10, newest?.position).map(({ type }) => type)).toEqual(['SecondStepFailed']);
  });

  it('lists again for someone who comes back, from their return', () => {
    commit([
      ...log,
      recorded('organization-globex', 'MemberAdded', { userId: 'ada', email: 'ada@globex.example', role: 'admin' }),
      recorded('user-ada', 'AuthenticatorAppRemoved', { at }),
    ]);
    expect(listed('globex')).toEqual([
      'ada@globex.example AuthenticatorAppRemoved',
      'ada@globex.example SecondStepFailed',
    ]);
  });

  it('decides in memory and writes when flushed, as a rebuild drives it: the same rows, written in chunks', () => {
    commit(log);
    const committed = rows();
    subject.db.exec(
      'DELETE FROM security_memberships; DELETE FROM member_security_events; DELETE FROM member_second_factors',
    );
    // Tables that start empty: the subject.writer looks up only what it wrote itself.
    const rebuilding = projection.writer(subject.db, liveTableNames(projection), { startsEmpty: true });

    for (const event of log) if (projection.handles(event)) rebuilding.apply(event);
    expect(rows()).toEqual([[], [], []]);
    let done = false;
    while (!done) done = subject.db.transaction(() => rebuilding.flush(1))();
    expect(rows()).toEqual(committed);
  });

  it('is idempotent: the same events applied again, one by one or all at once, leave the same rows', () => {
    commit(log);
    const once = rows();

    for (const event of log) commit([event]);
    expect(rows()).toEqual(once);
    commit([...log, ...log]);
    expect(rows()).toEqual(once);
  });
});
