// POST /billing/events end to end: signatures, validation, idempotency under concurrency,
// crash recovery, out-of-order deliveries, and plans and add-ons driving limits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfig } from '#config';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import { BillingEffects, BillingLedger, createApp, signBillingPayload } from '#api';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient, type HttpResponse } from '../support/http-client.js';
import { createOrganization, organizationEvents } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

const secret = 'whsec_e2e_billing_secret_0123456789';
const billingSettings = {
  BILLING_WEBHOOK_SECRET: secret,
  PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs',
  PLAN_LINKED_PRODUCT_IDS: 'chorus:teams=prod_teams_yearly,feedback=prod_feedback',
  LOG_LEVEL: 'silent',
};

type ProviderEvent = {
  id: string;
  type: 'plan.purchased' | 'addon.purchased' | 'addon.cancelled';
  organizationId: string;
  productId: string;
  quantity?: number;
  occurredAt: string;
};

let eventCounter = 0;
const providerEvent = (organizationId: string, fields: Partial<ProviderEvent> = {}): ProviderEvent => ({
  id: `evt_e2e_${++eventCounter}`,
  type: 'plan.purchased',
  organizationId,
  productId: 'prod_pro',
  occurredAt: '2030-01-01T10:00:00.000Z',
  ...fields,
});

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

type Delivery = { body?: string; signature?: string | null; signWith?: string; signedAt?: number };

/** Sends `event` as the provider would: the exact bytes, signed now with the shared secret unless told otherwise. */
function deliver(http: HttpClient, event: unknown, delivery: Delivery = {}): Promise<HttpResponse> {
  const body = delivery.body ?? JSON.stringify(event);
  const signature =
    delivery.signature === undefined
      ? signBillingPayload(
          delivery.signWith ?? secret,
          delivery.signedAt ?? nowSeconds(),
          Buffer.from(JSON.stringify(event)),
        )
      : delivery.signature;
  return http.request('POST', '/billing/events', {
    raw: body,
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'billing-signature': signature }) },
  });
}

async function ledger(store: EventStore, providerEventId: string): Promise<RecordedEvent[]> {
  const read = await store.readStream(`billing-${providerEventId}`);
  return read.found ? read.events : [];
}

const planOf = async (api: HttpClient, organizationId: string): Promise<unknown> =>
  (await api.get(`/organizations/${organizationId}/state`)).body;

let running: RunningApp;
let api: HttpClient;
let provider: HttpClient;

beforeAll(async () => {
  running = await startApp(billingSettings);
  api = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write', 'audit:read']),
  });
  provider = httpClient(running.baseUrl);
});

afterAll(async () => {
  await running.close();
});

/** The delivery is refused with `status` and `code`, and neither the organization nor the ledger changed. */
async function expectNothingChanged(
  organizationId: string,
  event: ProviderEvent,
  send: () => Promise<HttpResponse>,
  status: number,
  code: string,
): Promise<void> {
  const before = await organizationEvents(running.store, organizationId);
  const response = await send();
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(await organizationEvents(running.store, organizationId)).toEqual(before);
  expect(await ledger(running.store, event.id)).toEqual([]);
}

describe('the signature', () => {
  let organizationId: string;
  beforeAll(async () => {
    organizationId = await createOrganization(api);
  });

  it('valid: 200, the plan is assigned', async () => {
    const event = providerEvent(organizationId);

    const response = await deliver(provider, event);

    expect(response.status).toBe(200);
    expect(response.headers.get('chorus-consistency')).toBe('committed');
    expect(response.body).toEqual({
      id: event.id,
      outcome: 'applied',
      duplicate: false,
      organizationId,
      revision: 1,
      position: expect.any(Number),
    });
    const events = await organizationEvents(running.store, organizationId);
    expect(events.at(-1)).toMatchObject({ type: 'PlanAssigned', data: { line: 'classic', plan: 'professional' } });
  });

  const refusals: [string, (event: ProviderEvent) => Delivery][] = [
    ['signed with another secret', () => ({ signWith: 'whsec_not_the_right_one_0123456789' })],
    ['a body changed after signing', (event) => ({ body: JSON.stringify({ ...event, productId: 'prod_pro' }) })],
    ['a body changed by one space', (event) => ({ body: `${JSON.stringify(event)} ` })],
    ['signed more than 5 minutes ago', () => ({ signedAt: nowSeconds() - 10 * 60 })],
    ['signed more than 5 minutes ahead', () => ({ signedAt: nowSeconds() + 10 * 60 })],
    ['without the header', () => ({ signature: null })],
    ['with an empty header', () => ({ signature: '' })],
    ['with a malformed header', () => ({ signature: 'sha256=0123abcd' })],
    [
      'with a header without timestamp',
      (event) => ({
        signature: signBillingPayload(secret, nowSeconds(), Buffer.from(JSON.stringify(event))).replace(/^t=\d+,/, ''),
      }),
    ],
  ];

  it.each(refusals)('%s: 401 INVALID_SIGNATURE, nothing changes', async (_case, delivery) => {
    const event = providerEvent(organizationId, { productId: 'prod_ess' });

    await expectNothingChanged(
      organizationId,
      event,
      () => deliver(provider, event, delivery(event)),
      401,
      'INVALID_SIGNATURE',
    );
  });

  it('a refused delivery does not burn the event id: the genuine one is applied afterwards', async () => {
    const event = providerEvent(organizationId, { productId: 'prod_ess', occurredAt: '2030-01-02T00:00:00.000Z' });
    await deliver(provider, event, { signWith: 'whsec_not_the_right_one_0123456789' });

    const response = await deliver(provider, event);

    expect(response.body).toMatchObject({ outcome: 'applied', duplicate: false });
  });
});

describe('without BILLING_WEBHOOK_SECRET', () => {
  it('answers 503 problem+json and records nothing', async () => {
    const unconfigured = await startApp({ LOG_LEVEL: 'silent' });
    try {
      const event = providerEvent('whatever');
      const response = await deliver(httpClient(unconfigured.baseUrl), event);

      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.body.code).toBe('BILLING_NOT_CONFIGURED');
      expect(await unconfigured.store.headPosition()).toBeUndefined();
    } finally {
      await unconfigured.close();
    }
  });
});

describe('what the body may say', () => {
  let organizationId: string;
  beforeAll(async () => {
    organizationId = await createOrganization(api);
  });

  it('an unknown product: 422 UNKNOWN_PRODUCT, nothing changes', async () => {
    const event = providerEvent(organizationId, { productId: 'prod_nobody_sells' });

    await expectNothingChanged(organizationId, event, () => deliver(provider, event), 422, 'UNKNOWN_PRODUCT');
  });

  it('an index left empty in PLAN_PAYMENT_PROVIDER_IDS sells nothing: an empty product id is refused', async () => {
    const event = providerEvent(organizationId, { productId: '' });

    await expectNothingChanged(organizationId, event, () => deliver(provider, event), 400, 'VALIDATION_FAILED');
  });

  it('an add-on product in a plan event: 422 PRODUCT_MISMATCH, nothing changes', async () => {
    const event = providerEvent(organizationId, { productId: 'prod_acs' });

    await expectNothingChanged(organizationId, event, () => deliver(provider, event), 422, 'PRODUCT_MISMATCH');
  });

  it('an unknown organization: 422 UNKNOWN_ORGANIZATION, nothing is recorded anywhere', async () => {
    const event = providerEvent('no-such-organization');
    const head = await running.store.headPosition();

    const response = await deliver(provider, event);

    expect({ status: response.status, code: response.body.code }).toEqual({
      status: 422,
      code: 'UNKNOWN_ORGANIZATION',
    });
    expect(await running.store.headPosition()).toBe(head);
  });

  const malformed: [string, Record<string, unknown>][] = [
    ['no id', { id: undefined }],
    ['an id with a slash', { id: 'evt/1' }],
    ['an unknown type', { type: 'invoice.paid' }],
    ['an unknown field', { coupon: 'FREE' }],
    ['no organization', { organizationId: undefined }],
    ['a malformed organization id', { organizationId: 'Not An Id' }],
    ['a quantity of 0', { type: 'addon.purchased', productId: 'prod_acs', quantity: 0 }],
    ['a fractional quantity', { type: 'addon.purchased', productId: 'prod_acs', quantity: 1.5 }],
    ['a quantity as text', { type: 'addon.purchased', productId: 'prod_acs', quantity: '2' }],
    ['two plans at once', { quantity: 2 }],
    ['no occurredAt', { occurredAt: undefined }],
    ['an occurredAt without offset', { occurredAt: '2030-01-01T10:00:00' }],
    ['an occurredAt that is no date', { occurredAt: 'yesterday' }],
  ];

  it.each(malformed)('%s: 400 VALIDATION_FAILED, nothing changes', async (_case, change) => {
    const event = { ...providerEvent(organizationId), ...change } as ProviderEvent;

    await expectNothingChanged(organizationId, event, () => deliver(provider, event), 400, 'VALIDATION_FAILED');
  });

  it('a body that is not a JSON object: 400, nothing changes', async () => {
    const event = providerEvent(organizationId);

    await expectNothingChanged(
      organizationId,
      event,
      () => deliver(provider, ['not', 'an', 'event']),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('a body that is not JSON: 400 INVALID_JSON, nothing changes', async () => {
    const event = providerEvent(organizationId);
    const body = '{"id": "evt_broken",';

    await expectNothingChanged(
      organizationId,
      event,
      () => deliver(provider, event, { body, signature: signBillingPayload(secret, nowSeconds(), Buffer.from(body)) }),
      400,
      'INVALID_JSON',
    );
  });
});

describe('idempotency', () => {
  it('the same event delivered 100 times at once: all answered 200, exactly one PlanAssigned', async () => {
    const organizationId = await createOrganization(api);
    const event = providerEvent(organizationId);
    const body = JSON.stringify(event);
    const signature = signBillingPayload(secret, nowSeconds(), Buffer.from(body));

    const responses = await Promise.all(
      Array.from({ length: 100 }, () => deliver(provider, event, { body, signature })),
    );

    expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 100 }, () => 200));
    expect(
      new Set(
        responses.map((response) => `${response.body.outcome} ${response.body.revision} ${response.body.position}`),
      ).size,
    ).toBe(1);
    const events = await organizationEvents(running.store, organizationId);
    expect(events.map((recorded) => recorded.type)).toEqual(['OrganizationCreated', 'PlanAssigned']);
    expect((await ledger(running.store, event.id)).map((recorded) => recorded.type)).toEqual([
      'BillingEventReceived',
      'BillingEventApplied',
    ]);
  });

  it('a second delivery later: 200, the same answer marked duplicate, nothing changes', async () => {
    const organizationId = await createOrganization(api);
    const event = providerEvent(organizationId, { type: 'addon.purchased', productId: 'prod_acs', quantity: 2 });
    const first = await deliver(provider, event);
    const after = await running.store.headPosition();

    const second = await deliver(provider, event);

    expect(second.status).toBe(200);
    expect(second.body).toEqual({ ...first.body, duplicate: true });
    expect(await running.store.headPosition()).toBe(after);
  });

  it('one id means its first content: a redelivery with another body changes nothing', async () => {
    const organizationId = await createOrganization(api);
    const event = providerEvent(organizationId, { type: 'addon.purchased', productId: 'prod_acs', quantity: 1 });
    await deliver(provider, event);
    const after = await running.store.headPosition();

    const response = await deliver(provider, { ...event, quantity: 5 });

    expect(response.body).toMatchObject({ outcome: 'applied', duplicate: true });
    expect(await running.store.headPosition()).toBe(after);
    expect((await api.get(`/organizations/${organizationId}/state`)).body.addOns).toEqual({
      additionalContentSection: 1,
    });
  });

  it('records who did it: actor billing, the provider event id as correlation id, the claim as causation', async () => {
    const organizationId = await createOrganization(api);
    const event = providerEvent(organizationId, { occurredAt: '2030-03-04T05:06:07.000Z' });

    await deliver(provider, event);

    const [claim, outcome] = await ledger(running.store, event.id);
    const planAssigned = (await organizationEvents(running.store, organizationId)).at(-1);
    const provenance = {
      actor: 'billing',
      correlationId: event.id,
      providerEventId: event.id,
      providerEventType: 'plan.purchased',
      productId: 'prod_pro',
      occurredAt: event.occurredAt,
      schemaVersion: 1,
    };
    expect(claim?.metadata).toEqual({ ...provenance, causationId: event.id, commandType: 'ClaimBillingEvent' });
    expect(planAssigned?.metadata).toEqual({ ...provenance, causationId: claim?.id, commandType: 'AssignPlan' });
    expect(outcome?.metadata).toEqual({ ...provenance, causationId: claim?.id, commandType: 'RecordBillingOutcome' });
    expect(outcome?.data).toEqual({
      organizationId,
      organizationEventIds: [planAssigned?.id],
      revision: '1',
      position: String(planAssigned?.position),
    });
  });
});

describe('crash recovery', () => {
  it('a claim left pending (crash before the effect) is finished by the next delivery', async () => {
    const organizationId = await createOrganization(api);
    const event = providerEvent(organizationId);
    await running.app
      .get(BillingLedger)
      .claim(event, { type: 'AssignPlan', data: { line: 'classic', plan: 'professional' } });

    const response = await deliver(provider, event);

    expect(response.body).toMatchObject({ outcome: 'applied', duplicate: true, revision: 1 });
    expect((await organizationEvents(running.store, organizationId)).map((recorded) => recorded.type)).toEqual([
      'OrganizationCreated',
      'PlanAssigned',
    ]);
  });

  it('an effect without its outcome (crash after the effect) is recognised, not repeated', async () => {
    const organizationId = await createOrganization(api);
    const event = providerEvent(organizationId, { type: 'addon.purchased', productId: 'prod_acs' });
    const entry = await running.app
      .get(BillingLedger)
      .claim(event, { type: 'PurchaseAddOn', data: { addOn: 'additionalContentSection', quantity: 1 } });
    await running.app.get(BillingEffects).apply(entry);

    const response = await deliver(provider, event);

    expect(response.body).toMatchObject({ outcome: 'applied', revision: 1 });
    expect((await organizationEvents(running.store, organizationId)).map((recorded) => recorded.type)).toEqual([
      'OrganizationCreated',
      'AddOnPurchased',
    ]);
    expect((await ledger(running.store, event.id)).map((recorded) => recorded.type)).toEqual([
      'BillingEventReceived',
      'BillingEventApplied',
    ]);
  });

  it('a duplicate is still recognised after the server restarts on the same DATA_DIR', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-billing-restart-'));
    const start = async (): Promise<{
      app: NestExpressApplication;
      baseUrl: string;
      http: HttpClient;
      store: EventStore;
    }> => {
      const app = await createApp(
        loadConfig({ NODE_ENV: 'test', SEED_DEMO: 'false', ...billingSettings, DATA_DIR: dataDir }),
      );
      await app.listen(0, '127.0.0.1');
      const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
      return { app, baseUrl, http: httpClient(baseUrl), store: app.get<EventStore>(EVENT_STORE) };
    };
    try {
      const first = await start();
      const key = await createApiKey(first.app, ['organizations:write']);
      const organizationId = await createOrganization(httpClient(first.baseUrl, { apiKey: key }));
      const event = providerEvent(organizationId, { type: 'addon.purchased', productId: 'prod_acs' });
      expect((await deliver(first.http, event)).body).toMatchObject({ outcome: 'applied', duplicate: false });
      await first.app.close();

      const second = await start();
      try {
        const before = await second.store.headPosition();
        const response = await deliver(second.http, event);

        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ outcome: 'applied', duplicate: true });
        expect(await second.store.headPosition()).toBe(before);
        expect(
          (await organizationEvents(second.store, organizationId)).filter(
            (recorded) => recorded.type === 'AddOnPurchased',
          ),
        ).toHaveLength(1);
      } finally {
        await second.app.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('out-of-order deliveries', () => {
  it('an older plan purchase arriving after a newer one is recorded as superseded, not applied', async () => {
    const organizationId = await createOrganization(api);
    const upgrade = providerEvent(organizationId, { productId: 'prod_pro', occurredAt: '2030-05-02T00:00:00.000Z' });
    const original = providerEvent(organizationId, { productId: 'prod_ess', occurredAt: '2030-05-01T00:00:00.000Z' });
    await deliver(provider, upgrade);

    const response = await deliver(provider, original);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ outcome: 'superseded', revision: 1 });
    expect(await planOf(api, organizationId)).toMatchObject({ plan: 'professional' });
    expect((await ledger(running.store, original.id)).at(-1)).toMatchObject({
      type: 'BillingEventSuperseded',
      data: { supersededBy: upgrade.id },
    });
  });

  it('a newer plan purchase arriving later is applied', async () => {
    const organizationId = await createOrganization(api);
    await deliver(
      provider,
      providerEvent(organizationId, { productId: 'prod_ess', occurredAt: '2030-05-01T00:00:00.000Z' }),
    );

    const response = await deliver(
      provider,
      providerEvent(organizationId, { productId: 'prod_pro', occurredAt: '2030-05-02T00:00:00.000Z' }),
    );

    expect(response.body).toMatchObject({ outcome: 'applied', revision: 2 });
    expect(await planOf(api, organizationId)).toMatchObject({ plan: 'professional' });
  });

  it('a cancellation arriving before its purchase is refused (409) and applied on the retry once the purchase is in', async () => {
    const organizationId = await createOrganization(api);
    const purchase = providerEvent(organizationId, {
      type: 'addon.purchased',
      productId: 'prod_acs',
      occurredAt: '2030-05-01T00:00:00.000Z',
    });
    const cancellation = providerEvent(organizationId, {
      type: 'addon.cancelled',
      productId: 'prod_acs',
      occurredAt: '2030-05-02T00:00:00.000Z',
    });

    const early = await deliver(provider, cancellation);
    expect({ status: early.status, code: early.body.code, reason: early.body.reason }).toEqual({
      status: 409,
      code: 'BILLING_EVENT_NOT_APPLICABLE',
      reason: 'NOT_FOUND',
    });
    await deliver(provider, purchase);
    const retry = await deliver(provider, cancellation);

    expect(retry.body).toMatchObject({ outcome: 'applied', duplicate: true });
    expect((await organizationEvents(running.store, organizationId)).map((recorded) => recorded.type)).toEqual([
      'OrganizationCreated',
      'AddOnPurchased',
      'AddOnCancelled',
    ]);
  });
});

describe('products linked through PLAN_LINKED_PRODUCT_IDS', () => {
  it('sell the plan or add-on they are linked to; a Chorus plan paid for turns Chorus on, as its own event by billing', async () => {
    const organizationId = await createOrganization(api);

    const purchase = providerEvent(organizationId, { productId: 'prod_teams_yearly' });
    expect((await deliver(provider, purchase)).status).toBe(200);
    expect(
      (
        await deliver(
          provider,
          providerEvent(organizationId, { type: 'addon.purchased', productId: 'prod_feedback', quantity: 2 }),
        )
      ).status,
    ).toBe(200);

    const events = await organizationEvents(running.store, organizationId);
    expect(events.slice(-3)).toMatchObject([
      {
        type: 'PlanAssigned',
        data: { line: 'chorus', plan: 'teams' },
        metadata: { actor: 'billing', correlationId: purchase.id },
      },
      {
        type: 'ChorusEnabled',
        data: { paidPlan: 'teams' },
        metadata: { actor: 'billing', correlationId: purchase.id },
      },
      { type: 'AddOnPurchased', data: { addOn: 'feedback', quantity: 2 } },
    ]);
    expect(await planOf(api, organizationId)).toMatchObject({
      chorus: true,
      governingPlan: { line: 'chorus', plan: 'teams' },
    });
    // Delivered again: recognised, nothing more.
    expect((await deliver(provider, purchase)).body).toMatchObject({ outcome: 'applied', duplicate: true });
    expect(await organizationEvents(running.store, organizationId)).toHaveLength(events.length);
  });
});

describe('end to end: billing drives plans, add-ons and limits', () => {
  it('professional plan plus one additional content section: 3 sites fit, the 4th is LIMIT_EXCEEDED', async () => {
    const organizationId = await createOrganization(api);
    const site = (index: number): Promise<HttpResponse> =>
      api.post(`/organizations/${organizationId}/sites`, {
        name: `Site ${index}`,
        hostname: `site-${index}.example.com`,
      });

    expect((await site(0)).body.code).toBe('NO_PLAN');
    expect((await deliver(provider, providerEvent(organizationId, { productId: 'prod_pro' }))).status).toBe(200);
    expect(
      (await deliver(provider, providerEvent(organizationId, { type: 'addon.purchased', productId: 'prod_acs' })))
        .status,
    ).toBe(200);

    for (const index of [1, 2, 3]) expect((await site(index)).status).toBe(201);
    const fourth = await site(4);

    expect(fourth.status).toBe(409);
    expect(fourth.body).toMatchObject({ code: 'LIMIT_EXCEEDED', resource: 'contentSections', limit: 3, count: 3 });
    expect(await planOf(api, organizationId)).toMatchObject({
      plan: 'professional',
      addOns: { additionalContentSection: 1 },
      limits: { effective: { contentSections: 3 } },
      usage: { contentSections: 3 },
    });
  });
});
