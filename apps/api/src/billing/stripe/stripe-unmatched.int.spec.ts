// Keeping an unmatched Stripe event costs the same however many were kept before: each is on a stream of its
// own, so the 2,000th reads what the first did. Counted with a wrapper around the store, not timed (one stream
// for all was read whole for each: 12 ms at the first, 400 ms at the 2,800th).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type Stripe from 'stripe';
import { createPlanCatalogue } from '#domain';
import { SqliteEventStore, type EventStore } from '#event-store';
import { ChorusMetrics } from '../../metrics/chorus-metrics.js';
import { OrganizationStateCache, Organizations } from '../../organizations/organizations.service.js';
import { StripeWebhooks } from './stripe-webhooks.js';

const KEPT = 2_000;
const catalogue = createPlanCatalogue({ paymentProviderIds: ['prod_ess'] });
let dataDir: string;
let store: SqliteEventStore;
const reads = { calls: 0, events: 0 };

/** The store, counting every read call and every event it answers. */
function counted(target: SqliteEventStore): EventStore {
  const count = <T>(answer: T, events: number): T => {
    reads.calls += 1;
    reads.events += events;
    return answer;
  };
  return new Proxy(target, {
    get(inner, property, receiver) {
      if (property === 'readStream') {
        return async (...args: Parameters<EventStore['readStream']>) => {
          const read = await inner.readStream(...args);
          return count(read, read.found ? read.events.length : 0);
        };
      }
      if (property === 'readAll' || property === 'readLog' || property === 'readLogByStream') {
        return async (options: never) => {
          const events = await (inner[property] as (options: never) => Promise<unknown[]>)(options);
          return count(events, events.length);
        };
      }
      const value: unknown = Reflect.get(inner, property, receiver);
      return typeof value === 'function' ? value.bind(inner) : value;
    },
  });
}

/** invoice.paid naming no subscription: Chorus cannot place it (NO_SUBSCRIPTION). */
const unplaceable = (index: number) =>
  ({
    id: `evt_unmatched_${index}`,
    object: 'event',
    type: 'invoice.paid',
    created: 1_800_000_000 + index,
    data: { object: { id: `in_${index}`, object: 'invoice' } },
  }) as unknown as Stripe.Event;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-stripe-unmatched-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
});

afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it(`keeps each of ${KEPT} unmatched events with the same store reads as the first, and a redelivery once`, async () => {
  const held = counted(store);
  const organizations = new Organizations(held, new OrganizationStateCache(), catalogue);
  const webhooks = new StripeWebhooks(
    held,
    catalogue,
    organizations,
    new ChorusMetrics(async () => ({ ready: true }) as never),
  );
  const readsOf = async (event: Stripe.Event) => {
    Object.assign(reads, { calls: 0, events: 0 });
    const receipt = await webhooks.receive(event);
    return { outcome: receipt.outcome, duplicate: receipt.duplicate, ...reads };
  };

  const first = await readsOf(unplaceable(1));
  expect(first).toEqual({ outcome: 'unmatched', duplicate: false, calls: 1, events: 0 });
  for (let index = 2; index <= KEPT; index += 1) {
    // Fails at the first event that reads more than the first did.
    expect({ index, ...(await readsOf(unplaceable(index))) }).toEqual({ index, ...first });
  }

  expect(await readsOf(unplaceable(KEPT))).toEqual({ outcome: 'unmatched', duplicate: true, calls: 1, events: 1 });
  expect(await readsOf(unplaceable(1))).toEqual({ outcome: 'unmatched', duplicate: true, calls: 1, events: 1 });
}, 60_000);
