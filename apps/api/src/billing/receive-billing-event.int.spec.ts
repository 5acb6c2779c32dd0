// The billing state machine (README.md) on the real SQLite store: exactly one effect per provider event
// id, concurrently and across crashes. Deliveries that decide at the same revision propose the same
// deterministic ids, which any store answers as one append; a delivery that comes after the effect
// would append it again at a later revision, which only the own-event check in BillingEffects prevents
// (the crash-after-the-effect test fails without it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createPlanCatalogue, organizationStream } from '#domain';
import { SqliteEventStore } from '#event-store';
import { BillingEffects } from './billing-effects.js';
import type { BillingEvent } from './billing-event.schema.js';
import { billingStream } from '#domain';
import { BillingLedger } from './billing-ledger.service.js';
import { ReceiveBillingEventCommand } from './receive-billing-event.command.js';
import { ReceiveBillingEventHandler } from './receive-billing-event.handler.js';

const catalogue = createPlanCatalogue({ paymentProviderIds: ['prod_ess', 'prod_pro', '', 'prod_acs'] });
const organizationId = 'acme';
const purchase: BillingEvent = {
  id: 'evt_1',
  type: 'addon.purchased',
  organizationId,
  productId: 'prod_acs',
  quantity: 1,
  occurredAt: '2030-01-01T00:00:00Z',
};

let dataDir: string;
let store: SqliteEventStore;
let ledger: BillingLedger;
let effects: BillingEffects;
let handler: ReceiveBillingEventHandler;

const typesIn = async (streamId: string): Promise<string[]> =>
  (await store.readAll()).filter((event) => event.streamId === streamId).map((event) => event.type);
const receive = (event: BillingEvent) => handler.execute(new ReceiveBillingEventCommand(event));

afterEach(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-billing-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  ledger = new BillingLedger(store);
  effects = new BillingEffects(store, catalogue);
  handler = new ReceiveBillingEventHandler(ledger, effects, store, catalogue);
  const metadata = { actor: 'cli', correlationId: 'setup', causationId: 'setup' };
  await store.append(
    organizationStream(organizationId),
    [
      {
        id: '00000000-0000-4000-8000-000000000001',
        type: 'OrganizationCreated',
        data: { id: organizationId, name: 'Acme' },
        metadata,
      },
    ],
    'no_stream',
  );
});

describe('receiving a billing event', () => {
  it('100 concurrent deliveries: every one succeeds with the same answer, one effect', async () => {
    const receipts = await Promise.all(Array.from({ length: 100 }, () => receive(purchase)));

    expect(new Set(receipts.map(({ outcome, revision, position }) => `${outcome} ${revision} ${position}`))).toEqual(
      new Set(['applied 1 3']),
    );
    expect(await typesIn(organizationStream(organizationId))).toEqual(['OrganizationCreated', 'AddOnPurchased']);
    expect(await typesIn(billingStream(purchase.id))).toEqual(['BillingEventReceived', 'BillingEventApplied']);
  });

  it('concurrent deliveries racing with other changes of the organization still make one effect', async () => {
    const other: BillingEvent = {
      ...purchase,
      id: 'evt_other',
      type: 'plan.purchased',
      productId: 'prod_pro',
      quantity: undefined,
    };

    await Promise.all([
      ...Array.from({ length: 20 }, () => receive(purchase)),
      ...Array.from({ length: 20 }, () => receive(other)),
    ]);

    expect((await typesIn(organizationStream(organizationId))).sort()).toEqual([
      'AddOnPurchased',
      'OrganizationCreated',
      'PlanAssigned',
    ]);
  });

  it('a crash after the claim: the next delivery makes the effect', async () => {
    await ledger.claim(purchase, { type: 'PurchaseAddOn', data: { addOn: 'additionalContentSection', quantity: 1 } });

    expect(await receive(purchase)).toMatchObject({ outcome: 'applied', duplicate: true });
    expect(await typesIn(organizationStream(organizationId))).toEqual(['OrganizationCreated', 'AddOnPurchased']);
  });

  it('a crash after the effect: the next delivery recognises it and records the outcome', async () => {
    await effects.apply(
      await ledger.claim(purchase, { type: 'PurchaseAddOn', data: { addOn: 'additionalContentSection', quantity: 1 } }),
    );

    expect(await receive(purchase)).toMatchObject({ outcome: 'applied', revision: 1n });
    expect(await typesIn(organizationStream(organizationId))).toEqual(['OrganizationCreated', 'AddOnPurchased']);
    expect(await typesIn(billingStream(purchase.id))).toEqual(['BillingEventReceived', 'BillingEventApplied']);
  });

  it('a finished event is answered from the ledger without touching the organization', async () => {
    await receive(purchase);
    const before = (await store.readAll()).length;

    expect(await receive(purchase)).toMatchObject({ outcome: 'applied', duplicate: true, revision: 1n });
    expect((await store.readAll()).length).toBe(before);
  });

  it('a plan purchase older than one already applied on the same line is superseded', async () => {
    await receive({
      ...purchase,
      id: 'evt_new',
      type: 'plan.purchased',
      productId: 'prod_pro',
      quantity: undefined,
      occurredAt: '2030-02-01T00:00:00Z',
    });

    const late = await receive({
      ...purchase,
      id: 'evt_old',
      type: 'plan.purchased',
      productId: 'prod_ess',
      quantity: undefined,
      occurredAt: '2030-01-15T00:00:00Z',
    });

    expect(late).toMatchObject({ outcome: 'superseded', revision: 1n });
    expect((await store.readAll()).filter((event) => event.type === 'PlanAssigned').map((event) => event.data)).toEqual(
      [{ line: 'classic', plan: 'professional' }],
    );
  });
});
