// Signed-in auditors: an organization's owners and admins may read its history and state;
// its other members, and people of other organizations, may not; correlations need an audit:read key.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommandBus } from '@nestjs/cqrs';
import { AddMemberCommand } from '#api';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';

const password = 'correct horse battery staple';
let app: AuthApp;
let organizationId: string;
let otherOrganizationId: string;
const browsers = new Map<string, Browser>();

beforeAll(async () => {
  app = await startAuthApp({ LOG_LEVEL: 'silent' });
  const [owner, admin, member, stranger] = await Promise.all(
    ['owner', 'admin', 'member', 'stranger'].map((name) =>
      app.createUser({ email: `${name}@audit.example`, username: name, password }),
    ),
  );
  organizationId = await app.createOrganization('Audited by its owners', {
    userId: owner as string,
    email: 'owner@audit.example',
  });
  otherOrganizationId = await app.createOrganization('Someone else', {
    userId: stranger as string,
    email: 'stranger@audit.example',
  });
  const context = { actor: 'cli', correlationId: randomUUID(), causationId: randomUUID(), origin: {} };
  const commands = app.app.get(CommandBus);
  await commands.execute(
    new AddMemberCommand(
      organizationId,
      { email: 'admin@audit.example', role: 'admin', userId: admin as string },
      context,
    ),
  );
  await commands.execute(
    new AddMemberCommand(
      organizationId,
      { email: 'member@audit.example', role: 'member', userId: member as string },
      context,
    ),
  );
  for (const name of ['owner', 'admin', 'member', 'stranger']) browsers.set(name, await app.signedIn(name, password));
}, 60_000);

afterAll(async () => {
  await app.close();
});

const as = (name: string): Browser => browsers.get(name) as Browser;

describe.each(['history', 'state'])('GET /organizations/:id/%s with a session', (route) => {
  it.each(['owner', 'admin'])('an %s of the organization may read it', async (name) => {
    expect((await as(name).get(`/organizations/${organizationId}/${route}`)).status).toBe(200);
  });

  it('a plain member may not: 403 FORBIDDEN', async () => {
    const answer = await as('member').get(`/organizations/${organizationId}/${route}`);

    expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
  });

  it('an owner of another organization may not: 403 FORBIDDEN, and may read their own', async () => {
    expect((await as('stranger').get(`/organizations/${organizationId}/${route}`)).status).toBe(403);
    expect((await as('stranger').get(`/organizations/${otherOrganizationId}/${route}`)).status).toBe(200);
  });
});

describe('GET /audit/correlations/:id with a session', () => {
  it('even an owner may not follow a correlation (it may span organizations): 403', async () => {
    const history = await as('owner').get(`/organizations/${organizationId}/history`);
    const correlationId = history.body.events[0].metadata.correlationId as string;

    expect((await as('owner').get(`/audit/correlations/${correlationId}`)).status).toBe(403);
  });
});
