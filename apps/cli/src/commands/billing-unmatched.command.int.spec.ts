// `chorus billing:unmatched` lists every kept Stripe event once, oldest first: those on streams of their own
// (read by stream, or from the log by a store that cannot) and those an earlier version kept on one stream.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { Command } from 'commander';
import {
  STRIPE_UNMATCHED_STREAM,
  stripeUnmatchedStream,
  type StripeEventUnmatched,
  type UnmatchedReason,
} from '#domain';
import { SqliteEventStore, type EventStore, type EventToAppend } from '#event-store';
import type { CliContext } from '../cli-context.js';
import { registerBillingUnmatchedCommand } from './billing-unmatched.command.js';

let dataDir: string;
let store: SqliteEventStore;

const kept = (eventId: string, reason: UnmatchedReason): EventToAppend => {
  const data: StripeEventUnmatched['data'] = {
    eventId,
    eventType: 'invoice.paid',
    created: 1_800_000_000,
    subscriptionId: null,
    organizationId: null,
    reason,
    detail: reason,
  };
  return {
    id: randomUUID(),
    type: 'StripeEventUnmatched',
    data,
    metadata: { actor: 'stripe', correlationId: eventId, causationId: eventId },
  };
};

/** What `chorus billing:unmatched --json` prints for `store`: event ids and reasons. */
async function listed(from: EventStore): Promise<[string, string][]> {
  const program = new Command('chorus').exitOverride();
  registerBillingUnmatchedCommand(program, async () => ({ app: { get: () => from } }) as unknown as CliContext);
  const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  let printed: string;
  try {
    await program.parseAsync(['billing:unmatched', '--json'], { from: 'user' });
    printed = write.mock.calls.map(([chunk]) => String(chunk)).join('');
  } finally {
    write.mockRestore();
  }
  const { events } = JSON.parse(printed) as { events: { eventId: string; reason: string; receivedAt: string }[] };
  expect(events.every((event) => typeof event.receivedAt === 'string')).toBe(true);
  return events.map((event) => [event.eventId, event.reason]);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-billing-unmatched-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  // Kept by an earlier version, on one stream.
  await store.append(
    STRIPE_UNMATCHED_STREAM,
    [kept('evt_a', 'UNKNOWN_PRICE'), kept('evt_b', 'NO_ORGANIZATION')],
    'no_stream',
  );
  await store.append(
    'organization-acme',
    [{ ...kept('evt_x', 'NO_SUBSCRIPTION'), type: 'OrganizationCreated', data: { id: 'acme', name: 'Acme' } }],
    'no_stream',
  );
  // Since: each on its own; evt_b delivered again after the upgrade.
  for (const [eventId, reason] of [
    ['evt_c', 'FOREIGN_CUSTOMER'],
    ['evt_b', 'NO_ORGANIZATION'],
    ['evt_0', 'UNKNOWN_ORGANIZATION'],
  ] as const) {
    await store.append(stripeUnmatchedStream(eventId), [kept(eventId, reason)], 'no_stream');
  }
});

afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const expected = [
  ['evt_a', 'UNKNOWN_PRICE'],
  ['evt_b', 'NO_ORGANIZATION'],
  ['evt_c', 'FOREIGN_CUSTOMER'],
  ['evt_0', 'UNKNOWN_ORGANIZATION'],
];

it('lists the events on their own streams and on the earlier one, once each, oldest first', async () => {
  expect(await listed(store)).toEqual(expected);
});

it('lists the same from a store that cannot read by stream (the log, filtered)', async () => {
  expect(await listed(Object.create(store, { readLogByStream: { value: undefined } }) as EventStore)).toEqual(expected);
});
