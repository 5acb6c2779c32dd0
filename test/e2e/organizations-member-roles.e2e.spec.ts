// PATCH /organizations/:id/members/:userId {role}: ChangeMemberRole end to end, for API keys with
// organizations:write and for the organization's own owners and admins, with the domain's refusals.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommandBus } from '@nestjs/cqrs';
import { newCommandContext } from '#application';
import { AddMemberCommand } from '#api';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { expectRefusal, organizationEvents } from '../support/organization-setup.js';

const password = 'correct horse battery staple';
let app: AuthApp;
let api: HttpClient;
let keyId: string;
let organizationId: string;
const users = new Map<string, string>();
const browsers = new Map<string, Browser>();

const member = (name: string): string => users.get(name) as string;
const as = (name: string): Browser => browsers.get(name) as Browser;
const changeRole = (userId: string, body: unknown, client: HttpClient = api) =>
  client.request('PATCH', `/organizations/${organizationId}/members/${userId}`, { json: body });

beforeAll(async () => {
  app = await startAuthApp({ LOG_LEVEL: 'silent' });
  const key = await createApiKey(app.app, ['organizations:read', 'organizations:write']);
  keyId = key.slice(5, 29);
  api = httpClient(app.baseUrl, { apiKey: key });
  for (const name of ['olga', 'adam', 'mia', 'ned'])
    users.set(name, await app.createUser({ email: `${name}@roles.example`, username: name, password }));
  organizationId = await app.createOrganization('Roles Ltd', { userId: member('olga'), email: 'olga@roles.example' });
  const commands = app.app.get(CommandBus);
  for (const [name, role] of [
    ['adam', 'admin'],
    ['mia', 'member'],
    ['ned', 'member'],
  ] as const) {
    await commands.execute(
      new AddMemberCommand(
        organizationId,
        { email: `${name}@roles.example`, role, userId: member(name) },
        newCommandContext('cli'),
      ),
    );
  }
  for (const name of ['olga', 'adam', 'mia']) {
    const browser = app.browser();
    await browser.open('/login');
    expect((await browser.post('/login', { username: name, password })).status).toBe(204);
    browsers.set(name, browser);
  }
}, 60_000);

afterAll(async () => {
  await app.close();
});

describe('PATCH /organizations/:id/members/:userId', () => {
  it('changes the role: 200 {id, revision, position}, MemberRoleChanged with the address and the role it replaces', async () => {
    const changed = await changeRole(member('ned'), { role: 'admin' });

    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ id: organizationId, revision: expect.any(Number), position: expect.any(Number) });
    const event = (await organizationEvents(app.store, organizationId)).at(-1);
    expect(event).toMatchObject({
      type: 'MemberRoleChanged',
      data: { userId: member('ned'), email: 'ned@roles.example', role: 'admin', previousRole: 'member' },
      metadata: { actor: `api-key:${keyId}`, commandType: 'ChangeMemberRole' },
      revision: BigInt(changed.body.revision),
    });
    const view = await api.get(`/organizations/${organizationId}?minPosition=${changed.body.position}`);
    expect(view.body.members).toContainEqual({
      userId: member('ned'),
      email: 'ned@roles.example',
      role: 'admin',
      chorusUser: false,
      invited: true,
    });
  });

  it('records nothing when the member already has the role, and answers where the organization stands', async () => {
    const before = await organizationEvents(app.store, organizationId);

    const same = await changeRole(member('adam'), { role: 'admin' });

    expect(same.status).toBe(200);
    expect(same.body).toEqual({
      id: organizationId,
      revision: Number(before.at(-1)?.revision),
      position: Number(before.at(-1)?.position),
    });
    expect(await organizationEvents(app.store, organizationId)).toEqual(before);
  });

  it('refuses someone who is not a member (404 NOT_FOUND) and demoting the last owner (409 LAST_OWNER), recording nothing', async () => {
    const unknown = await expectRefusal(
      app.store,
      organizationId,
      () => changeRole('nobody', { role: 'admin' }),
      404,
      'NOT_FOUND',
    );
    expect(unknown.body).toMatchObject({ entity: 'member', userId: 'nobody' });
    const lastOwner = await expectRefusal(
      app.store,
      organizationId,
      () => changeRole(member('olga'), { role: 'admin' }),
      409,
      'LAST_OWNER',
    );
    expect(lastOwner.body).toMatchObject({ userId: member('olga') });
  });

  it('refuses a role that does not exist, other fields and a malformed user id (400 VALIDATION_FAILED)', async () => {
    await expectRefusal(
      app.store,
      organizationId,
      () => changeRole(member('mia'), { role: 'boss' }),
      400,
      'VALIDATION_FAILED',
    );
    await expectRefusal(
      app.store,
      organizationId,
      () => changeRole(member('mia'), { role: 'admin', email: 'x@roles.example' }),
      400,
      'VALIDATION_FAILED',
    );
    await expectRefusal(app.store, organizationId, () => changeRole(member('mia'), {}), 400, 'VALIDATION_FAILED');
    await expectRefusal(
      app.store,
      organizationId,
      () => changeRole('not an id', { role: 'admin' }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('needs organizations:write from an API key (403 FORBIDDEN) and a credential at all (401)', async () => {
    const readOnly = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, ['organizations:read']) });
    await expectRefusal(
      app.store,
      organizationId,
      () => changeRole(member('mia'), { role: 'admin' }, readOnly),
      403,
      'FORBIDDEN',
    );
    await expectRefusal(
      app.store,
      organizationId,
      () => changeRole(member('mia'), { role: 'admin' }, httpClient(app.baseUrl)),
      401,
      'UNAUTHENTICATED',
    );
  });

  it("lets the organization's owners and admins change roles, with themselves as the actor; a plain member may not", async () => {
    const byAdmin = await as('adam').request('PATCH', `/organizations/${organizationId}/members/${member('mia')}`, {
      json: { role: 'admin' },
    });
    expect(byAdmin.status).toBe(200);
    expect((await organizationEvents(app.store, organizationId)).at(-1)?.metadata).toMatchObject({
      actor: `user:${member('adam')}`,
    });

    const byOwner = await as('olga').request('PATCH', `/organizations/${organizationId}/members/${member('mia')}`, {
      json: { role: 'member' },
    });
    expect(byOwner.status).toBe(200);

    const before = await organizationEvents(app.store, organizationId);
    const byMember = await as('mia').request('PATCH', `/organizations/${organizationId}/members/${member('ned')}`, {
      json: { role: 'member' },
    });
    expect({ status: byMember.status, code: byMember.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect(await organizationEvents(app.store, organizationId)).toEqual(before);
  });
});
