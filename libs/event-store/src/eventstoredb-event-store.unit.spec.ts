// The EventStoreDB adapter driven through a simulated server (testing/simulated-eventstoredb.ts), so its
// own logic (idempotency read-back, pinning of 'any', $all paging, system-event filtering, caught-up
// signal, reconnects) runs everywhere. The real server runs the same contract in the .int spec.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { EventToAppend, RecordedEvent } from './event-store.port.js';
import { EventStoreDbEventStore } from './eventstoredb-event-store.js';
import { describeEventStoreContract } from './testing/event-store.contract.js';
import { SimulatedEventStoreDb } from './testing/simulated-eventstoredb.js';

describeEventStoreContract('The EventStoreDB adapter on a simulated server without duplicate detection', async () => {
  const server = new SimulatedEventStoreDb();
  return { open: async () => new EventStoreDbEventStore(server.connect()), dispose: async () => undefined };
});

function anEvent(): EventToAppend {
  return { id: randomUUID(), type: 'SomethingHappened', data: { value: 1 }, metadata: { actor: 'user:test', correlationId: 'c', causationId: 'c' } };
}

describe('The EventStoreDB adapter', () => {
  const stores: EventStoreDbEventStore[] = [];
  const connect = (server: SimulatedEventStoreDb) => {
    const store = new EventStoreDbEventStore(server.connect());
    stores.push(store);
    return store;
  };

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  it('re-subscribes after the connection drops and resumes after the last delivered event', async () => {
    const server = new SimulatedEventStoreDb();
    const store = connect(server);
    const received: RecordedEvent[] = [];
    const caughtUp: number[] = [];
    const waiters: Array<() => void> = [];
    const changed = () => waiters.splice(0).forEach((wake) => wake());
    const until = async (condition: () => boolean) => {
      while (!condition()) await new Promise<void>((resolve) => waiters.push(resolve));
    };
    const subscription = store.subscribeToAll({
      onEvent: (event) => {
        received.push(event);
        changed();
      },
      onCaughtUp: () => {
        caughtUp.push(received.length);
        changed();
      },
    });
    const first = [anEvent(), anEvent(), anEvent()];
    await store.append('org-1', first, 'no_stream');
    await until(() => received.length === 3 && caughtUp.length === 1);

    server.dropSubscriptions();
    const second = [anEvent(), anEvent()];
    await store.append('org-1', second, 2n);
    await until(() => received.length >= 5 && caughtUp.length === 2);

    expect(received.map((event) => event.id)).toEqual([...first, ...second].map((event) => event.id));
    expect(server.liveSubscriptions()).toBe(1);
    await subscription.close();
    expect(server.liveSubscriptions()).toBe(0);
  });

  it('answers a repeated append from the stream although the server wrote nothing twice on its own', async () => {
    const server = new SimulatedEventStoreDb();
    const store = connect(server);
    const created = [anEvent(), anEvent()];
    const original = await store.append('org-1', created, 'no_stream');
    await store.append('org-1', [anEvent()], 1n);

    await expect(store.append('org-1', created, 'no_stream')).resolves.toEqual(original);

    const read = await store.readStream('org-1');
    expect(read.found && read.events.length).toBe(3);
  });

  it('leaves the server its own system events in $all, in reads, the head and subscriptions', async () => {
    const server = new SimulatedEventStoreDb();
    const store = connect(server);
    let last = await store.append('org-1', [anEvent()], 'no_stream');
    for (let revision = 0n; revision < 5n; revision += 1n) last = await store.append('org-1', [anEvent()], revision);

    const all = await store.readAll();

    expect(all).toHaveLength(6);
    expect(all.every((event) => !event.streamId.startsWith('$') && !event.type.startsWith('$'))).toBe(true);
    expect(await store.headPosition()).toBe(last.position);
  });
});
