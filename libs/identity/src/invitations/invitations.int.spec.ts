// Invitations: a member added by an address nobody registered is mailed a single-use link, valid 7 days,
// that registers them with a password of their choosing and signs them in.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { context, openIdentityFixture, type IdentityFixture } from '../testing/identity-fixture.js';
import { userStream, invitationStream } from '#domain';
import { InvitationClaimedElsewhere, InvitationDelayed } from './invitations.js';

const password = 'a passphrase of my own';
let fixture: IdentityFixture;

beforeEach(async () => {
  fixture = await openIdentityFixture();
});
afterEach(async () => {
  await fixture.close();
});

const addedBy = context({ actor: 'user:owner-1', correlationId: 'add-member-7' });

/**
 * What the API does when an owner adds grace@example.com: reserve the address's id, then (its reaction to MemberAdded)
 * invite.
 */
async function addGrace(email = 'Grace@Example.com', memberAddedEventId: string = randomUUID()) {
  const userId = await fixture.identity.directory.userIdForEmail(email, addedBy);
  const outcome = await inviteFor(userId, email, memberAddedEventId);
  return { userId, outcome };
}

const inviteFor = (
  userId: string,
  email: string,
  memberAddedEventId: string,
  identity = fixture.identity,
  organizationId = 'org-1',
) =>
  identity.invitations.invite(
    { userId, email, organizationId, organizationName: 'Acme', invitedBy: 'owner@acme.example', memberAddedEventId },
    addedBy,
  );

function tokenFromMail(index = 0): string {
  const text = fixture.mail.sent[index]?.text ?? '';
  const match = /https:\/\/chorus\.example\/invite\/([A-Za-z0-9_-]+)/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no invitation link in: ${text}`);
  return match[1];
}

async function eventsOf(streamId: string) {
  const read = await fixture.store.readStream(streamId);
  return read.found ? read.events : [];
}

describe('inviting', () => {
  it('mails a link to PUBLIC_URL/invite/<token> saying who invited to what, and records only the hash, audited', async () => {
    const { userId, outcome } = await addGrace();

    expect(outcome).toBe('sent');
    expect(fixture.mail.sent).toEqual([
      {
        to: 'Grace@Example.com',
        subject: 'You are invited to Acme on Chorus',
        text: expect.stringContaining('owner@acme.example added you to Acme on Chorus.'),
      },
    ]);
    expect(fixture.mail.sent[0]?.text).toContain('within 7 days');
    const [sent] = await eventsOf(invitationStream(userId));
    expect(sent?.type).toBe('InvitationSent');
    expect(sent?.data).toEqual({
      organizationId: 'org-1',
      organizationName: 'Acme',
      email: 'Grace@Example.com',
      tokenHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      expiresAt: '2030-01-08T09:00:00.000Z',
      at: '2030-01-01T09:00:00.000Z',
      memberAddedEventId: expect.any(String),
      sender: 'node-a',
    });
    expect(JSON.stringify([sent?.data, sent?.metadata])).not.toContain(tokenFromMail());
    expect(sent?.metadata).toMatchObject({ actor: 'user:owner-1', correlationId: 'add-member-7' });
  });

  it('tells a person who has an account that they were added, without a link, once per MemberAdded', async () => {
    await fixture.identity.registration.register({ email: 'grace@example.com', password }, context({ actor: 'cli' }));
    const memberAdded = randomUUID();
    const { userId, outcome } = await addGrace('grace@example.com', memberAdded);
    expect(outcome).toBe('notified');
    const text = expect.stringContaining('owner@acme.example added you to Acme on Chorus.');
    expect(fixture.mail.sent).toEqual([{ to: 'grace@example.com', subject: 'You were added to Acme on Chorus', text }]);
    expect(fixture.mail.sent[0]?.text).toContain('https://chorus.example/login');
    expect(fixture.mail.sent[0]?.text).not.toContain('/invite/');
    expect(await inviteFor(userId, 'grace@example.com', memberAdded)).toBe('duplicate');
    expect((await eventsOf(invitationStream(userId))).map((event) => event.type)).toEqual([
      'MembershipNoticeSent',
      'InvitationMailed',
    ]);
  });

  it('mails one person at most 3 times an hour from one organization; the next waits for the hour, and other organizations are not held', async () => {
    const outcomes = [];
    for (let index = 0; index < 3; index += 1) outcomes.push((await addGrace()).outcome);
    expect(outcomes).toEqual(['sent', 'sent', 'sent']);
    const userId = await fixture.identity.directory.userIdForEmail('Grace@Example.com', addedBy);
    const waiting = randomUUID();
    const delayed = await inviteFor(userId, 'Grace@Example.com', waiting).catch((error: unknown) => error);
    expect(delayed).toBeInstanceOf(InvitationDelayed);
    expect((delayed as InvitationDelayed).until.toISOString()).toBe('2030-01-01T10:00:00.000Z');
    // Nothing recorded for it: asked again later, it is sent then.
    expect((await eventsOf(invitationStream(userId))).filter((event) => event.type === 'InvitationSent')).toHaveLength(
      3,
    );
    expect(await inviteFor(userId, 'Grace@Example.com', randomUUID(), fixture.identity, 'org-2')).toBe('sent');
    fixture.clock.advance(60 * 60_000);
    expect(await inviteFor(userId, 'Grace@Example.com', waiting)).toBe('sent');
    expect(fixture.mail.sent).toHaveLength(5);
  });

  it.each([
    [
      'the mailer refuses the address itself',
      Object.assign(new Error('Not one plain e-mail address'), { code: 'EENVELOPE' }),
      { reason: 'address_refused' },
    ],
    [
      'the mail server refuses it for good',
      Object.assign(new Error('550 no such user'), { code: 'EENVELOPE', responseCode: 550 }),
      { reason: 'mail_server_refused', responseCode: 550 },
    ],
  ])('records InvitationFailed when %s, spends its link and never mails it again', async (_, refusal, why) => {
    const memberAdded = randomUUID();
    const userId = await fixture.identity.directory.userIdForEmail('grace@example.com', addedBy);
    const send = fixture.mail.send.bind(fixture.mail);
    const tried: string[] = [];
    fixture.mail.send = (message) => {
      tried.push(message.text);
      return Promise.reject(refusal);
    };
    expect(await inviteFor(userId, 'grace@example.com', memberAdded)).toBe('failed');
    fixture.mail.send = send;
    expect(await inviteFor(userId, 'grace@example.com', memberAdded, fixture.secondNode())).toBe('duplicate');
    expect(fixture.mail.sent).toEqual([]);
    const events = await eventsOf(invitationStream(userId));
    expect(events.map((event) => event.type)).toEqual(['InvitationSent', 'InvitationFailed']);
    const failure = { organizationId: 'org-1', email: 'grace@example.com', ...why, at: '2030-01-01T09:00:00.000Z' };
    expect(events[1]?.data).toEqual({ tokenHash: (events[0]?.data as { tokenHash: string }).tokenHash, ...failure });
    const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(tried[0] ?? '')?.[1] ?? '';
    await expect(fixture.identity.invitations.describe(token)).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    expect(await fixture.identity.invitations.undelivered('org-1', [userId, 'someone-else'])).toEqual([
      { userId, ...failure },
    ]);
    expect(await fixture.identity.invitations.undelivered('org-2', [userId])).toEqual([]);
    // A later mail of the same organization that goes out clears it.
    await inviteFor(userId, 'grace@example.com', randomUUID());
    expect(await fixture.identity.invitations.undelivered('org-1', [userId])).toEqual([]);
  });
});

describe('inviting again for the same MemberAdded (a reaction delivers at least once)', () => {
  it('records and mails nothing more once the invitation was mailed', async () => {
    const memberAdded = randomUUID();
    const { userId } = await addGrace('grace@example.com', memberAdded);
    expect(await inviteFor(userId, 'grace@example.com', memberAdded)).toBe('duplicate');
    expect(await inviteFor(userId, 'grace@example.com', memberAdded, fixture.secondNode())).toBe('duplicate');

    expect(fixture.mail.sent).toHaveLength(1);
    expect((await eventsOf(invitationStream(userId))).map((event) => event.type)).toEqual([
      'InvitationSent',
      'InvitationMailed',
    ]);
    // Another MemberAdded (removed and added again) is another invitation.
    expect((await addGrace('grace@example.com')).outcome).toBe('sent');
    expect(fixture.mail.sent).toHaveLength(2);
  });

  it('mails the same link again when its sender stopped between recording it and InvitationMailed: at once on the same node restarted, after its claim on another', async () => {
    const memberAdded = randomUUID();
    const userId = await fixture.identity.directory.userIdForEmail('grace@example.com', addedBy);
    const failing = new Error('the process died here');
    const send = fixture.mail.send.bind(fixture.mail);
    fixture.mail.send = () => Promise.reject(failing);
    await expect(inviteFor(userId, 'grace@example.com', memberAdded)).rejects.toBe(failing);
    fixture.mail.send = send;
    expect((await eventsOf(invitationStream(userId))).map((event) => event.type)).toEqual(['InvitationSent']);

    // Another node, while node-a's claim holds (60 s): it may still be sending; nothing recorded, nothing mailed.
    const other = fixture.secondNode('node-b');
    fixture.clock.advance(59_000);
    await expect(inviteFor(userId, 'grace@example.com', memberAdded, other)).rejects.toBeInstanceOf(
      InvitationClaimedElsewhere,
    );
    expect(fixture.mail.sent).toEqual([]);
    // node-a restarted knows its own: it mails at once the link it recorded, claiming it anew as its claim is half
    // gone.
    expect(await inviteFor(userId, 'grace@example.com', memberAdded, fixture.secondNode('node-a'))).toBe('resent');
    expect(await inviteFor(userId, 'grace@example.com', memberAdded, other)).toBe('duplicate');
    expect(fixture.mail.sent).toHaveLength(1);
    expect((await eventsOf(invitationStream(userId))).map((event) => event.type)).toEqual([
      'InvitationSent',
      'InvitationMailClaimed',
      'InvitationMailed',
    ]);
    await expect(fixture.identity.invitations.describe(tokenFromMail())).resolves.toMatchObject({
      email: 'grace@example.com',
    });
  });

  it('sends again under its own young claim without recording a claim (a retry, or a restart moments later)', async () => {
    const memberAdded = randomUUID();
    const userId = await fixture.identity.directory.userIdForEmail('grace@example.com', addedBy);
    const send = fixture.mail.send.bind(fixture.mail);
    fixture.mail.send = () => Promise.reject(new Error('not now'));
    await expect(inviteFor(userId, 'grace@example.com', memberAdded)).rejects.toThrow('not now');
    fixture.mail.send = send;
    fixture.clock.advance(29_000);
    expect(await inviteFor(userId, 'grace@example.com', memberAdded, fixture.secondNode('node-a'))).toBe('resent');
    expect((await eventsOf(invitationStream(userId))).map((event) => event.type)).toEqual([
      'InvitationSent',
      'InvitationMailed',
    ]);
  });

  it("lets another node take a mail over once its holder's claim ran out, and one node only when several try at once", async () => {
    const memberAdded = randomUUID();
    const userId = await fixture.identity.directory.userIdForEmail('grace@example.com', addedBy);
    const send = fixture.mail.send.bind(fixture.mail);
    fixture.mail.send = () => Promise.reject(new Error('node-a died while sending'));
    await expect(inviteFor(userId, 'grace@example.com', memberAdded)).rejects.toThrow('node-a died');
    fixture.mail.send = send;

    fixture.clock.advance(60_000);
    const nodes = ['node-b', 'node-c', 'node-d', 'node-e'].map((name) => fixture.secondNode(name));
    const outcomes = await Promise.allSettled(
      nodes.map((node) => inviteFor(userId, 'grace@example.com', memberAdded, node)),
    );
    const taken = outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value === 'resent');
    expect(taken).toHaveLength(1);
    // The others saw the winner's fresh claim, or the mail already recorded as sent.
    for (const outcome of outcomes.filter(
      (candidate) => !(candidate.status === 'fulfilled' && candidate.value === 'resent'),
    )) {
      if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(InvitationClaimedElsewhere);
      else expect(outcome.value).toBe('duplicate');
    }
    expect(fixture.mail.sent).toHaveLength(1);
    const events = await eventsOf(invitationStream(userId));
    expect(events.map((event) => event.type)).toEqual(['InvitationSent', 'InvitationMailClaimed', 'InvitationMailed']);
    expect(events[0]?.data).toMatchObject({ sender: 'node-a' });
    expect(events[1]?.data).toMatchObject({ sender: expect.stringMatching(/^node-[b-e]$/) });
    // node-a, back, finds it mailed.
    expect(await inviteFor(userId, 'grace@example.com', memberAdded)).toBe('duplicate');
  });
});

describe('accepting', () => {
  it('shows the address and the organization, then registers the person under the reserved id and signs them in', async () => {
    const { userId } = await addGrace();
    const token = tokenFromMail();

    expect(await fixture.identity.invitations.describe(token)).toEqual({
      email: 'Grace@Example.com',
      organizationName: 'Acme',
      expiresAt: '2030-01-08T09:00:00.000Z',
      userId,
      organizationId: 'org-1',
    });
    const opened = await fixture.identity.invitations.accept(token, password, context());

    expect(opened.session).toMatchObject({ userId, method: 'invitation' });
    expect(await fixture.identity.sessions.resolve(opened.cookieValue)).toMatchObject({ userId });
    const [registered] = await eventsOf(userStream(userId));
    expect(registered?.data).toMatchObject({ userId, email: 'grace@example.com', invited: true });
    expect(registered?.metadata).toMatchObject({ actor: `user:${userId}` });
    expect((await eventsOf(invitationStream(userId))).map((event) => event.type)).toEqual([
      'InvitationSent',
      'InvitationMailed',
      'InvitationAccepted',
    ]);
    await expect(
      fixture.identity.passwordSignIn.signIn({ username: 'grace@example.com', password }, context()),
    ).resolves.toMatchObject({ session: { userId } });
  });

  it('works once: the link, and every other invitation of the person, are spent', async () => {
    await addGrace();
    await addGrace();
    await fixture.identity.invitations.accept(tokenFromMail(0), password, context());

    for (const token of [tokenFromMail(0), tokenFromMail(1)]) {
      await expect(fixture.identity.invitations.describe(token)).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
      await expect(fixture.identity.invitations.accept(token, 'another passphrase', context())).rejects.toMatchObject({
        code: 'INVALID_TOKEN',
      });
    }
  });

  it('lets exactly one of ten simultaneous uses through', async () => {
    const { userId } = await addGrace();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) =>
        fixture.identity.invitations.accept(tokenFromMail(), `passphrase number ${index}`, context()),
      ),
    );

    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes)
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await eventsOf(userStream(userId))).filter((event) => event.type === 'UserRegistered')).toHaveLength(1);
  });

  it('is refused after 7 days, and for tokens that are not ours', async () => {
    await addGrace();
    fixture.clock.advance(7 * 24 * 3_600_000);
    await expect(fixture.identity.invitations.accept(tokenFromMail(), password, context())).rejects.toMatchObject({
      code: 'INVALID_TOKEN',
    });
    await expect(fixture.identity.invitations.describe('not-a-token')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('refuses a password the policy refuses, keeping the link usable', async () => {
    await addGrace();
    await expect(fixture.identity.invitations.accept(tokenFromMail(), 'short', context())).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The password must be at least 8 characters long.',
    });
    await expect(
      fixture.identity.invitations.accept(tokenFromMail(), 'grace@example.com', context()),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(fixture.identity.invitations.accept(tokenFromMail(), password, context())).resolves.toBeDefined();
  });

  it('is refused once the person registered another way (Google)', async () => {
    await addGrace();
    expect(await fixture.identity.registration.registerInvited('grace@example.com', context({ actor: 'google' }))).toBe(
      true,
    );
    await expect(fixture.identity.invitations.accept(tokenFromMail(), password, context())).rejects.toMatchObject({
      code: 'INVALID_TOKEN',
    });
  });
});
