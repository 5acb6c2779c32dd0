// The contract suite against a real EventStoreDB: the server named by EVENTSTORE_CONNECTION_STRING,
// else a throw-away container started through testcontainers when a Docker engine answers, else
// skipped (with one line saying why) rather than passing without having run.
import { tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { EventStoreDBClient } from '@eventstore/db-client';
import { getContainerRuntimeClient, GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { InvalidPositionError, type EventStore, type RecordedEvent } from './event-store.port.js';
import { openEventStore } from './open-event-store.js';
import { describeEventStoreContract } from './testing/event-store.contract.js';
import { describePersonalKeysContract } from './testing/personal-keys.contract.js';
import { openPersonalKeys } from './open-event-store.js';

const IMAGE = 'eventstore/eventstore:24.10';
const DOCKER_PROBE_MS = 10_000;

type Target = { kind: 'external'; connectionString: string } | { kind: 'container' } | { kind: 'skip'; reason: string };

async function chooseTarget(): Promise<Target> {
  const external = process.env.EVENTSTORE_CONNECTION_STRING?.trim();
  if (external) return { kind: 'external', connectionString: external };
  try {
    let timer: NodeJS.Timeout | undefined;
    const probeTimedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${DOCKER_PROBE_MS} ms`)), DOCKER_PROBE_MS);
    });
    await Promise.race([getContainerRuntimeClient(), probeTimedOut]).finally(() => clearTimeout(timer));
    return { kind: 'container' };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      kind: 'skip',
      reason: `no Docker engine is reachable (${why}) and EVENTSTORE_CONNECTION_STRING is not set`,
    };
  }
}

const target = await chooseTarget();
let connectionString = target.kind === 'external' ? target.connectionString : '';
let container: StartedTestContainer | undefined;

if (target.kind === 'skip') {
  process.stdout.write(`EventStoreDB contract suite SKIPPED: ${target.reason}.\n`);
} else {
  // Every call crosses the network: more room than the embedded store needs.
  jest.setTimeout(30_000);
}

if (target.kind === 'container') {
  beforeAll(async () => {
    container = await new GenericContainer(IMAGE)
      .withEnvironment({
        EVENTSTORE_INSECURE: 'true',
        EVENTSTORE_RUN_PROJECTIONS: 'All',
        EVENTSTORE_START_STANDARD_PROJECTIONS: 'true',
        EVENTSTORE_MEM_DB: 'true',
        EVENTSTORE_CLUSTER_SIZE: '1',
      })
      .withExposedPorts(2113)
      .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
      .withStartupTimeout(120_000)
      .start();
    connectionString = `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
  }, 300_000);

  afterAll(async () => {
    await container?.stop();
  });
}

describeEventStoreContract(
  `EventStoreDB (${target.kind === 'external' ? 'EVENTSTORE_CONNECTION_STRING' : IMAGE})`,
  async () => ({
    open: () => openEventStore({ dataDir: tmpdir(), connectionString }),
    // The server (or its in-memory container) owns the data; each run writes under its own stream prefix.
    dispose: async () => undefined,
    // What an operator does in the UI or with any client: a delete (soft) or a tombstone (hard).
    deleteStream: async (streamId, how) => {
      const operator = EventStoreDBClient.connectionString(connectionString);
      try {
        if (how === 'soft') await operator.deleteStream(streamId);
        else await operator.tombstoneStream(streamId);
      } finally {
        await operator.dispose();
      }
    },
  }),
  target.kind === 'skip' ? { skip: target.reason } : {},
);

// Erased keys' bytes stay in the server's chunks until a scavenge, which the suite does not run: no byte check.
describePersonalKeysContract(
  `EventStoreDB (${target.kind === 'external' ? 'EVENTSTORE_CONNECTION_STRING' : IMAGE})`,
  async () => ({
    open: () => openPersonalKeys({ dataDir: tmpdir(), connectionString }),
    keepsErasureTimes: false,
    dispose: async () => undefined,
  }),
  target.kind === 'skip' ? { skip: target.reason } : {},
);

// What only EventStoreDB can do: positions that are bytes of its log, so a position may fall between records.
(target.kind === 'skip' ? describe.skip : describe)('EventStoreDB positions', () => {
  let store: EventStore;
  beforeAll(async () => {
    store = await openEventStore({ dataDir: tmpdir(), connectionString });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('refuses a subscription from inside a record of the log with InvalidPositionError instead of retrying forever', async () => {
    const stream = `positions-${randomUUID()}`;
    const { position } = await store.append(
      stream,
      [
        {
          id: randomUUID(),
          type: 'Positioned',
          data: {},
          metadata: { actor: 'test', correlationId: 'c', causationId: 'c' },
        },
      ],
      'no_stream',
    );
    const errors: Error[] = [];
    const delivered: RecordedEvent[] = [];

    const subscription = store.subscribeToAll({
      fromPosition: position + 1n,
      onEvent: (event) => void delivered.push(event),
      onError: (error) => void errors.push(error),
    });
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (errors.length === 0) return;
        clearInterval(check);
        resolve();
      }, 20);
    });

    expect(errors[0]).toBeInstanceOf(InvalidPositionError);
    expect(delivered).toEqual([]);
    await subscription.close();
  });
});
