// "Resend invitation" over HTTP (docs/console.md, Members), mailed to a real SMTP server: an owner or admin has a
// pending member's invitation sent again, with a new link that works; it is recorded in the organization's
// history; and it cannot be turned against anyone: not for another organization's people, not by a plain
// member, not for an owner by an admin, not for someone who has an account, not more often than any invitation.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MEMBER_INVITATIONS, type MemberInvitations } from '#api';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { SmtpInbox, unfolded, type ReceivedMail } from '../support/smtp-inbox.js';

const password = 'correct horse battery staple';
let inbox: SmtpInbox;
let app: AuthApp;
let acme: string;
let other: string;
let owner: Browser;
let admin: Browser;
let plainMember: Browser;
let otherAdmin: Browser;
let pending: { userId: string; position: number };
let pendingOwner: { userId: string; position: number };
let knownUserId: string;

const linkIn = (mail: ReceivedMail): string =>
  /https:\/\/chorus\.example\/invite\/([A-Za-z0-9_-]{64})/.exec(unfolded(mail))?.[1] ?? '';
const resend = (browser: Browser, organizationId: string, userId: string) =>
  browser.post(`/organizations/${organizationId}/members/${userId}/invitation`, {});
const invited = (position: number) => app.app.get<MemberInvitations>(MEMBER_INVITATIONS).handledUpTo(BigInt(position));

beforeAll(async () => {
  inbox = await SmtpInbox.start();
  app = await startAuthApp({ SMTP_URL: inbox.url, PUBLIC_URL: 'https://chorus.example', LOG_LEVEL: 'silent' });
  const ownerId = await app.createUser({ email: 'owner@resend.example', username: 'owner', password });
  // Five members in all (the organization's users limit): Ada, the admin, the member, and two invited.
  knownUserId = await app.createUser({ email: 'admin@resend.example', username: 'admin', password });
  await app.createUser({ email: 'member@resend.example', username: 'member', password });
  const otherOwnerId = await app.createUser({ email: 'owner@other.example', username: 'other-owner', password });
  await app.createUser({ email: 'admin@other.example', username: 'other-admin', password });
  acme = await app.createOrganization('Resend', { userId: ownerId, email: 'owner@resend.example' });
  other = await app.createOrganization('Other', { userId: otherOwnerId, email: 'owner@other.example' });
  owner = await app.signedIn('owner', password);
  const otherOwner = await app.signedIn('other-owner', password);
  expect(
    (await owner.post(`/organizations/${acme}/members`, { email: 'admin@resend.example', role: 'admin' })).status,
  ).toBe(201);
  expect(
    (await owner.post(`/organizations/${acme}/members`, { email: 'member@resend.example', role: 'member' })).status,
  ).toBe(201);
  expect(
    (await otherOwner.post(`/organizations/${other}/members`, { email: 'admin@other.example', role: 'admin' })).status,
  ).toBe(201);
  admin = await app.signedIn('admin', password);
  plainMember = await app.signedIn('member', password);
  otherAdmin = await app.signedIn('other-admin', password);

  const first = inbox.next();
  pending = (await owner.post(`/organizations/${acme}/members`, { email: 'grace@resend.example', role: 'member' }))
    .body;
  await first;
  const second = inbox.next();
  pendingOwner = (await owner.post(`/organizations/${acme}/members`, { email: 'olga@resend.example', role: 'owner' }))
    .body;
  await second;
  await invited(pendingOwner.position);
}, 60_000);

afterAll(async () => {
  await app.close();
  await inbox.close();
});

describe('POST /organizations/:id/members/:userId/invitation', () => {
  it('mails the invitation again with a new link that works, and records InvitationResent under the request', async () => {
    const mail = inbox.next();
    const answer = await owner.post(
      `/organizations/${acme}/members/${pending.userId}/invitation`,
      {},
      { headers: { 'x-correlation-id': 'resend-grace-1' } },
    );

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: acme, revision: expect.any(Number), position: expect.any(Number) });
    const received = await mail;
    expect(received.to).toEqual(['grace@resend.example']);
    expect(unfolded(received)).toContain('owner@resend.example added you to Resend');
    expect((await app.browser().get(`/invitations/${linkIn(received)}`)).body).toMatchObject({
      email: 'grace@resend.example',
      organizationName: 'Resend',
    });

    const history = await owner.get(
      `/organizations/${acme}/history/events?limit=1&minPosition=${String(answer.body.position)}`,
    );
    expect(history.body.entries[0]).toMatchObject({
      type: 'InvitationResent',
      description: 'Invitation sent again: grace@resend.example',
      correlationId: expect.stringMatching(/^user:[^:]+:resend-grace-1$/),
    });
  });

  it('refuses, and mails nothing, for a member of another organization asked through the asker’s own (404)', async () => {
    const before = inbox.received.length;
    const answer = await resend(otherAdmin, other, pending.userId);
    expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    const crossed = await resend(otherAdmin, acme, pending.userId);
    expect(crossed.status).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(inbox.received.length).toBe(before);
  });

  it('refuses a plain member (403) and an admin asking for an owner’s invitation (403), mailing nothing', async () => {
    const before = inbox.received.length;
    const byMember = await resend(plainMember, acme, pending.userId);
    expect({ status: byMember.status, code: byMember.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    const forOwner = await resend(admin, acme, pendingOwner.userId);
    const refused = { status: forOwner.status, code: forOwner.body.code, requires: forOwner.body.requires };
    expect(refused).toEqual({ status: 403, code: 'FORBIDDEN', requires: 'owner' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(inbox.received.length).toBe(before);
  });

  it('refuses someone who has an account (409 ALREADY_REGISTERED), mailing nothing', async () => {
    const before = inbox.received.length;
    const answer = await resend(admin, acme, knownUserId);
    expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 409, code: 'ALREADY_REGISTERED' });
    expect(inbox.received.length).toBe(before);
  });

  it('mails one person no more than any invitation from this organization allows: 3 an hour, then 429 RATE_LIMITED and nothing recorded', async () => {
    // Grace has had 2 from this organization (the add's, the first resend): 1 more goes, the next is refused.
    for (let sent = 0; sent < 1; sent += 1) {
      const mail = inbox.next();
      expect((await resend(admin, acme, pending.userId)).status).toBe(200);
      await mail;
    }
    const before = inbox.received.length;
    const head = await app.store.headPosition();
    const refused = await resend(admin, acme, pending.userId);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(inbox.received.length).toBe(before);
    expect(await app.store.headPosition()).toBe(head);
  });
});
