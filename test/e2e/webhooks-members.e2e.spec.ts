// A member's own events reach their organization's webhooks (docs/webhooks.md, Members' own events): sign-ins that
// succeed or fail, second factors added and removed, sessions ended; merged with the organization's events in the
// log's order, each with the person's own event id. Only while the person is a member, and only to their organizations.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import { webhookPayloadSchema } from '#api';
import { isWebhookEventType, userStream } from '#domain';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const password = 'correct horse battery staple';
let app: AuthApp;
let admin: HttpClient;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  app = await startAuthApp({ LOG_LEVEL: 'silent' });
  admin = httpClient(app.baseUrl, {
    apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write', 'webhooks:write']),
  });
}, 60_000);

afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await app.close();
});

async function newUser(name: string): Promise<{ userId: string; email: string }> {
  const email = `${name}-${randomUUID().slice(0, 8)}@members.example`;
  return { userId: await app.createUser({ email, password }), email };
}

async function endpointFor(organizationId: string): Promise<WebhookReceiver> {
  const receiver = await WebhookReceiver.start();
  receivers.push(receiver);
  const created = await admin.post(`/organizations/${organizationId}/webhooks`, { url: receiver.url, events: ['*'] });
  expect(created.status).toBe(201);
  receiver.trust(created.body.secret as string);
  return receiver;
}

async function signIn(email: string, typed = password): Promise<{ browser: Browser; status: number }> {
  const browser = app.browser();
  await browser.open('/login');
  return { browser, status: (await browser.post('/login', { username: email, password: typed })).status };
}

const codeNow = (secret: string): Promise<string> =>
  generate({ secret, epoch: Math.floor(app.clock.now().getTime() / 1000) });

async function quietly(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 400));
}

describe('a member’s own events', () => {
  it('reach the organization’s endpoints in the log’s order, with the person’s own event ids, and only while they are a member', async () => {
    const owner = await newUser('owner');
    const acme = await app.createOrganization('Acme', owner);
    const globex = await app.createOrganization('Globex', await newUser('globex-owner'));
    const ada = await newUser('ada');
    const outsider = await newUser('outsider');
    expect((await admin.post(`/organizations/${acme}/members`, { email: ada.email, role: 'member' })).status).toBe(201);
    const toAcme = await endpointFor(acme);
    const toGlobex = await endpointFor(globex);

    const first = await signIn(ada.email);
    expect(first.status).toBe(204);
    expect((await signIn(ada.email, 'not the password')).status).toBe(401);
    const started = await first.browser.post('/account/two-step/authenticator-app');
    const secret = started.body.secret as string;
    const confirmed = await first.browser.request('PUT', '/account/two-step/authenticator-app', {
      json: { setup: started.body.setup, code: await codeNow(secret), password },
    });
    expect(confirmed.status).toBe(200);
    expect(
      (await admin.post(`/organizations/${acme}/sites`, { name: 'docs', hostname: 'docs.acme.example' })).status,
    ).toBe(201);
    // With the app, a sign-in is half open after the password and succeeds with the second step.
    app.clock.advance(30_000);
    const second = await signIn(ada.email);
    expect((await second.browser.post('/session/second-step/code', { code: await codeNow(secret) })).status).toBe(204);
    const sessions = (await first.browser.get('/sessions')).body.sessions as Array<{ id: string; current: boolean }>;
    const other = sessions.find((session) => !session.current);
    expect((await first.browser.delete(`/sessions/${other?.id}`)).status).toBe(204);
    expect((await signIn(outsider.email)).status).toBe(204);

    const expected = [
      'signin.succeeded',
      'signin.failed',
      'factor.added',
      'factor.added',
      'site.added',
      'entitlements.changed',
      'signin.succeeded',
      'session.revoked',
    ];
    const received = (await toAcme.waitFor(expected.length)).slice();
    expect(received.map((delivery) => delivery.payload.type)).toEqual(expected);
    for (const { payload } of received)
      expect(isWebhookEventType(payload.type) && webhookPayloadSchema(payload.type).safeParse(payload).success).toBe(
        true,
      );
    const positions = received.map((delivery) => BigInt(delivery.payload.data.position as number));
    expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);
    const organizations = ['site.added', 'entitlements.changed'];
    const hers = received.filter((delivery) => !organizations.includes(delivery.payload.type));
    expect(hers.every((delivery) => delivery.payload.data.userId === ada.userId)).toBe(true);
    expect(received.map((delivery) => delivery.payload.data)).toEqual([
      expect.objectContaining({ method: 'password', description: `${ada.email} signed in (password)` }),
      expect.objectContaining({
        step: 'password',
        reason: 'wrong-password',
        description: `Sign-in failed for ${ada.email}: wrong password`,
      }),
      expect.objectContaining({ factor: 'authenticator-app' }),
      expect.objectContaining({ factor: 'recovery-codes' }),
      expect.objectContaining({ hostname: 'docs.acme.example' }),
      expect.objectContaining({ changed: ['limits.contentSections'] }),
      expect.objectContaining({ method: 'two-step', secondStep: 'authenticator-app' }),
      expect.objectContaining({ reason: 'revoked', sessions: 1 }),
    ]);
    // The person's own events are sent with their own ids: those of the user stream.
    const own = await app.store.readStream(userStream(ada.userId));
    const ownIds = new Set((own.found ? own.events : []).map((event) => event.id));
    expect(
      received
        .filter((delivery) => ['factor.added', 'session.revoked'].includes(delivery.payload.type))
        .every((delivery) => ownIds.has(delivery.id)),
    ).toBe(true);

    // Nothing of Ada's reaches an organization she is not in, nor anything of someone who is in neither.
    await quietly();
    expect(toGlobex.received).toEqual([]);
    expect(toAcme.received).toHaveLength(expected.length);

    // Once removed, her sign-ins are hers alone.
    const removed = await admin.delete(`/organizations/${acme}/members/${ada.userId}`);
    expect(removed.status).toBe(200);
    expect((await toAcme.waitFor(expected.length + 2)).slice(-2).map((delivery) => delivery.payload.type)).toEqual([
      'member.removed',
      'entitlements.changed',
    ]);
    expect((await signIn(ada.email, 'wrong again')).status).toBe(401);
    await quietly();
    expect(toAcme.received).toHaveLength(expected.length + 2);
  });

  it('takes only the types an endpoint asked for, and replays them from a position with the organization’s', async () => {
    const owner = await newUser('owner');
    const initech = await app.createOrganization('Initech', owner);
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    const created = await admin.post(`/organizations/${initech}/webhooks`, {
      url: receiver.url,
      events: ['signin.succeeded'],
    });
    receiver.trust(created.body.secret as string);
    expect((await signIn(owner.email)).status).toBe(204);
    expect((await signIn(owner.email, 'nope')).status).toBe(401);
    expect((await signIn(owner.email)).status).toBe(204);
    const received = (await receiver.waitFor(2)).slice();
    expect(received.map((delivery) => delivery.payload.type)).toEqual(['signin.succeeded', 'signin.succeeded']);
    const from = received[0]?.payload.data.position as number;
    const replay = await admin.post(`/organizations/${initech}/webhooks/${created.body.id}/replay`, {
      fromPosition: from,
    });
    expect(replay.status).toBe(202);
    expect(replay.body.fromPosition).toBe(from);
    const again = await receiver.waitFor(4);
    expect(again.slice(2).map((delivery) => delivery.id)).toEqual(received.map((delivery) => delivery.id));
  });
});
