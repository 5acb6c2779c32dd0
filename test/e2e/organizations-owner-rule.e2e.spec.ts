// The owner rule, attacked over HTTP with real sessions: an admin who adds
// an accomplice as owner and then removes the real owner must be refused 403 FORBIDDEN at both steps,
// also when the requests arrive at once; members and auditors change nothing; auditors read.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommandBus } from '@nestjs/cqrs';
import { foldOrganization, organizationStream, type ExistingOrganization, type OrganizationEvent } from '#domain';
import { newCommandContext } from '#application';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { AddMemberCommand } from '#api';

const password = 'correct horse battery staple';
const people = ['owner', 'admin', 'member', 'auditor'] as const;
type Person = (typeof people)[number];

let app: AuthApp;
let organizationId: string;
const userIds = new Map<Person, string>();
const browsers = new Map<Person, Browser>();

const as = (person: Person): Browser => browsers.get(person) as Browser;
const idOf = (person: Person): string => userIds.get(person) as string;

async function organization(): Promise<ExistingOrganization> {
  const read = await app.store.readStream(organizationStream(organizationId));
  if (!read.found) throw new Error('no organization stream');
  return foldOrganization(
    read.events.map((event) => ({ type: event.type, data: event.data }) as OrganizationEvent),
  ) as ExistingOrganization;
}

const roles = async () =>
  Object.fromEntries((await organization()).members.toArray().map((member) => [member.email, member.role]));

beforeAll(async () => {
  app = await startAuthApp({ LOG_LEVEL: 'silent' });
  for (const person of people)
    userIds.set(person, await app.createUser({ email: `${person}@owner-rule.example`, username: person, password }));
  // A Chorus teams plan: 5 users. Four people and room for one more.
  organizationId = await app.createOrganization('Owner rule', {
    userId: idOf('owner'),
    email: 'owner@owner-rule.example',
  });
  const commands = app.app.get(CommandBus);
  for (const person of ['admin', 'member', 'auditor'] as const) {
    await commands.execute(
      new AddMemberCommand(
        organizationId,
        { email: `${person}@owner-rule.example`, role: person, userId: idOf(person) },
        newCommandContext('cli'),
      ),
    );
  }
  for (const person of people) browsers.set(person, await app.signedIn(person, password));
}, 60_000);

afterAll(async () => {
  await app.close();
});

describe('an admin taking over the organization', () => {
  it('may not add an owner: 403 FORBIDDEN, and nothing is recorded', async () => {
    const before = await app.store.readStream(organizationStream(organizationId));

    const answer = await as('admin').post(`/organizations/${organizationId}/members`, {
      email: 'accomplice@evil.example',
      role: 'owner',
    });

    expect({ status: answer.status, code: answer.body.code, requires: answer.body.requires }).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      requires: 'owner',
    });
    const after = await app.store.readStream(organizationStream(organizationId));
    expect(after.found && before.found && after.events.length).toBe(before.found ? before.events.length : -1);
  });

  it('may not remove the real owner, even with a second owner in place', async () => {
    const answer = await as('admin').delete(`/organizations/${organizationId}/members/${idOf('owner')}`);

    expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect((await roles())['owner@owner-rule.example']).toBe('owner');
  });

  it('may not promote anyone to owner, themselves included, nor demote the owner', async () => {
    for (const [userId, role] of [
      [idOf('member'), 'owner'],
      [idOf('admin'), 'owner'],
      [idOf('owner'), 'member'],
    ] as const) {
      const answer = await as('admin').request('PATCH', `/organizations/${organizationId}/members/${userId}`, {
        json: { role },
      });
      expect({ userId, role, status: answer.status, code: answer.body.code, requires: answer.body.requires }).toEqual({
        userId,
        role,
        status: 403,
        code: 'FORBIDDEN',
        requires: 'owner',
      });
    }
    expect(await roles()).toMatchObject({
      'owner@owner-rule.example': 'owner',
      'admin@owner-rule.example': 'admin',
      'member@owner-rule.example': 'member',
    });
  });

  it('gets nowhere sending every step many times at once', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 10 }, (_, index) => [
        as('admin').post(`/organizations/${organizationId}/members`, {
          email: `accomplice${index}@evil.example`,
          role: 'owner',
        }),
        as('admin').request('PATCH', `/organizations/${organizationId}/members/${idOf('admin')}`, {
          json: { role: 'owner' },
        }),
        as('admin').delete(`/organizations/${organizationId}/members/${idOf('owner')}`),
      ]).flat(),
    );

    expect(new Set(attempts.map((answer) => `${answer.status} ${answer.body.code}`))).toEqual(
      new Set(['403 FORBIDDEN']),
    );
    expect(Object.entries(await roles()).filter(([, role]) => role === 'owner')).toEqual([
      ['owner@owner-rule.example', 'owner'],
    ]);
  });
});

describe('what each role may do', () => {
  it('an admin manages admins, members and auditors', async () => {
    const added = await as('admin').post(`/organizations/${organizationId}/members`, {
      email: 'second-admin@owner-rule.example',
      role: 'admin',
    });
    expect(added.status).toBe(201);

    const removed = await as('admin').delete(`/organizations/${organizationId}/members/${added.body.userId as string}`);
    expect(removed.status).toBe(200);
  });

  it.each(['member', 'auditor'] as const)(
    'a %s changes nothing: members and sites are 403 FORBIDDEN',
    async (person) => {
      const member = await as(person).post(`/organizations/${organizationId}/members`, {
        email: 'someone@owner-rule.example',
        role: 'member',
      });
      const site = await as(person).post(`/organizations/${organizationId}/sites`, {
        name: 'Shop',
        hostname: 'shop.example.com',
      });
      const removal = await as(person).delete(`/organizations/${organizationId}/members/${idOf('member')}`);

      expect([member.status, site.status, removal.status]).toEqual([403, 403, 403]);
    },
  );

  it('an auditor reads the organization and its history; a member reads the organization only', async () => {
    expect((await as('auditor').get(`/organizations/${organizationId}`)).status).toBe(200);
    expect((await as('auditor').get(`/organizations/${organizationId}/history`)).status).toBe(200);
    expect((await as('member').get(`/organizations/${organizationId}`)).status).toBe(200);
    expect((await as('member').get(`/organizations/${organizationId}/history`)).status).toBe(403);
  });

  it('an admin changes roles below owner; an owner promotes to owner and demotes again', async () => {
    const byAdmin = await as('admin').request('PATCH', `/organizations/${organizationId}/members/${idOf('member')}`, {
      json: { role: 'auditor' },
    });
    expect(byAdmin.status).toBe(200);
    await as('admin').request('PATCH', `/organizations/${organizationId}/members/${idOf('member')}`, {
      json: { role: 'member' },
    });

    const promoted = await as('owner').request('PATCH', `/organizations/${organizationId}/members/${idOf('admin')}`, {
      json: { role: 'owner' },
    });
    const demoted = await as('owner').request('PATCH', `/organizations/${organizationId}/members/${idOf('admin')}`, {
      json: { role: 'admin' },
    });
    expect([promoted.status, demoted.status]).toEqual([200, 200]);
  });

  it('an owner adds an owner, and one owner removes the other', async () => {
    const added = await as('owner').post(`/organizations/${organizationId}/members`, {
      email: 'co-owner@owner-rule.example',
      role: 'owner',
    });
    expect(added.status).toBe(201);

    const removed = await as('owner').delete(`/organizations/${organizationId}/members/${added.body.userId as string}`);
    expect(removed.status).toBe(200);
  });

  it('the auditor took a seat: with four people and the room for one, a fifth fits and a sixth is LIMIT_EXCEEDED', async () => {
    const fifth = await as('owner').post(`/organizations/${organizationId}/members`, {
      email: 'fifth@owner-rule.example',
      role: 'auditor',
    });
    const sixth = await as('owner').post(`/organizations/${organizationId}/members`, {
      email: 'sixth@owner-rule.example',
      role: 'member',
    });

    expect(fifth.status).toBe(201);
    expect({ status: sixth.status, code: sixth.body.code, limit: sixth.body.limit, count: sixth.body.count }).toEqual({
      status: 409,
      code: 'LIMIT_EXCEEDED',
      limit: 5,
      count: 5,
    });
  });
});
