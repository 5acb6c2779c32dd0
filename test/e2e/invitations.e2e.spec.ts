// Invitations over HTTP (docs/console.md, Members), the mail delivered to a real SMTP server: an owner adds an
// address without an account; the mail's single-use link registers the person with a password they
// choose and signs them in; the console shows them as invited until then. Audited under the add's request.
// The mail goes out after the add's answer (a reaction to MemberAdded): `invitation: 'pending'`.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { invitationStream } from '#domain';
import { MEMBER_INVITATIONS, type MemberInvitations } from '#api';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { SmtpInbox, unfolded, type ReceivedMail } from '../support/smtp-inbox.js';

const password = 'correct horse battery staple';
let inbox: SmtpInbox;
let app: AuthApp;
let organizationId: string;
let owner: Browser;
/** The owner's actor, which also names the correlation ids the owner sends. */
let ownerActor: string;

beforeAll(async () => {
  inbox = await SmtpInbox.start();
  app = await startAuthApp({ SMTP_URL: inbox.url, PUBLIC_URL: 'https://chorus.example', LOG_LEVEL: 'silent' });
  const ownerId = await app.createUser({ email: 'owner@invites.example', username: 'owner', password });
  ownerActor = `user:${ownerId}`;
  await app.createUser({ email: 'known@invites.example', password });
  organizationId = await app.createOrganization('Invites', { userId: ownerId, email: 'owner@invites.example' });
  owner = await app.signedIn('owner', password);
});

afterAll(async () => {
  await app.close();
  await inbox.close();
});

function invitationTokenIn(mail: ReceivedMail): string {
  const match = /https:\/\/chorus\.example\/invite\/([A-Za-z0-9_-]{64})/.exec(unfolded(mail));
  if (match?.[1] === undefined) throw new Error(`No invitation link in:\n${mail.raw}`);
  return match[1];
}

async function onInvitationPage(token: string): Promise<Browser> {
  const browser = app.browser();
  expect((await browser.open(`/invite/${token}`)).status).toBe(200);
  return browser;
}

async function eventually(probe: () => Promise<boolean>, deadlineMs = 5_000): Promise<boolean> {
  const giveUpAt = Date.now() + deadlineMs;
  while (!(await probe())) {
    if (Date.now() > giveUpAt) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

const memberNamed = async (email: string) => {
  const { body } = await owner.get(`/organizations/${organizationId}`);
  return (body.members as { email: string; invited: boolean; userId: string }[]).find(
    (member) => member.email === email,
  );
};

describe('adding an address that has no account', () => {
  let token: string;
  let added: { userId: string; invitation: string; position: number };

  it('sends an invitation mail with a link to PUBLIC_URL/invite/<token>, saying who invited to what', async () => {
    const mail = inbox.next();
    const answer = await owner.post(
      `/organizations/${organizationId}/members`,
      { email: 'grace@invites.example', role: 'admin' },
      { headers: { 'x-correlation-id': 'add-grace-1' } },
    );

    expect(answer.status).toBe(201);
    added = answer.body;
    expect(added.invitation).toBe('pending');
    const received = await mail;
    expect(received.to).toEqual(['grace@invites.example']);
    expect(unfolded(received)).toContain('owner@invites.example added you to Invites on Chorus.');
    token = invitationTokenIn(received);
  });

  it('records it as events under the correlation id of the request that added the member, caused by its MemberAdded', async () => {
    await app.app.get<MemberInvitations>(MEMBER_INVITATIONS).handledUpTo(BigInt(added.position));
    const read = await app.store.readStream(invitationStream(added.userId));
    const events = read.found ? read.events : [];
    expect(events.map((event) => [event.type, event.metadata.correlationId, event.metadata.actor])).toEqual([
      ['InvitationSent', `${ownerActor}:add-grace-1`, ownerActor],
      ['InvitationMailed', `${ownerActor}:add-grace-1`, ownerActor],
    ]);
    const organization = await app.store.readStream(`organization-${organizationId}`, {
      direction: 'backwards',
      maxCount: 1,
    });
    const memberAdded = organization.found ? organization.events[0] : undefined;
    expect(memberAdded).toMatchObject({
      type: 'MemberAdded',
      metadata: { correlationId: `${ownerActor}:add-grace-1`, invitation: 'owed' },
    });
    expect(events[0]?.metadata.causationId).toBe(memberAdded?.id);
    expect(events[0]?.data).toMatchObject({ memberAddedEventId: memberAdded?.id });
    expect(JSON.stringify(events.map((event) => [event.data, event.metadata]))).not.toContain(token);
  });

  it('shows the member as invited until they have signed in once', async () => {
    expect(await memberNamed('grace@invites.example')).toMatchObject({ userId: added.userId, invited: true });
  });

  it('GET /invitations/:token says what the invitation is for, valid 7 days', async () => {
    const answer = await app.browser().get(`/invitations/${token}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      email: 'grace@invites.example',
      organizationName: 'Invites',
      expiresAt: expect.any(String),
      singleSignOn: null,
    });
    expect(new Date(answer.body.expiresAt).getTime() - app.clock.now().getTime()).toBe(7 * 24 * 3_600_000);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('POST /invitations/accept needs the page XSRF token, like the login form', async () => {
    const browser = await onInvitationPage(token);
    const forged = await browser.post(
      '/invitations/accept',
      { token, password: 'a passphrase of my own' },
      { xsrf: false },
    );
    expect({ status: forged.status, code: forged.body.code }).toEqual({ status: 403, code: 'XSRF_INVALID' });
  });

  it('refuses a weak password with the reset rules, keeping the link usable', async () => {
    const browser = await onInvitationPage(token);
    const weak = await browser.post('/invitations/accept', { token, password: 'short' });
    expect({ status: weak.status, code: weak.body.code, detail: weak.body.detail }).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: 'The password must be at least 8 characters long.',
    });
  });

  it('registers the person with the password they chose and signs this browser in to the organization', async () => {
    const browser = await onInvitationPage(token);
    const accepted = await browser.post('/invitations/accept', { token, password: 'a passphrase of my own' });
    expect(accepted.status).toBe(204);

    const session = await browser.get('/session');
    expect(session.body).toMatchObject({
      user: { id: added.userId, email: 'grace@invites.example' },
      organizations: [{ id: organizationId, role: 'admin' }],
    });
    expect((await browser.open('/')).location).toBe('/app');
    expect((await browser.get('/sessions')).body.sessions).toEqual([
      expect.objectContaining({ method: 'invitation', current: true }),
    ]);
    // The read model learns of the first sign-in from the event log, a moment after it was recorded.
    expect(await eventually(async () => (await memberNamed('grace@invites.example'))?.invited === false)).toBe(true);

    const login = app.browser();
    await login.open('/login');
    expect(
      (await login.post('/login', { username: 'grace@invites.example', password: 'a passphrase of my own' })).status,
    ).toBe(204);
  });

  it('works once: the link is INVALID_TOKEN afterwards', async () => {
    const browser = await onInvitationPage(token);
    const again = await browser.post('/invitations/accept', { token, password: 'another passphrase' });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 400, code: 'INVALID_TOKEN' });
    expect((await app.browser().get(`/invitations/${token}`)).status).toBe(400);
  });
});

describe('adding an address that has an account', () => {
  it('answers as for one without, and mails a notice that they were added, with no invitation link', async () => {
    const mail = inbox.next();
    const answer = await owner.post(`/organizations/${organizationId}/members`, {
      email: 'known@invites.example',
      role: 'member',
    });
    expect({ status: answer.status, invitation: answer.body.invitation }).toEqual({
      status: 201,
      invitation: 'pending',
    });
    const received = await mail;
    expect(received.to).toEqual(['known@invites.example']);
    expect(unfolded(received)).toContain('Subject: You were added to Invites on Chorus');
    expect(unfolded(received)).toContain('owner@invites.example added you to Invites on Chorus.');
    expect(unfolded(received)).not.toContain('/invite/');
  });
});

describe('an invitee removed before accepting', () => {
  it('finds the link spent: it neither makes the account nor opens a session', async () => {
    const mail = inbox.next();
    const added = await owner.post(`/organizations/${organizationId}/members`, {
      email: 'hal@invites.example',
      role: 'member',
    });
    expect(added.status).toBe(201);
    const token = invitationTokenIn(await mail);
    expect((await app.browser().get(`/invitations/${token}`)).status).toBe(200);

    expect(
      (await owner.request('DELETE', `/organizations/${organizationId}/members/${added.body.userId as string}`)).status,
    ).toBeLessThan(300);

    expect((await app.browser().get(`/invitations/${token}`)).body).toMatchObject({
      status: 400,
      code: 'INVALID_TOKEN',
    });
    const browser = await onInvitationPage(token);
    const accepted = await browser.post('/invitations/accept', { token, password: 'a passphrase of my own' });
    expect({ status: accepted.status, code: accepted.body.code }).toEqual({ status: 400, code: 'INVALID_TOKEN' });
    expect((await browser.get('/session')).status).toBe(401);
    const login = app.browser();
    await login.open('/login');
    expect(
      (await login.post('/login', { username: 'hal@invites.example', password: 'a passphrase of my own' })).status,
    ).toBe(401);
  });
});
