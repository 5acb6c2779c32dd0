// Invitation mail that one bad address, one slow mailbox or one organization cannot stop (docs/service.md,
// Invitations): over HTTP, with the real reaction and a real SMTP server (smtp-server) that refuses chosen
// recipients, for good (550) or for now (451). Every test here is an attack that got through before.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommandBus } from '@nestjs/cqrs';
import { newCommandContext } from '#application';
import { type RecordedEvent } from '#event-store';
import { invitationStream } from '#domain';
import { AddMemberCommand, ChangeOrganizationCommand, CreateOrganizationCommand } from '#api';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { SmtpInbox, unfolded } from '../support/smtp-inbox.js';

const password = 'correct horse battery staple';
let inbox: SmtpInbox;
let app: AuthApp;
let ownerId: string;
let owner: Browser;

beforeAll(async () => {
  inbox = await SmtpInbox.start();
  app = await startAuthApp({ SMTP_URL: inbox.url, PUBLIC_URL: 'https://chorus.example', LOG_LEVEL: 'silent' });
  ownerId = await app.createUser({ email: 'owner@delivery.example', username: 'owner', password });
  owner = await app.signedIn('owner', password);
});

afterAll(async () => {
  await app.close();
  await inbox.close();
});

const cli = () => newCommandContext('cli');

/** An organization without a users limit (Classic Professional), owned by `owner`. */
async function organization(name: string): Promise<string> {
  const commands = app.app.get(CommandBus);
  const { id } = await commands.execute(new CreateOrganizationCommand({ name }, cli()));
  await commands.execute(
    new ChangeOrganizationCommand(id, { type: 'AssignPlan', data: { line: 'classic', plan: 'professional' } }, cli()),
  );
  await commands.execute(
    new AddMemberCommand(id, { email: 'owner@delivery.example', role: 'owner', userId: ownerId }, cli()),
  );
  return id;
}

const add = (organizationId: string, email: string) =>
  owner.post(`/organizations/${organizationId}/members`, { email, role: 'member' });

const mailsTo = (address: string) => inbox.received.filter((mail) => mail.to.includes(address));

async function eventually(what: string, probe: () => boolean | Promise<boolean>, deadlineMs = 20_000): Promise<void> {
  const giveUpAt = Date.now() + deadlineMs;
  while (!(await probe())) {
    if (Date.now() > giveUpAt) throw new Error(`not within ${deadlineMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function invitationEvents(userId: string): Promise<RecordedEvent[]> {
  const read = await app.store.readStream(invitationStream(userId));
  return read.found ? read.events : [];
}

describe('a member address the mailer would read otherwise', () => {
  it.each([
    ['a trailing colon (a group)', 'a@x:'],
    ['a NUL', 'ad\u0000a@delivery.example'],
    ['an escape', 'ad\u001ba@delivery.example'],
    ['a C1 control', 'ad\u0085a@delivery.example'],
    ['a zero-width space', 'ad\u200ba@delivery.example'],
    ['a zero-width joiner', 'ada@deli\u200dvery.example'],
    ['a right-to-left override', 'ada@\u202eelpmaxe.com'],
    ['a bidi isolate', 'ada\u2066@delivery.example'],
    ['a comma', 'a,b@x'],
    ['angle brackets', 'x<y@z>'],
  ])('is refused with 400 and records nothing: %s', async (_, email) => {
    const organizationId = await organization('Forms');
    const head = await app.store.headPosition();
    const answer = await add(organizationId, email);
    expect({
      status: answer.status,
      type: answer.headers.get('content-type'),
      code: answer.body.code,
      detail: answer.body.detail,
    }).toEqual({
      status: 400,
      type: expect.stringContaining('application/problem+json'),
      code: 'VALIDATION_FAILED',
      detail:
        'Enter one e-mail address, such as name@example.com, without spaces, commas, quotes, angle brackets or hidden characters.',
    });
    expect(await app.store.headPosition()).toBe(head);
  });
});

describe('a mail refused for good', () => {
  it('leaves the 69 other invitations of 70 across organizations mailed, and is recorded failed and shown to the owner', async () => {
    const organizations = await Promise.all(Array.from({ length: 7 }, (_, index) => organization(`Seventy ${index}`)));
    // An address recorded before addresses were checked as the mailer reads them: the mailer refuses it itself.
    const legacyUserId = randomUUID();
    const first = organizations[0] ?? '';
    const stream = `organization-${first}`;
    const read = await app.store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    const revision = read.found ? (read.events[0]?.revision ?? 0n) : 0n;
    const legacyMetadata = { actor: 'cli', correlationId: randomUUID(), causationId: randomUUID(), invitation: 'owed' };
    const legacyData = { userId: legacyUserId, email: 'a@x:', role: 'member', chorusUser: false };
    await app.store.append(
      stream,
      [{ id: randomUUID(), type: 'MemberAdded', data: legacyData, metadata: legacyMetadata }],
      revision,
    );
    const emails = Array.from({ length: 70 }, (_, index) => `seventy-${index}@delivery.example`);
    // The second of them has no mailbox: the mail server refuses it at RCPT TO (550).
    inbox.refusedRecipients.set('seventy-1@delivery.example', 550);
    const answers = [];
    for (const [index, email] of emails.entries()) answers.push(await add(organizations[index % 7] ?? '', email));
    expect(answers.map((answer) => answer.status)).toEqual(emails.map(() => 201));

    const others = emails.filter((email) => email !== 'seventy-1@delivery.example');
    await eventually('an invitation to each of the 69 others', () =>
      others.every((email) => mailsTo(email).length === 1),
    );
    expect(mailsTo('seventy-1@delivery.example')).toEqual([]);
    expect(inbox.recipientAttempts.get('seventy-1@delivery.example')).toBe(1);
    await eventually('both refusals recorded', async () =>
      (await invitationEvents(legacyUserId)).some((event) => event.type === 'InvitationFailed'),
    );
    const refusedId = answers[1]?.body.userId as string;
    await eventually('the 550 recorded', async () =>
      (await invitationEvents(refusedId)).some((event) => event.type === 'InvitationFailed'),
    );
    expect(
      (await invitationEvents(legacyUserId)).map((event) => [event.type, (event.data as { reason?: string }).reason]),
    ).toEqual([
      ['InvitationSent', undefined],
      ['InvitationFailed', 'address_refused'],
    ]);
    const refusal = { email: 'seventy-1@delivery.example', reason: 'mail_server_refused', responseCode: 550 };
    expect((await invitationEvents(refusedId)).at(-1)?.data).toMatchObject(refusal);

    // Shown to those who manage the members: the organization of each refused address, and no other.
    const shown = await owner.get(`/organizations/${first}/members/invitation-failures`);
    expect(shown.body.failures).toEqual([
      { userId: legacyUserId, email: 'a@x:', reason: 'address_refused', at: expect.any(String) },
    ]);
    const second = await owner.get(`/organizations/${organizations[1] ?? ''}/members/invitation-failures`);
    expect(second.body.failures).toEqual([{ userId: refusedId, ...refusal, at: expect.any(String) }]);
    expect(
      (await owner.get(`/organizations/${organizations[2] ?? ''}/members/invitation-failures`)).body.failures,
    ).toEqual([]);
  }, 60_000);

  it('is not shown to a member who does not manage members', async () => {
    const organizationId = await organization('Readers');
    await app.createUser({ email: 'reader@delivery.example', username: 'reader', password });
    expect((await add(organizationId, 'reader@delivery.example')).status).toBe(201);
    const reader = await app.signedIn('reader', password);
    expect((await reader.get(`/organizations/${organizationId}/members/invitation-failures`)).status).toBe(403);
  });
});

describe('a mail the mail server cannot take for now', () => {
  it('is tried again aside while the invitations after it (more than are handled at once) go out, and then once', async () => {
    const organizationId = await organization('Busy');
    inbox.refusedRecipients.set('busy-0@delivery.example', 451);
    const emails = Array.from({ length: 80 }, (_, index) => `busy-${index}@delivery.example`);
    for (const email of emails) expect((await add(organizationId, email)).status).toBe(201);
    await eventually('the 79 after it mailed', () => emails.slice(1).every((email) => mailsTo(email).length === 1));
    await eventually(
      'the refused one tried again',
      () => (inbox.recipientAttempts.get('busy-0@delivery.example') ?? 0) >= 2,
    );
    expect(mailsTo('busy-0@delivery.example')).toEqual([]);
    inbox.refusedRecipients.delete('busy-0@delivery.example');
    await eventually(
      'the refused one mailed once the mail server takes it',
      () => mailsTo('busy-0@delivery.example').length === 1,
    );
  }, 60_000);
});

describe("one organization's churn", () => {
  it("does not stop another organization's invitation to the same person", async () => {
    const evil = await organization('Evil');
    const demo = await organization('Demo');
    const target = 'target@delivery.example';
    for (let round = 0; round < 5; round += 1) {
      const added = await add(evil, target);
      expect(added.status).toBe(201);
      expect((await owner.delete(`/organizations/${evil}/members/${added.body.userId as string}`)).status).toBe(200);
    }
    await eventually("evil's hourly allowance for this person used", () => mailsTo(target).length >= 3);
    expect((await add(demo, target)).status).toBe(201);
    await eventually("demo's invitation mailed", () =>
      mailsTo(target).some((mail) => unfolded(mail).includes('Subject: You are invited to Demo on Chorus')),
    );
  }, 60_000);
});

describe('the add answer', () => {
  it('is the same for an address with an account and one without, and both are mailed', async () => {
    const organizationId = await organization('Same');
    await app.createUser({ email: 'has-account@delivery.example', password });
    const registered = await add(organizationId, 'has-account@delivery.example');
    const unregistered = await add(organizationId, 'no-account@delivery.example');
    // The fields, the `invitation` value, and every other value's type.
    const shape = (body: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(body).map(([key, value]) => [key, key === 'invitation' ? value : typeof value]),
      );
    expect([registered.status, shape(registered.body)]).toEqual([unregistered.status, shape(unregistered.body)]);
    expect(registered.body.invitation).toBe('pending');
    expect(String(registered.body.userId)).toMatch(/^[0-9a-f-]{36}$/);
    expect(String(unregistered.body.userId)).toMatch(/^[0-9a-f-]{36}$/);
    await eventually(
      'both mailed',
      () => mailsTo('has-account@delivery.example').length === 1 && mailsTo('no-account@delivery.example').length === 1,
    );
    expect(unfolded(mailsTo('has-account@delivery.example')[0] ?? { to: [], raw: '' })).toContain(
      'Subject: You were added to Same on Chorus',
    );
  });
});
