// The race the sync's second look exists for, made to happen every time: on one node an older event of a
// subscription reads it before a newer one is recorded on another node, and its write to the organization
// lands after the newer one's. The organization must still end in the newest state (this fails when the
// sync does not look again). One node runs one command per stream at a time, so it takes two.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import type Stripe from 'stripe';
import { createPlanCatalogue, organizationStream, type ExistingOrganization } from '#domain';
import { SqliteEventStore, type EventStore } from '#event-store';
import { ChorusMetrics } from '../../metrics/chorus-metrics.js';
import { OrganizationStateCache } from '../../organizations/organizations.service.js';
import { Organizations } from '../../organizations/organizations.service.js';
import { StripeWebhooks } from './stripe-webhooks.js';

const catalogue = createPlanCatalogue({ paymentProviderIds: ['prod_ess', 'prod_pro'] });
let dataDir: string;
let store: SqliteEventStore;
let hold: ((stripeEventId: string) => Promise<void>) | undefined;

/** customer.subscription.updated, in Stripe's shape, for plan `product` made at `created`. */
const updated = (id: string, product: string, created: number) =>
  ({
    id,
    object: 'event',
    type: 'customer.subscription.updated',
    created,
    data: {
      object: {
        id: 'sub_race',
        object: 'subscription',
        status: 'active',
        metadata: { organization_id: 'acme' },
        cancel_at_period_end: false,
        items: {
          object: 'list',
          data: [
            {
              quantity: 1,
              current_period_start: created,
              current_period_end: created + 2_592_000,
              price: { id: `price_${product}`, product },
            },
          ],
        },
      },
    },
  }) as unknown as Stripe.Event;

/** A node: the real store behind a proxy of its own (so its commands queue apart from the other node's). */
function node(): { webhooks: StripeWebhooks; organizations: Organizations } {
  // An append to the organization's stream waits while `hold` says so for its Stripe event.
  const held = new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'append') {
        return async (...args: Parameters<EventStore['append']>) => {
          const stripeEventId = args[1][0]?.metadata.stripeEventId;
          if (args[0] === organizationStream('acme') && typeof stripeEventId === 'string') await hold?.(stripeEventId);
          return target.append(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const organizations = new Organizations(held, new OrganizationStateCache(), catalogue);
  return {
    organizations,
    webhooks: new StripeWebhooks(
      held,
      catalogue,
      organizations,
      new ChorusMetrics(async () => ({ ready: true }) as never),
    ),
  };
}

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-stripe-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  const { organizations } = node();
  await organizations.handle(
    'acme',
    { type: 'CreateOrganization', data: { id: 'acme', name: 'Acme' } },
    { actor: 'cli', correlationId: 'c', causationId: 'c', origin: {} },
  );
});

afterEach(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('an older event whose write lands after a newer one’s leaves the organization in the newest state', async () => {
  let newerWritten!: () => void;
  const newerDone = new Promise<void>((resolve) => (newerWritten = resolve));
  let olderWaiting!: () => void;
  const olderHeld = new Promise<void>((resolve) => (olderWaiting = resolve));
  hold = async (stripeEventId) => {
    if (stripeEventId === 'evt_older') {
      olderWaiting();
      await newerDone;
    }
  };

  const [first, second] = [node(), node()];
  const older = first.webhooks.receive(updated('evt_older', 'prod_ess', 1_800_000_000));
  await olderHeld;
  await second.webhooks.receive(updated('evt_newer', 'prod_pro', 1_800_000_100));
  hold = undefined;
  newerWritten();
  await older;

  const { state } = await node().organizations.load('acme');
  expect((state as ExistingOrganization).plans.classic).toBe('professional');
});
