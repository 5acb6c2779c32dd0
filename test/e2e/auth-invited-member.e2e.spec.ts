// A member added by e-mail before they have an account (docs/api.md, Organizations and Sign-in): the id
// the membership gets is the id of the user who later registers with that address, by the command
// line or a first Google sign-in, so they sign in as that member.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { userStream } from '#domain';
import { MEMBER_INVITATIONS, type MemberInvitations } from '#api';
import { READ_MODELS, type ReadModels } from '#read-models';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { runUserCreate } from '../support/run-user-create.js';
import type { Browser } from '../support/browser.js';
import { GoogleMock } from '../support/google-mock.js';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization } from '../support/organization-setup.js';

const password = 'a long enough passphrase';
const teams = { plan: { line: 'chorus' as const, plan: 'teams' }, chorus: { enabled: true } };

let google: GoogleMock;
let app: AuthApp;
let api: HttpClient;
let engines: string;
let looms: string;
let mills: string;

const claimStream = (kind: 'email', value: string) => app.identity.identifierNames.streamOf(kind, value);

beforeAll(async () => {
  google = await GoogleMock.start();
  app = await startAuthApp(google.settings);
  api = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write']) });
  engines = await createOrganization(api, teams);
  looms = await createOrganization(api, teams);
  mills = await createOrganization(api, teams);
});
afterAll(async () => {
  await app.close();
  await google.stop();
});
afterEach(() => {
  process.exitCode = undefined;
});

/** Adds a member over HTTP; answers the member's user id once the read model has the membership. */
async function addMember(organizationId: string, email: string, role: string, correlationId?: string): Promise<string> {
  const headers: Record<string, string> = correlationId === undefined ? {} : { 'X-Correlation-Id': correlationId };
  const added = await api.post(`/organizations/${organizationId}/members`, { email, role }, { headers });
  expect(added.status).toBe(201);
  await app.app.get<ReadModels>(READ_MODELS).waitForPosition(BigInt(added.body.position), 5_000);
  return added.body.userId as string;
}

/**
 * Runs `chorus user:create <args>` on the app's DATA_DIR in this process; answers what it printed and its exit code.
 */
const userCreate = (...args: string[]) => runUserCreate(app.dataDir, ['user:create', ...args, '--json']);

/** Signs in by password in a new browser; answers the browser. */
async function signIn(username: string): Promise<Browser> {
  const browser = app.browser();
  await browser.open('/login');
  expect((await browser.post('/login', { username, password })).status).toBe(204);
  return browser;
}

async function eventsOf(streamId: string) {
  const stream = await app.store.readStream(streamId);
  return stream.found ? stream.events : [];
}

describe('a member added by e-mail, then created with chorus user:create', () => {
  it('is the user: same id, and GET /session after login lists the organization', async () => {
    const memberId = await addMember(engines, 'Grace.Hopper@Example.com', 'admin', 'invite-grace');

    const created = await userCreate(
      '--email',
      'grace.hopper@EXAMPLE.com',
      '--password',
      password,
      '--username',
      'grace',
    );
    expect(created.stderr).toBe('');
    expect(created.exitCode).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({ userId: memberId, email: 'grace.hopper@example.com' });

    for (const username of ['GRACE.HOPPER@example.com', 'grace']) {
      const session = await (await signIn(username)).get('/session');
      expect(session.body).toEqual({
        user: { id: memberId, email: 'grace.hopper@example.com', username: 'grace' },
        organizations: [{ id: engines, name: 'Test organization', role: 'admin' }],
      });
    }
  });

  it('records what happened: the reservation with the request that added the member, the registration taking it up', async () => {
    const memberId = await addMember(engines, 'ada.lovelace@example.com', 'member', 'invite-ada');
    expect((await userCreate('--email', 'Ada.Lovelace@example.com', '--password', password)).exitCode).toBe(0);

    const [memberAdded] = (await eventsOf(`organization-${engines}`)).filter((event) =>
      String(event.metadata.correlationId).endsWith(':invite-ada'),
    );
    expect(memberAdded).toMatchObject({ type: 'MemberAdded', data: { userId: memberId } });
    const claims = await eventsOf(await claimStream('email', 'ada.lovelace@example.com'));
    expect(claims.map((event) => [event.type, event.data, event.metadata.actor, event.metadata.correlationId])).toEqual(
      [
        [
          'IdentifierReserved',
          { kind: 'email', userId: memberId },
          memberAdded?.metadata.actor,
          `${String(memberAdded?.metadata.actor)}:invite-ada`,
        ],
        ['IdentifierClaimed', { kind: 'email', userId: memberId }, 'cli', expect.any(String)],
      ],
    );
    expect(claims[0]?.metadata).toMatchObject({
      clientIp: memberAdded?.metadata.clientIp,
      userAgent: memberAdded?.metadata.userAgent,
    });
    expect((await eventsOf(userStream(memberId)))[0]?.data).toMatchObject({
      userId: memberId,
      email: 'ada.lovelace@example.com',
      invited: true,
    });
  });

  it('keeps the id when user:create adds the invited address to another organization', async () => {
    const memberId = await addMember(engines, 'charles@example.com', 'member');
    const created = await userCreate(
      '--email',
      'Charles@Example.com',
      '--password',
      password,
      '--org',
      looms,
      '--role',
      'owner',
    );
    expect(created.exitCode).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ userId: memberId, organizationId: looms });

    const session = await (await signIn('charles@example.com')).get('/session');
    expect(session.body.user.id).toBe(memberId);
    expect(
      new Set(
        session.body.organizations.map(
          (organization: { id: string; role: string }) => `${organization.id}:${organization.role}`,
        ),
      ),
    ).toEqual(new Set([`${engines}:member`, `${looms}:owner`]));
  });
});

describe('a refused add', () => {
  it('records nothing anywhere: the organization decides before the address gets an id', async () => {
    const full = await createOrganization(api, { ...teams, limits: { users: 1 } });
    const first = await api.post(`/organizations/${full}/members`, { email: 'first@example.com', role: 'owner' });
    expect(first.status).toBe(201);
    // Its invitation (mailed by the reaction to MemberAdded, after the answer) is written first. The reaction
    // counts MemberAdded positions: the store's head may already be past it, at the invitation's own events.
    await app.app.get<MemberInvitations>(MEMBER_INVITATIONS).handledUpTo(BigInt(first.body.position));
    const before = await app.store.headPosition();

    const refused = await api.post(`/organizations/${full}/members`, {
      email: 'nobody-yet@example.com',
      role: 'member',
    });

    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'LIMIT_EXCEEDED', resource: 'users', limit: 1, count: 1 });
    expect(await eventsOf(await claimStream('email', 'nobody-yet@example.com'))).toEqual([]);
    expect(await app.store.headPosition()).toBe(before);
  });
});

describe('concurrent adds of the same new address', () => {
  it('give every membership one user id, whatever the case, and that user signs in as both', async () => {
    const ids = await Promise.all([
      addMember(engines, 'Ken@Example.com', 'member'),
      addMember(looms, 'ken@example.com', 'admin'),
    ]);
    expect(ids[0]).toBe(ids[1]);
    expect((await eventsOf(await claimStream('email', 'ken@example.com'))).map((event) => event.type)).toEqual([
      'IdentifierReserved',
    ]);

    expect(JSON.parse((await userCreate('--email', 'KEN@EXAMPLE.COM', '--password', password)).stdout)).toMatchObject({
      userId: ids[0],
    });
    const session = await (await signIn('ken@example.com')).get('/session');
    expect(
      new Set(
        session.body.organizations.map(
          (organization: { id: string; role: string }) => `${organization.id}:${organization.role}`,
        ),
      ),
    ).toEqual(new Set([`${engines}:member`, `${looms}:admin`]));
  });
});

describe('a member added by e-mail, then signing in with Google for the first time', () => {
  it('becomes the user when Google verifies the address, and is sent where they were going', async () => {
    const owner = await app.createUser({ email: 'owner@example.com', password });
    // A registered user's address answers their own id.
    expect(await addMember(mills, 'Owner@Example.com', 'owner')).toBe(owner);
    // An owner signed in adds the member, as the SPA would.
    const ownerBrowser = await signIn('owner@example.com');
    const added = await ownerBrowser.post(`/organizations/${mills}/members`, {
      email: 'Linus@Example.com',
      role: 'member',
    });
    expect(added.status).toBe(201);
    const memberId = added.body.userId as string;
    expect((await eventsOf(await claimStream('email', 'linus@example.com')))[0]?.metadata).toMatchObject({
      actor: `user:${owner}`,
    });

    // Google does not vouch for the address: nobody, and no account is made.
    expect(
      (await google.signIn(app.browser(), { sub: 'google-linus', email: 'linus@example.com', email_verified: false }))
        .location,
    ).toBe('/login?error=account');
    expect(await eventsOf(userStream(memberId))).toEqual([]);

    const browser = app.browser();
    const done = await google.signIn(browser, {
      sub: 'google-linus',
      email: 'LINUS@example.com',
      email_verified: true,
    });
    expect(done.status).toBe(302);
    expect(done.location).toBe('/');
    expect((await browser.get('/session')).body).toEqual({
      user: { id: memberId, email: 'linus@example.com', username: null },
      organizations: [{ id: mills, name: 'Test organization', role: 'member' }],
    });
    expect((await eventsOf(userStream(memberId))).map((event) => [event.type, event.metadata.actor])).toEqual([
      ['UserRegistered', 'google'],
      ['GoogleAccountLinked', 'google'],
      ['SignedIn', `user:${memberId}`],
    ]);
    // The account is Google's only: the password form finds no password for it.
    const tried = app.browser();
    await tried.open('/login');
    expect((await tried.post('/login', { username: 'linus@example.com', password })).status).toBe(401);
  });

  it('answers two simultaneous first sign-ins of one address with redirects, never an error page, and registers once', async () => {
    const memberId = await addMember(mills, 'Ada.Byron@Example.com', 'member');
    const userInfo = { sub: 'google-ada-byron', email: 'ada.byron@example.com', email_verified: true };
    const answers = await Promise.all([google.signIn(app.browser(), userInfo), google.signIn(app.browser(), userInfo)]);

    expect(answers.map((answer) => answer.status)).toEqual([302, 302]);
    for (const answer of answers) expect(['/', '/login?error=google']).toContain(answer.location);
    expect(answers.some((answer) => answer.location === '/')).toBe(true);
    expect((await eventsOf(userStream(memberId))).filter((event) => event.type === 'UserRegistered')).toHaveLength(1);
  });

  it('does not sign up an address no one added as a member', async () => {
    expect(
      (
        await google.signIn(app.browser(), {
          sub: 'google-stranger',
          email: 'stranger@example.com',
          email_verified: true,
        })
      ).location,
    ).toBe('/login?error=account');
    expect(await eventsOf(await claimStream('email', 'stranger@example.com'))).toEqual([]);
  });
});
