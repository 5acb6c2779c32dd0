// The billing state machine (README.md) on a store without duplicate detection, as EventStoreDB may be:
// exactly one effect per provider event id must come from expected revisions alone.
import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPlanCatalogue, organizationStream } from '#domain';
import { BillingDecider } from './billing-decider.service.js';
import type { BillingEvent } from './billing-event.schema.js';
import { BillingLedger, billingStream } from './billing-ledger.js';
import { ReceiveBillingEventCommand } from './receive-billing-event.command.js';
import { ReceiveBillingEventHandler } from './receive-billing-event.handler.js';
import { StoreWithoutDuplicateDetection } from './testing/store-without-duplicate-detection.js';

const catalogue = createPlanCatalogue({ paymentProviderIds: ['prod_ess', 'prod_pro', '', 'prod_acs'] });
const organizationId = 'acme';
const purchase: BillingEvent = { id: 'evt_1', type: 'addon.purchased', organizationId, productId: 'prod_acs', quantity: 1, occurredAt: '2030-01-01T00:00:00Z' };

let store: StoreWithoutDuplicateDetection;
let ledger: BillingLedger;
let decider: BillingDecider;
let handler: ReceiveBillingEventHandler;

const typesIn = (streamId: string): string[] => store.recorded.filter((event) => event.streamId === streamId).map((event) => event.type);
const receive = (event: BillingEvent) => handler.execute(new ReceiveBillingEventCommand(event));

beforeEach(async () => {
  store = new StoreWithoutDuplicateDetection();
  ledger = new BillingLedger(store);
  decider = new BillingDecider(store, catalogue);
  handler = new ReceiveBillingEventHandler(ledger, decider, store, catalogue);
  const metadata = { actor: 'cli', correlationId: 'setup', causationId: 'setup' };
  await store.append(organizationStream(organizationId), [{ id: '00000000-0000-4000-8000-000000000001', type: 'OrganizationCreated', data: { id: organizationId, name: 'Acme' }, metadata }], 'no_stream');
});

describe('receiving a billing event', () => {
  it('100 concurrent deliveries: every one succeeds with the same answer, one effect', async () => {
    const receipts = await Promise.all(Array.from({ length: 100 }, () => receive(purchase)));

    expect(new Set(receipts.map(({ outcome, revision, position }) => `${outcome} ${revision} ${position}`))).toEqual(new Set(['applied 1 3']));
    expect(typesIn(organizationStream(organizationId))).toEqual(['OrganizationCreated', 'AddOnPurchased']);
    expect(typesIn(billingStream(purchase.id))).toEqual(['BillingEventReceived', 'BillingEventApplied']);
  });

  it('concurrent deliveries racing with other changes of the organization still make one effect', async () => {
    const other: BillingEvent = { ...purchase, id: 'evt_other', type: 'plan.purchased', productId: 'prod_pro', quantity: undefined };

    await Promise.all([...Array.from({ length: 20 }, () => receive(purchase)), ...Array.from({ length: 20 }, () => receive(other))]);

    expect(typesIn(organizationStream(organizationId)).sort()).toEqual(['AddOnPurchased', 'OrganizationCreated', 'PlanAssigned']);
  });

  it('a crash after the claim: the next delivery makes the effect', async () => {
    await ledger.claim(purchase, { type: 'PurchaseAddOn', data: { addOn: 'additionalContentSection', quantity: 1 } });

    expect(await receive(purchase)).toMatchObject({ outcome: 'applied', duplicate: true });
    expect(typesIn(organizationStream(organizationId))).toEqual(['OrganizationCreated', 'AddOnPurchased']);
  });

  it('a crash after the effect: the next delivery recognises it and records the outcome', async () => {
    await decider.decide(await ledger.claim(purchase, { type: 'PurchaseAddOn', data: { addOn: 'additionalContentSection', quantity: 1 } }));

    expect(await receive(purchase)).toMatchObject({ outcome: 'applied', revision: 1n });
    expect(typesIn(organizationStream(organizationId))).toEqual(['OrganizationCreated', 'AddOnPurchased']);
    expect(typesIn(billingStream(purchase.id))).toEqual(['BillingEventReceived', 'BillingEventApplied']);
  });

  it('a finished event is answered from the ledger without touching the organization', async () => {
    await receive(purchase);
    const before = store.recorded.length;

    expect(await receive(purchase)).toMatchObject({ outcome: 'applied', duplicate: true, revision: 1n });
    expect(store.recorded.length).toBe(before);
  });

  it('a plan purchase older than one already applied on the same line is superseded', async () => {
    await receive({ ...purchase, id: 'evt_new', type: 'plan.purchased', productId: 'prod_pro', quantity: undefined, occurredAt: '2030-02-01T00:00:00Z' });

    const late = await receive({ ...purchase, id: 'evt_old', type: 'plan.purchased', productId: 'prod_ess', quantity: undefined, occurredAt: '2030-01-15T00:00:00Z' });

    expect(late).toMatchObject({ outcome: 'superseded', revision: 1n });
    expect(store.recorded.filter((event) => event.type === 'PlanAssigned').map((event) => event.data)).toEqual([{ line: 'classic', plan: 'professional' }]);
  });
});
