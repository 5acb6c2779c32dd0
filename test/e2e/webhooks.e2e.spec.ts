// Webhooks against a started server and real receivers that verify with the `standardwebhooks` package: the
// organization's events in order, each once, with the event's own id; a receiver that fails holds the events after
// it and gets them all once it answers again (on the injectable clock: 5 s, then 10 s...); replay from a position;
// a rotated secret with both signing; 410 disables; redirects are not followed; and every refusal.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from '#identity';
import { AppClock, webhookPayloadSchema } from '#api';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, webhookEndpointsStream } from '#domain';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization, expectRefusal } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { SmtpInbox, unfolded } from '../support/smtp-inbox.js';
import { SteppedClock } from '../support/stepped-clock.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

let running: RunningApp;
let admin: HttpClient;
let inbox: SmtpInbox;
const receivers: WebhookReceiver[] = [];

/**
 * Every type but entitlements.changed, which follows most of them: the tests of delivery read more plainly without it.
 */
const HISTORY = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'entitlements.changed');

async function receiver(): Promise<WebhookReceiver> {
  const started = await WebhookReceiver.start();
  receivers.push(started);
  return started;
}

async function endpoint(
  organizationId: string,
  to: WebhookReceiver,
  settings: Record<string, unknown> = {},
): Promise<{ id: string; secret: string }> {
  const created = await admin.post(`/organizations/${organizationId}/webhooks`, {
    url: to.url,
    events: HISTORY,
    ...settings,
  });
  expect(created.status).toBe(201);
  to.trust(created.body.secret as string);
  return created.body as { id: string; secret: string };
}

async function addSite(organizationId: string, name: string): Promise<void> {
  expect(
    (await admin.post(`/organizations/${organizationId}/sites`, { name, hostname: `${name}.example.com` })).status,
  ).toBe(201);
}

async function addMember(organizationId: string, email: string): Promise<void> {
  expect((await admin.post(`/organizations/${organizationId}/members`, { email, role: 'admin' })).status).toBe(201);
}

async function deliveries(organizationId: string, webhookId: string) {
  return (await admin.get(`/organizations/${organizationId}/webhooks/${webhookId}/deliveries`)).body
    .deliveries as Array<Record<string, unknown>>;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  inbox = await SmtpInbox.start();
  running = await startApp({ LOG_LEVEL: 'warn', SMTP_URL: inbox.url });
  admin = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, [
      'organizations:read',
      'organizations:write',
      'audit:read',
      'webhooks:write',
    ]),
  });
});

afterEach(() => running.app.get(AppClock).pin(systemClock));

afterAll(async () => {
  await Promise.all(receivers.map((started) => started.close()));
  await running.close();
  await inbox.close();
});

describe('an endpoint from the beginning of the history', () => {
  it('receives every event once, in order, signed, with the event’s own id and the history’s words', async () => {
    const acme = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    await addSite(acme, 'docs');
    await addMember(acme, 'ada@acme.example');
    const to = await receiver();
    await endpoint(acme, to, { startFrom: 'beginning', description: 'provisioning' });
    const history = (await admin.get(`/organizations/${acme}/history`)).body.events as Array<{
      id: string;
      type: string;
      position: number;
      revision: number;
    }>;
    const expected = history.filter((event) =>
      ['OrganizationCreated', 'PlanAssigned', 'SiteAdded', 'MemberAdded'].includes(event.type),
    );
    const received = await to.waitFor(expected.length);
    expect(received.map((delivery) => delivery.id)).toEqual(expected.map((event) => event.id));
    expect(received.map((delivery) => delivery.payload.type)).toEqual([
      'organization.created',
      'plan.changed',
      'site.added',
      'member.added',
    ]);
    // Each body is what /docs/openapi.json's `webhooks` says it is, and nothing more.
    for (const { payload } of received)
      expect(isWebhookEventType(payload.type) && webhookPayloadSchema(payload.type).safeParse(payload).success).toBe(
        true,
      );
    expect(received.map((delivery) => delivery.payload.data.position)).toEqual(expected.map((event) => event.position));
    expect(received[3]?.payload).toEqual({
      type: 'member.added',
      timestamp: expect.any(String),
      data: expect.objectContaining({
        organizationId: acme,
        revision: expected[3]?.revision,
        actor: expect.stringMatching(/^api-key:/),
        correlationId: expect.any(String),
        email: 'ada@acme.example',
        role: 'admin',
        description: expect.stringContaining('ada@acme.example'),
      }),
    });
    await addSite(acme, 'blog');
    expect((await to.waitFor(expected.length + 1)).at(-1)?.payload.type).toBe('site.added');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(to.received).toHaveLength(expected.length + 1);
  });

  it('sends each type a command records, with the fields the catalogue gives it', async () => {
    // QA domains come with their add-on, on the Chorus line.
    const cyberdyne = await createOrganization(admin, {
      plan: { line: 'chorus', plan: 'teams' },
      chorus: { enabled: true },
    });
    const to = await receiver();
    await endpoint(cyberdyne, to);
    const base = `/organizations/${cyberdyne}`;
    const member = await admin.post(`${base}/members`, { email: 'miles@cyberdyne.example', role: 'member' });
    const site = await admin.post(`${base}/sites`, { name: 'labs', hostname: 'labs.cyberdyne.example' });
    const answers = [
      member,
      site,
      await admin.request('PATCH', `${base}/members/${member.body.userId}`, { json: { role: 'admin' } }),
      await admin.delete(`${base}/sites/${site.body.siteId}`),
      await admin.post(`${base}/add-ons`, { addOn: 'qualityAssurance' }),
      await admin.post(`${base}/quality-assurance/domains`, { domain: 'qa.cyberdyne.example' }),
      await admin.delete(`${base}/quality-assurance/domains/qa.cyberdyne.example`),
      await admin.put(`${base}/two-step-sign-in`, { required: true }),
      await admin.delete(`${base}/members/${member.body.userId}`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 200, 200, 200, 201, 200, 200, 200]);
    const received = await to.waitFor(9);
    expect(received.map((delivery) => delivery.payload.type)).toEqual([
      'member.added',
      'site.added',
      'member.role_changed',
      'site.removed',
      'addon.purchased',
      'domain.added',
      'domain.removed',
      'signin_policy.changed',
      'member.removed',
    ]);
    for (const { payload } of received)
      expect(isWebhookEventType(payload.type) && webhookPayloadSchema(payload.type).safeParse(payload).success).toBe(
        true,
      );
    expect(received[2]?.payload.data).toMatchObject({
      userId: member.body.userId,
      role: 'admin',
      previousRole: 'member',
    });
    expect(received[4]?.payload.data).toMatchObject({ addOn: 'qualityAssurance', quantity: 1 });
    expect(received[5]?.payload.data).toMatchObject({ domain: 'qa.cyberdyne.example', kind: 'quality-assurance' });
    // The history names the removed member by the address it had, as the console's timeline does.
    expect(received[8]?.payload.data.description).toBe('Member removed: miles@cyberdyne.example');
  });

  it('sends only the types it asked for, and never a secret an event holds', async () => {
    const globex = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const to = await receiver();
    await endpoint(globex, to, { events: ['member.added'] });
    await addSite(globex, 'shop');
    await addMember(globex, 'grace@globex.example');
    const [only] = await to.waitFor(1);
    expect(only?.payload.type).toBe('member.added');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(to.received).toHaveLength(1);
  });
});

describe('a receiver that fails', () => {
  it('holds the events after the failing one, retries after 5 s, then 10 s, and gets them all in order once it answers', async () => {
    const clock = new SteppedClock();
    running.app.get(AppClock).pin(clock);
    const initech = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const to = await receiver();
    to.answer = 503;
    const { id } = await endpoint(initech, to);
    await addSite(initech, 'one');
    const [first] = await eventually(
      () => deliveries(initech, id),
      (logged) => logged.length === 1,
    );
    expect(first).toMatchObject({
      outcome: 'failed',
      status: 503,
      attempt: 1,
      eventType: 'site.added',
      reason: 'The receiver answered 503.',
      excerpt: 'answered 503',
    });
    expect(Date.parse(String(first?.nextAttemptAt)) - Date.parse(String(first?.at))).toBe(5_000);
    await addSite(initech, 'two');
    await eventually(
      async () => clock.sleeping,
      (sleeping) => sleeping > 0,
    );
    clock.advance(5_000);
    const [second] = await eventually(
      () => deliveries(initech, id),
      (logged) => logged.length === 2,
    );
    expect(second).toMatchObject({ outcome: 'failed', attempt: 2 });
    expect(Date.parse(String(second?.nextAttemptAt)) - Date.parse(String(second?.at))).toBe(10_000);
    expect(to.refused).toBe(2);
    to.answer = 200;
    clock.advance(10_000);
    const received = await to.waitFor(2);
    expect(received.map((delivery) => delivery.payload.data.description)).toEqual([
      expect.stringContaining('one'),
      expect.stringContaining('two'),
    ]);
    const logged = await eventually(
      () => deliveries(initech, id),
      (entries) => entries.length === 4,
    );
    expect(logged.map((entry) => [entry.outcome, entry.attempt])).toEqual([
      ['delivered', 1],
      ['delivered', 3],
      ['failed', 2],
      ['failed', 1],
    ]);
  });

  it('is disabled by a 410 and its owners mailed once, and a redirect is a failure, not followed', async () => {
    const umbrella = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    expect(
      (await admin.post(`/organizations/${umbrella}/members`, { email: 'owner@umbrella.example', role: 'owner' }))
        .status,
    ).toBe(201);
    const gone = await receiver();
    gone.answer = 410;
    const goneEndpoint = await endpoint(umbrella, gone);
    const moved = await receiver();
    moved.answer = 301;
    const movedEndpoint = await endpoint(umbrella, moved);
    await addSite(umbrella, 'hq');
    const disabled = await eventually(
      () => admin.get(`/organizations/${umbrella}/webhooks/${goneEndpoint.id}`),
      (answer) => answer.body.enabled === false,
    );
    expect(disabled.body.disabledReason).toBe('The receiver answered 410 Gone: the endpoint is disabled.');
    const turnedOff = await eventually(
      async () => inbox.received.filter((mail) => unfolded(mail).includes('A webhook endpoint of')),
      (mails) => mails.length > 0,
    );
    expect(turnedOff.map((mail) => mail.to)).toEqual([['owner@umbrella.example']]);
    expect(unfolded(turnedOff[0]!)).toContain(gone.url);
    const [redirected] = await eventually(
      () => deliveries(umbrella, movedEndpoint.id),
      (logged) => logged.length === 1,
    );
    expect(redirected).toMatchObject({
      outcome: 'failed',
      status: 301,
      reason: expect.stringContaining('redirects are not followed'),
    });
    const enabledAgain = await admin.request('PATCH', `/organizations/${umbrella}/webhooks/${goneEndpoint.id}`, {
      json: { enabled: true },
    });
    expect(enabledAgain.body).toMatchObject({ enabled: true, disabledReason: null });
  });
});

describe('endpoints of one organization', () => {
  it('do not wait for each other: while one receiver hangs on its first event, another gets every event', async () => {
    const stark = await createOrganization(admin, { plan: { line: 'classic', plan: 'enterprise' } });
    const hanging = await receiver();
    const fast = await receiver();
    const release = hanging.hold();
    await endpoint(stark, hanging);
    await endpoint(stark, fast);
    for (const name of ['north', 'south', 'east']) await addSite(stark, name);
    expect((await fast.waitFor(3)).map((delivery) => delivery.payload.type)).toEqual([
      'site.added',
      'site.added',
      'site.added',
    ]);
    // The hanging one holds its first event, and the events after it wait behind it.
    expect(hanging.requests).toHaveLength(1);
    release();
    expect((await hanging.waitFor(3)).map((delivery) => delivery.id)).toEqual(
      fast.received.map((delivery) => delivery.id),
    );
  });
});

describe('replay and rotation', () => {
  it('sends again from a position, inclusive, then goes on', async () => {
    const hooli = await createOrganization(admin, { plan: { line: 'classic', plan: 'enterprise' } });
    const to = await receiver();
    const { id } = await endpoint(hooli, to);
    for (const name of ['a', 'b', 'c']) await addSite(hooli, name);
    const firstPass = await to.waitFor(3);
    const fromPosition = firstPass[1]?.payload.data.position as number;
    const replay = await admin.post(`/organizations/${hooli}/webhooks/${id}/replay`, { fromPosition });
    expect(replay.status).toBe(202);
    const all = await to.waitFor(5);
    expect(all.slice(3).map((delivery) => delivery.id)).toEqual(firstPass.slice(1, 3).map((delivery) => delivery.id));
    await addSite(hooli, 'd');
    expect((await to.waitFor(6)).at(-1)?.payload.data.description).toEqual(expect.stringContaining('d.example.com'));
  });

  it('signs with the new secret and the old one for 24 hours after a rotation, then with the new one only', async () => {
    const clock = new SteppedClock();
    running.app.get(AppClock).pin(clock);
    const soylent = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const to = await receiver();
    const { id, secret: old } = await endpoint(soylent, to);
    const rotated = await admin.post(`/organizations/${soylent}/webhooks/${id}/secret`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    to.trust(fresh);
    await addSite(soylent, 'overlap');
    const [during] = await to.waitFor(1);
    expect(during !== undefined && to.verifiesWith(old, during) && to.verifiesWith(fresh, during)).toBe(true);
    expect(during !== undefined && to.signedBy(old, during) && to.signedBy(fresh, during)).toBe(true);
    // A day on, by the server's clock: a receiver's own check of the timestamp would refuse it, so signatures are
    // compared.
    to.verifying = false;
    clock.advance(24 * 3_600_000);
    await addMember(soylent, 'after@soylent.example');
    const [, after] = await to.waitFor(2);
    expect(after !== undefined && to.signedBy(fresh, after) && !to.signedBy(old, after)).toBe(true);
  });
});

describe('who may, and what is refused', () => {
  it('refuses a URL that is not http(s), an unknown event type, the eleventh endpoint, and another organization’s endpoint, changing nothing', async () => {
    const acme = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const globex = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const base = `/organizations/${acme}/webhooks`;
    for (const body of [
      { url: 'ftp://hooks.example.com', events: ['*'] },
      { url: 'https://hooks.example.com', events: ['member.renamed'] },
      { url: 'https://hooks.example.com', events: [] },
    ]) {
      const refused = await admin.post(base, body);
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    }
    const ids: string[] = [];
    for (let index = 0; index < 10; index += 1)
      ids.push(
        (await admin.post(base, { url: `https://hooks.example.com/${index}`, events: ['*'] })).body.id as string,
      );
    const eleventh = await admin.post(base, { url: 'https://hooks.example.com/11', events: ['*'] });
    expect({ status: eleventh.status, code: eleventh.body.code, limit: eleventh.body.limit }).toEqual({
      status: 409,
      code: 'LIMIT_EXCEEDED',
      limit: 10,
    });
    expect((await admin.get(base)).body.endpoints).toHaveLength(10);
    const theirs = `/organizations/${globex}/webhooks/${ids[0]}`;
    await expectRefusal(running.store, globex, () => admin.get(theirs), 404, 'NOT_FOUND');
    await expectRefusal(running.store, globex, () => admin.delete(theirs), 404, 'NOT_FOUND');
    await expectRefusal(
      running.store,
      globex,
      () => admin.post(`${theirs}/replay`, { fromPosition: 0 }),
      404,
      'NOT_FOUND',
    );
    expect((await admin.get(`/organizations/${acme}/webhooks`)).body.endpoints).toHaveLength(10);
    expect((await admin.delete(`${base}/${ids[0]}`)).status).toBe(204);
    expect((await admin.get(`${base}/${ids[0]}`)).status).toBe(404);
  });

  it('answers only keys with webhooks:write, and a key bound to another organization not at all', async () => {
    const acme = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const globex = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const reader = httpClient(running.baseUrl, {
      apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
    });
    const globexOnly = httpClient(running.baseUrl, {
      apiKey: await createApiKey(running.app, ['webhooks:write'], 'globex', globex),
    });
    expect(
      (await reader.post(`/organizations/${acme}/webhooks`, { url: 'https://hooks.example.com', events: ['*'] }))
        .status,
    ).toBe(403);
    expect(
      (await globexOnly.post(`/organizations/${acme}/webhooks`, { url: 'https://hooks.example.com', events: ['*'] }))
        .status,
    ).toBe(403);
    expect((await admin.get(`/organizations/${acme}/webhooks`)).body.endpoints).toEqual([]);
  });

  it('in production refuses an address literal that is not public, and sends nothing to a name that resolves to one', async () => {
    const production = await startApp({
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      PUBLIC_URL: 'https://chorus.example',
      SSO_SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      LOG_LEVEL: 'warn',
    });
    try {
      const operator = httpClient(production.baseUrl, {
        apiKey: await createApiKey(production.app, ['organizations:write', 'webhooks:write']),
      });
      const organization = (await operator.post('/organizations', { name: 'Production' })).body.id as string;
      await operator.post(`/organizations/${organization}/plan`, { line: 'classic', plan: 'professional' });
      const to = await receiver();
      for (const url of [
        to.url,
        'http://10.0.0.1/hooks',
        'https://169.254.169.254/latest',
        'http://[::1]:8080/hooks',
      ]) {
        const refused = await operator.post(`/organizations/${organization}/webhooks`, { url, events: ['*'] });
        expect({ status: refused.status, code: refused.body.code, pointer: refused.body.errors?.[0]?.pointer }).toEqual(
          { status: 400, code: 'VALIDATION_FAILED', pointer: '#/url' },
        );
      }
      const byName = await operator.post(`/organizations/${organization}/webhooks`, {
        url: to.url.replace('127.0.0.1', 'localhost'),
        events: ['*'],
      });
      expect(byName.status).toBe(201);
      await operator.post(`/organizations/${organization}/sites`, { name: 'site', hostname: 'site.example.com' });
      const [failed] = await eventually(
        async () =>
          (await operator.get(`/organizations/${organization}/webhooks/${byName.body.id}/deliveries`)).body
            .deliveries as Array<Record<string, unknown>>,
        (logged) => logged.length > 0,
      );
      expect(failed).toMatchObject({
        outcome: 'failed',
        status: null,
        reason: expect.stringContaining('not a public address'),
      });
      expect(to.received).toHaveLength(0);
      expect(to.refused).toBe(0);
    } finally {
      await production.close();
    }
  });
});

describe('Splunk and Datadog', () => {
  it('sends the history’s sentences to Splunk’s HTTP Event Collector and Datadog’s log intake, batched, with their tokens', async () => {
    const wayne = await createOrganization(admin, { plan: { line: 'classic', plan: 'enterprise' } });
    const splunk = await receiver();
    const datadog = await receiver();
    const base = `/organizations/${wayne}/webhooks`;
    const missing = await admin.post(base, { url: splunk.url, events: ['*'], format: 'splunk-hec' });
    expect({ status: missing.status, pointer: missing.body.errors?.[0]?.pointer }).toEqual({
      status: 400,
      pointer: '#/token',
    });
    const extra = await admin.post(base, { url: splunk.url, events: ['*'], token: 'not for this one' });
    expect({ status: extra.status, pointer: extra.body.errors?.[0]?.pointer }).toEqual({
      status: 400,
      pointer: '#/token',
    });
    const hec = await admin.post(base, {
      url: splunk.url,
      events: ['site.added'],
      format: 'splunk-hec',
      token: 'hec-token-1',
      startFrom: 'beginning',
    });
    const logs = await admin.post(base, {
      url: datadog.url,
      events: HISTORY,
      format: 'datadog',
      token: 'dd-api-key-1',
    });
    expect([hec.status, logs.status]).toEqual([201, 201]);
    expect(JSON.stringify((await admin.get(base)).body)).not.toMatch(/hec-token-1|dd-api-key-1/);
    const recorded = await running.store.readStream(webhookEndpointsStream(wayne));
    expect(JSON.stringify(recorded.found ? recorded.events.map((event) => event.data) : [])).not.toMatch(
      /hec-token-1|dd-api-key-1/,
    );
    for (const name of ['alpha', 'beta', 'gamma']) await addSite(wayne, name);
    await eventually(
      async () => splunk.requests.flatMap((request) => request.body.split('\n')).length,
      (count) => count === 3,
    );
    expect(splunk.requests.every((request) => request.headers.authorization === 'Splunk hec-token-1')).toBe(true);
    const hecEvents = splunk.requests.flatMap((request) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wire format
      request.body.split('\n').map((line) => JSON.parse(line) as Record<string, any>),
    );
    expect(hecEvents.map((event) => event.event.description)).toEqual([
      'Site added: alpha (alpha.example.com)',
      'Site added: beta (beta.example.com)',
      'Site added: gamma (gamma.example.com)',
    ]);
    expect(hecEvents[0]).toEqual({
      time: expect.any(Number),
      source: 'chorus',
      sourcetype: 'chorus:history',
      event: expect.objectContaining({ type: 'site.added', organizationId: wayne }),
    });
    await eventually(
      async () => datadog.requests.flatMap((request) => JSON.parse(request.body) as unknown[]).length,
      (count) => count === 3,
    );
    expect(datadog.requests.every((request) => request.headers['dd-api-key'] === 'dd-api-key-1')).toBe(true);
    const ddLogs = datadog.requests.flatMap((request) => JSON.parse(request.body) as Array<Record<string, unknown>>);
    expect(ddLogs[2]).toEqual({
      ddsource: 'chorus',
      service: 'chorus',
      ddtags: `organization:${wayne},event:site.added`,
      date: expect.any(String),
      message: 'Site added: gamma (gamma.example.com)',
      chorus: expect.objectContaining({ type: 'site.added', organizationId: wayne }),
    });
    const logged = await deliveries(wayne, logs.body.id as string);
    expect(logged.reduce((sum, entry) => sum + Number(entry.count ?? 0), 0)).toBe(3);
  });
});

describe('entitlements.changed', () => {
  it('follows each organization event that changed a flag, with the OFREP ETag, and sends the pair together', async () => {
    const umbrella = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const every = await receiver();
    const only = await receiver();
    const { id: everyId } = await endpoint(umbrella, every, { events: ['*'] });
    await endpoint(umbrella, only, { events: ['entitlements.changed'] });
    const member = await admin.post(`/organizations/${umbrella}/members`, {
      email: 'alice@umbrella.example',
      role: 'member',
    });
    // A role moves no flag: nothing follows it.
    expect(
      (
        await admin.request('PATCH', `/organizations/${umbrella}/members/${member.body.userId}`, {
          json: { role: 'admin' },
        })
      ).status,
    ).toBe(200);
    await addSite(umbrella, 'hive');
    const received = await every.waitFor(5);
    expect(received.map((delivery) => delivery.payload.type)).toEqual([
      'member.added',
      'entitlements.changed',
      'member.role_changed',
      'site.added',
      'entitlements.changed',
    ]);
    expect(received[1]?.id).toBe(`${received[0]?.id}.entitlements`);
    expect(received[1]?.payload.data).toMatchObject({
      changed: ['limits.users'],
      position: received[0]?.payload.data.position,
      description: 'Entitlements changed: limits.users',
    });
    for (const { payload } of received)
      expect(isWebhookEventType(payload.type) && webhookPayloadSchema(payload.type).safeParse(payload).success).toBe(
        true,
      );
    // Its ETag is OFREP's for the organization as it is now.
    const reader = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['entitlements:read']) });
    const bulk = await reader.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: umbrella } });
    expect(received[4]?.payload.data).toMatchObject({
      changed: ['limits.contentSections'],
      etag: bulk.headers.get('etag'),
    });
    expect((await only.waitFor(2)).map((delivery) => delivery.payload.data.changed)).toEqual([
      ['limits.users'],
      ['limits.contentSections'],
    ]);
    // Each pair is one record of the delivery log's cursor: the event's own entry leaves it, its entitlements.changed
    // moves it.
    const logged = await eventually(
      () => deliveries(umbrella, everyId),
      (entries) => entries.length === 5,
    );
    expect(logged.map((entry) => entry.eventType)).toEqual([
      'entitlements.changed',
      'site.added',
      'member.role_changed',
      'entitlements.changed',
      'member.added',
    ]);
  });
});

describe('Send test event', () => {
  it('sends one signed webhook.test now, outside the queue, and answers what the receiver did; another organization’s endpoint is 404', async () => {
    const acme = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const globex = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const to = await receiver();
    const { id } = await endpoint(acme, to);
    const tested = await admin.post(`/organizations/${acme}/webhooks/${id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({
      eventId: expect.stringMatching(/^test_/),
      delivered: true,
      status: 200,
      ms: expect.any(Number),
      excerpt: 'thanks',
      reason: '',
    });
    const [received] = await to.waitFor(1);
    expect(received?.id).toBe(tested.body.eventId);
    expect(received?.payload).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { organizationId: acme, endpointId: id, description: expect.stringContaining('test event') },
    });
    // A test is not the history: the delivery log and the queue's cursor are untouched.
    expect(await deliveries(acme, id)).toEqual([]);

    to.answer = 500;
    const failed = await admin.post(`/organizations/${acme}/webhooks/${id}/test`);
    expect(failed.body).toMatchObject({ delivered: false, status: 500, reason: 'The receiver answered 500.' });
    await expectRefusal(
      running.store,
      globex,
      () => admin.post(`/organizations/${globex}/webhooks/${id}/test`),
      404,
      'NOT_FOUND',
    );

    const datadog = await receiver();
    const logs = await admin.post(`/organizations/${acme}/webhooks`, {
      url: datadog.url,
      events: ['*'],
      format: 'datadog',
      token: 'dd-api-key-2',
    });
    expect((await admin.post(`/organizations/${acme}/webhooks/${logs.body.id}/test`)).body).toMatchObject({
      delivered: true,
      status: 200,
    });
    expect(
      datadog.requests.map((request) => [
        request.headers['dd-api-key'],
        (JSON.parse(request.body) as Array<{ chorus: { type: string } }>)[0]?.chorus.type,
      ]),
    ).toEqual([['dd-api-key-2', 'webhook.test']]);
  });
});

describe('after a restart', () => {
  it('finds the endpoints recorded before it started, and goes on from where each was', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-webhooks-restart-'));
    const to = await receiver();
    let node = await startApp({ LOG_LEVEL: 'warn', DATA_DIR: dataDir });
    try {
      const key = await createApiKey(node.app, ['organizations:read', 'organizations:write', 'webhooks:write']);
      let api = httpClient(node.baseUrl, { apiKey: key });
      const organization = await createOrganization(api, { plan: { line: 'classic', plan: 'enterprise' } });
      const created = await api.post(`/organizations/${organization}/webhooks`, {
        url: to.url,
        events: ['site.added'],
      });
      to.trust(created.body.secret as string);
      expect(
        (await api.post(`/organizations/${organization}/sites`, { name: 'before', hostname: 'before.example.com' }))
          .status,
      ).toBe(201);
      await to.waitFor(1);
      await node.close();
      node = await startApp({ LOG_LEVEL: 'warn', DATA_DIR: dataDir });
      api = httpClient(node.baseUrl, { apiKey: key });
      expect(
        (await api.post(`/organizations/${organization}/sites`, { name: 'after', hostname: 'after.example.com' }))
          .status,
      ).toBe(201);
      const received = await to.waitFor(2);
      expect(received.map((delivery) => delivery.payload.data.description)).toEqual([
        'Site added: before (before.example.com)',
        'Site added: after (after.example.com)',
      ]);
    } finally {
      await node.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
