// The event-store contract: one suite, written once, run against every adapter.
// It shares one store between its tests (as EventStoreDB would be shared), so each test writes to
// streams of its own under a prefix unique to this run, and looks at $all through that prefix.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  AppendTooLargeError,
  EventStoreClosedError,
  InvalidPositionError,
  MAX_APPEND_SIZE,
  StreamDeletedError,
  WrongExpectedRevisionError,
  type AppendResult,
  type ChainedLog,
  type EnvelopePart,
  type EventStore,
  type EventToAppend,
  type ExactLog,
  type ExpectedRevision,
  type LogEvent,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type Subscription,
} from '../event-store.port.js';
import { chainLink } from '../event-chain.js';
import { importedAt } from './imported-event.js';
import { appendSize, serializeEvents } from '../request-validation.js';

export type EventStoreContractHarness = {
  /** Opens a store on the same storage every time it is called (the suite closes and reopens it). */
  open(): Promise<EventStore>;
  /** Releases the storage once the suite is done. */
  dispose(): Promise<void>;
  /**
   * Deletes a stream the way an operator can, behind Chorus's back: 'soft' (EventStoreDB's delete, the
   * UI's button) or 'hard' (its tombstone). The embedded store has one way (its deleted_streams table).
   */
  deleteStream(streamId: string, how: 'soft' | 'hard'): Promise<void>;
};

/** Room for a networked server; the embedded store needs a fraction of it. */
const SLOW_TEST_MS = 120_000;

export type EventStoreContractOptions = {
  /** Why this adapter cannot run here: the suite is registered as skipped. */
  skip?: string;
};

/** Records what a subscription delivers and lets a test wait for a condition on it. */
class Follower {
  readonly events: RecordedEvent[] = [];
  readonly caughtUp: Array<{ afterEvents: number; position: bigint | undefined }> = [];
  readonly errors: Error[] = [];
  readonly subscription: Subscription;
  private readonly waiting = new Set<() => void>();

  constructor(
    store: EventStore,
    options: Pick<SubscribeToAllOptions, 'fromPosition' | 'filter'>,
    handle?: (event: RecordedEvent) => Promise<void>,
  ) {
    this.subscription = store.subscribeToAll({
      ...options,
      onEvent: async (event) => {
        await handle?.(event);
        this.events.push(event);
        this.changed();
      },
      onCaughtUp: (position) => {
        this.caughtUp.push({ afterEvents: this.events.length, position });
        this.changed();
      },
      onError: (error) => {
        this.errors.push(error);
        this.changed();
      },
    });
  }

  /** Resolves once `condition` holds (the test's timeout is the only limit). */
  until(condition: () => boolean): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!condition()) return;
        this.waiting.delete(check);
        resolve();
      };
      this.waiting.add(check);
    });
  }

  untilEvents(count: number): Promise<void> {
    return this.until(() => this.events.length >= count);
  }

  ids(): string[] {
    return this.events.map((event) => event.id);
  }

  private changed(): void {
    for (const check of [...this.waiting]) check();
  }
}

function anEvent(type = 'SomethingHappened', data: unknown = { value: 1 }): EventToAppend {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { actor: 'user:contract', correlationId: randomUUID(), causationId: randomUUID(), sourceIp: '127.0.0.1' },
  };
}

function events(count: number, type?: string): EventToAppend[] {
  return Array.from({ length: count }, (_, index) => anEvent(type, { index }));
}

async function conflictOf(attempt: Promise<unknown>): Promise<WrongExpectedRevisionError> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof WrongExpectedRevisionError)) {
    throw new Error(`expected a WrongExpectedRevisionError, got ${error === undefined ? 'success' : String(error)}`);
  }
  return error;
}

export function describeEventStoreContract(
  name: string,
  createHarness: () => Promise<EventStoreContractHarness>,
  options: EventStoreContractOptions = {},
): void {
  const describeOrSkip = options.skip === undefined ? describe : describe.skip;

  describeOrSkip(`${name} meets the event store contract`, () => {
    const run = `contract${randomUUID().slice(0, 8)}`;
    let harness: EventStoreContractHarness | undefined;
    let store: EventStore;
    const streamOf = (label: string) => `${run}-${label}-${randomUUID()}`;
    const ofThisRun = (list: readonly RecordedEvent[]) => list.filter((event) => event.streamId.startsWith(`${run}-`));

    beforeAll(async () => {
      harness = await createHarness();
      store = await harness.open();
    }, SLOW_TEST_MS);

    afterAll(async () => {
      await store?.close();
      await harness?.dispose();
    });

    describe('expected revisions', () => {
      it('no_stream creates the stream at revision 0 and records every field', async () => {
        const stream = streamOf('create');
        const event = anEvent('OrganizationCreated', { name: 'Acme', nested: { list: [1, 'two', null], flag: true } });

        const result = await store.append(stream, [event], 'no_stream');

        expect(result.nextExpectedRevision).toBe(0n);
        const read = await store.readStream(stream);
        if (!read.found) throw new Error('stream not found');
        expect(read.events).toHaveLength(1);
        const [recorded] = read.events;
        expect(recorded).toEqual({
          id: event.id,
          streamId: stream,
          type: 'OrganizationCreated',
          data: event.data,
          metadata: event.metadata,
          recordedAt: expect.any(String),
          revision: 0n,
          position: result.position,
        });
        expect(new Date(recorded?.recordedAt ?? '').toISOString()).toBe(recorded?.recordedAt);
      });

      it('no_stream on an existing stream is a conflict naming the current revision', async () => {
        const stream = streamOf('no-stream');
        await store.append(stream, events(2), 'no_stream');

        const conflict = await conflictOf(store.append(stream, [anEvent()], 'no_stream'));

        expect(conflict).toMatchObject({
          code: 'CONCURRENCY_CONFLICT',
          streamId: stream,
          expected: 'no_stream',
          actual: 1n,
        });
      });

      it('stream_exists needs the stream, and then appends', async () => {
        const stream = streamOf('exists');

        const conflict = await conflictOf(store.append(stream, [anEvent()], 'stream_exists'));
        expect(conflict).toMatchObject({ expected: 'stream_exists', actual: 'no_stream' });

        await store.append(stream, [anEvent()], 'no_stream');
        await expect(store.append(stream, [anEvent()], 'stream_exists')).resolves.toMatchObject({
          nextExpectedRevision: 1n,
        });
      });

      it('any appends whether or not the stream exists', async () => {
        const stream = streamOf('any');

        await expect(store.append(stream, [anEvent()], 'any')).resolves.toMatchObject({ nextExpectedRevision: 0n });
        await expect(store.append(stream, events(2), 'any')).resolves.toMatchObject({ nextExpectedRevision: 2n });
      });

      it('an exact revision must be the current one', async () => {
        const stream = streamOf('exact');

        expect(await conflictOf(store.append(stream, [anEvent()], 0n))).toMatchObject({
          expected: 0n,
          actual: 'no_stream',
        });
        await store.append(stream, events(3), 'no_stream');
        await expect(store.append(stream, [anEvent()], 2n)).resolves.toMatchObject({ nextExpectedRevision: 3n });
        expect(await conflictOf(store.append(stream, [anEvent()], 2n))).toMatchObject({ expected: 2n, actual: 3n });
        expect(await conflictOf(store.append(stream, [anEvent()], 9n))).toMatchObject({ expected: 9n, actual: 3n });
        await expect(store.append(stream, [anEvent()], 3n)).resolves.toMatchObject({ nextExpectedRevision: 4n });
      });
    });

    describe('batches', () => {
      it('a batch takes consecutive revisions and increasing positions, and answers the last', async () => {
        const stream = streamOf('batch');
        const batch = events(4);

        const result = await store.append(stream, batch, 'no_stream');

        const read = await store.readStream(stream);
        if (!read.found) throw new Error('stream not found');
        expect(read.events.map((event) => event.id)).toEqual(batch.map((event) => event.id));
        expect(read.events.map((event) => event.revision)).toEqual([0n, 1n, 2n, 3n]);
        const positions = read.events.map((event) => event.position);
        expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);
        expect(new Set(positions).size).toBe(4);
        expect(result).toEqual({ nextExpectedRevision: 3n, position: positions[3] });
      });

      it('a batch refused for its expected revision writes none of its events', async () => {
        const stream = streamOf('refused');
        await store.append(stream, [anEvent()], 'no_stream');
        const headBefore = await store.headPosition();

        await conflictOf(store.append(stream, events(3), 5n));

        const read = await store.readStream(stream);
        expect(read.found && read.events).toHaveLength(1);
        expect(await store.headPosition()).toBe(headBefore);
      });

      it('an append refused for its last event writes none of the others', async () => {
        const stream = streamOf('unstorable');
        const batch = [...events(2), anEvent('Broken', { amount: 10n })];

        await expect(store.append(stream, batch, 'no_stream')).rejects.toThrow();

        expect(await store.readStream(stream)).toEqual({ found: false });
      });

      it('refuses appends no store could keep faithfully', async () => {
        const stream = streamOf('invalid');
        const event = anEvent();

        await expect(store.append(stream, [], 'any')).rejects.toThrow(RangeError);
        await expect(store.append(stream, [event, { ...event }], 'any')).rejects.toThrow(RangeError);
        await expect(store.append(stream, [{ ...event, id: 'not-a-uuid' }], 'any')).rejects.toThrow(RangeError);
        await expect(store.append(stream, [{ ...event, id: event.id.toUpperCase() }], 'any')).rejects.toThrow(
          RangeError,
        );
        await expect(store.append(stream, [{ ...event, type: '$system' }], 'any')).rejects.toThrow(RangeError);
        await expect(store.append(`$${stream}`, [event], 'any')).rejects.toThrow(RangeError);
        await expect(store.append(stream, [event], -1n)).rejects.toThrow(RangeError);
        expect(await store.readStream(stream)).toEqual({ found: false });
      });
    });

    describe('appends to several streams', () => {
      const read = async (stream: string): Promise<RecordedEvent[]> => {
        const result = await store.readStream(stream);
        return result.found ? result.events : [];
      };

      it('writes every part at its own revisions, positions increasing in the order of the parts', async () => {
        const [claim, organization] = [streamOf('claim'), streamOf('organization')];
        await store.append(organization, events(2), 'no_stream');
        const [claimEvent, added] = [anEvent('IdentifierReserved'), events(2, 'MemberAdded')];

        const results = await store.appendToStreams([
          { streamId: claim, events: [claimEvent], expectedRevision: 'no_stream' },
          { streamId: organization, events: added, expectedRevision: 1n },
        ]);

        const [claimRead, organizationRead] = [await read(claim), await read(organization)];
        expect(claimRead.map((event) => [event.id, event.revision])).toEqual([[claimEvent.id, 0n]]);
        expect(organizationRead.slice(2).map((event) => [event.id, event.revision])).toEqual(
          added.map((event, index) => [event.id, BigInt(2 + index)]),
        );
        const positions = [...claimRead, ...organizationRead.slice(2)].map((event) => event.position);
        expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);
        expect(results).toEqual([
          { nextExpectedRevision: 0n, position: positions[0] },
          { nextExpectedRevision: 3n, position: positions[2] },
        ]);
        const all = ofThisRun(await store.readAll({ fromPosition: (positions[0] as bigint) - 1n }));
        expect(all.map((event) => event.id)).toEqual([claimEvent.id, ...added.map((event) => event.id)]);
      });

      it('a part whose expected revision does not hold is a conflict naming its stream, and writes no part', async () => {
        const [claim, organization] = [streamOf('claim'), streamOf('organization')];
        await store.append(organization, events(2), 'no_stream');
        const headBefore = await store.headPosition();

        const conflict = await conflictOf(
          store.appendToStreams([
            { streamId: claim, events: [anEvent()], expectedRevision: 'no_stream' },
            { streamId: organization, events: [anEvent()], expectedRevision: 0n },
          ]),
        );

        expect(conflict).toMatchObject({ streamId: organization, expected: 0n, actual: 1n });
        if (store.appendsAcrossStreamsAtomically) {
          expect(await read(claim)).toEqual([]);
          expect(await store.headPosition()).toBe(headBefore);
          // Nothing of the undone part is remembered either: the stream still takes its first append.
          await expect(store.append(claim, [anEvent()], 'no_stream')).resolves.toMatchObject({
            nextExpectedRevision: 0n,
          });
        } else {
          // Part by part (EventStoreDB): the part before the conflict stays written; a retry reads it.
          expect(await read(claim)).toHaveLength(1);
        }
        expect(await read(organization)).toHaveLength(2);
      });

      it('repeating an append to several streams answers the original results and writes nothing', async () => {
        const [claim, organization] = [streamOf('claim'), streamOf('organization')];
        await store.append(organization, events(1), 'no_stream');
        const appends = [
          { streamId: claim, events: [anEvent()], expectedRevision: 'no_stream' as const },
          { streamId: organization, events: [anEvent()], expectedRevision: 0n },
        ];
        const first = await store.appendToStreams(appends);
        const headAfter = await store.headPosition();

        await expect(store.appendToStreams(appends)).resolves.toEqual(first);

        expect(await store.headPosition()).toBe(headAfter);
        expect(await read(organization)).toHaveLength(2);
      });

      it('refuses no part, the same stream twice, and a part no store could keep, writing nothing', async () => {
        const stream = streamOf('twice');
        const headBefore = await store.headPosition();

        await expect(store.appendToStreams([])).rejects.toThrow(RangeError);
        await expect(
          store.appendToStreams([
            { streamId: stream, events: [anEvent()], expectedRevision: 'no_stream' },
            { streamId: stream, events: [anEvent()], expectedRevision: 0n },
          ]),
        ).rejects.toThrow(RangeError);
        await expect(
          store.appendToStreams([
            { streamId: stream, events: [anEvent()], expectedRevision: 'no_stream' },
            { streamId: streamOf('other'), events: [], expectedRevision: 'no_stream' },
          ]),
        ).rejects.toThrow(RangeError);

        expect(await read(stream)).toEqual([]);
        expect(await store.headPosition()).toBe(headBefore);
      });

      it(
        'of two commands racing for one stream, one writes all its parts and the other none of them',
        async () => {
          const shared = streamOf('shared');
          await store.append(shared, [anEvent()], 'no_stream');
          const own = [streamOf('first'), streamOf('second')];

          const outcomes = await Promise.allSettled(
            own.map((stream) =>
              store.appendToStreams([
                { streamId: stream, events: [anEvent()], expectedRevision: 'no_stream' },
                { streamId: shared, events: [anEvent()], expectedRevision: 0n },
              ]),
            ),
          );

          expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
          const winner = outcomes.findIndex((outcome) => outcome.status === 'fulfilled');
          expect(await read(shared)).toHaveLength(2);
          expect(await read(own[winner] as string)).toHaveLength(1);
          if (store.appendsAcrossStreamsAtomically) expect(await read(own[1 - winner] as string)).toEqual([]);
        },
        SLOW_TEST_MS,
      );
    });

    describe('the log as stored (backups, restores, copies)', () => {
      const exact = (): ExactLog | undefined =>
        'exportEvents' in store ? (store as EventStore & ExactLog) : undefined;
      const at = importedAt;

      it('exports events with their data and metadata as the texts stored', async () => {
        const log = exact();
        if (log === undefined) return;
        const stream = streamOf('export');
        const event = anEvent('Exported', { name: 'Zoë', nested: { list: [1, 2.5, null] } });
        const { position } = await store.append(stream, [event], 'no_stream');

        const [exported] = await log.exportEvents(position - 1n, 1);

        expect(exported).toEqual({
          position,
          streamId: stream,
          revision: 0n,
          id: event.id,
          type: 'Exported',
          data: JSON.stringify(event.data),
          metadata: JSON.stringify(event.metadata),
          recordedAt: expect.any(String),
        });
      });

      it('imports events at their own positions, ids and times, and they read back as exported', async () => {
        const log = exact();
        if (log === undefined) return;
        const stream = streamOf('import');
        const head = (await store.headPosition()) ?? 0n;
        const events = [at(head + 10n, stream, 0n), at(head + 12n, stream, 1n)];

        await log.importEvents([events]);

        expect(await log.exportEvents(head, 10)).toEqual(events);
        const read = await store.readStream(stream);
        expect(read.found && read.events.map((event) => [event.position, event.recordedAt])).toEqual([
          [head + 10n, '2020-02-29T12:34:56.789Z'],
          [head + 12n, '2020-02-29T12:34:56.789Z'],
        ]);
        // Appends go on after the imported head, in the stream after its imported revision.
        const next = await store.append(stream, [anEvent()], 1n);
        expect(next.position).toBeGreaterThan(head + 12n);
      });

      it('imports texts byte for byte: tabs, line breaks, carriage returns, backslashes and any character', async () => {
        const log = exact();
        if (log === undefined) return;
        const stream = streamOf('import-texts');
        const head = (await store.headPosition()) ?? 0n;
        const event = {
          ...at(head + 1n, stream, 0n),
          type: '\\N', // COPY's NULL, were it not escaped
          data: '{\n\t"text": "a\\ttab, a\\nline, a \\\\ and Zoë 🎉",\r\n "raw": "\\\\N"}',
          metadata: '{"actor":"cli","note":"\\u0000 stays text"}\n',
        };

        await log.importEvents([[event]]);

        expect(await log.exportEvents(head, 1)).toEqual([event]);
      });

      it('refuses, writing none, an import before the head or that skips a revision', async () => {
        const log = exact();
        if (log === undefined) return;
        const stream = streamOf('refused-import');
        const head = (await store.headPosition()) ?? 0n;

        await expect(log.importEvents([[at(head + 1n, stream, 0n), at(head, stream, 1n)]])).rejects.toThrow(RangeError);
        await expect(log.importEvents([[at(head + 1n, stream, 0n), at(head + 2n, stream, 2n)]])).rejects.toThrow(
          RangeError,
        );

        expect(await store.readStream(stream)).toEqual({ found: false });
        // A stream the log holds does not start again at revision 0.
        const held = streamOf('held');
        const { position } = await store.append(held, [anEvent()], 'no_stream');
        await expect(log.importEvents([[at(position + 1n, stream, 0n), at(position + 2n, held, 0n)]])).rejects.toThrow(
          RangeError,
        );
        expect(await store.readStream(stream)).toEqual({ found: false });
        expect(await store.headPosition()).toBe(position);
      });

      it("keeps an imported event's hash as it is, and chains one without a hash on from the event before", async () => {
        const log = exact();
        if (log === undefined || !('readChain' in store)) return;
        const chain = store as EventStore & ChainedLog;
        const stream = streamOf('import-hashes');
        const head = (await store.headPosition()) ?? 0n;
        // Not the hash its place and bytes give: a source changed behind its chain, which a copy must not mend.
        const given = Buffer.alloc(32, 7);
        const [kept, linked] = [{ ...at(head + 1n, stream, 0n), hash: given }, at(head + 2n, stream, 1n)];

        await log.importEvents([[kept, { ...linked, hash: null }]]);

        const [first, second] = await chain.readChain(head, 2);
        expect(first?.hash).toEqual(given);
        expect(second?.hash).toEqual(chainLink(given, linked));
      });

      it('imports batch after batch, a stream going on across them; a refused batch leaves those before it', async () => {
        const log = exact();
        if (log === undefined) return;
        const [one, two] = [streamOf('batches-one'), streamOf('batches-two')];
        const head = (await store.headPosition()) ?? 0n;
        async function* batches() {
          yield [at(head + 1n, one, 0n), at(head + 2n, two, 0n)];
          yield [];
          yield [at(head + 3n, one, 1n)];
          // `one` skips its revision 2: refused across the batch, whose first event is fine.
          yield [at(head + 5n, two, 1n), at(head + 6n, one, 3n)];
          yield [at(head + 7n, two, 2n)];
        }
        const imported: number[] = [];

        await expect(log.importEvents(batches(), (count) => imported.push(count))).rejects.toThrow(RangeError);

        expect(imported).toEqual([2, 1]);
        expect((await log.exportEvents(head, 10)).map((event) => [event.streamId, event.revision])).toEqual([
          [one, 0n],
          [two, 0n],
          [one, 1n],
        ]);
        expect(await store.headPosition()).toBe(head + 3n);
      });
    });

    describe('idempotency by event id', () => {
      it('repeating an append with its expected revision answers the original result and writes nothing', async () => {
        const stream = streamOf('replay-exact');
        const created = events(2);
        const first = await store.append(stream, created, 'no_stream');
        const changed = events(3);
        const second = await store.append(stream, changed, 1n);
        await store.append(stream, [anEvent()], 4n);

        await expect(store.append(stream, created, 'no_stream')).resolves.toEqual(first);
        await expect(store.append(stream, changed, 1n)).resolves.toEqual(second);

        const read = await store.readStream(stream);
        expect(read.found && read.events.length).toBe(6);
      });

      it('repeating the latest append with any or stream_exists answers the original result', async () => {
        const stream = streamOf('replay-any');
        await store.append(stream, [anEvent()], 'no_stream');
        const latest = events(2);
        const original = await store.append(stream, latest, 'any');

        await expect(store.append(stream, latest, 'any')).resolves.toEqual(original);
        await expect(store.append(stream, latest, 'stream_exists')).resolves.toEqual(original);

        const read = await store.readStream(stream);
        expect(read.found && read.events.length).toBe(3);
      });

      it('a partial overlap with stored events is a conflict and writes nothing', async () => {
        const stream = streamOf('overlap');
        const [a, b] = events(2) as [EventToAppend, EventToAppend];
        await store.append(stream, [a, b], 'no_stream');

        expect(await conflictOf(store.append(stream, [a, anEvent()], 'no_stream'))).toMatchObject({ actual: 1n });
        expect(await conflictOf(store.append(stream, [b, anEvent()], 0n))).toMatchObject({ actual: 1n });

        const read = await store.readStream(stream);
        expect(read.found && read.events.map((event) => event.id)).toEqual([a.id, b.id]);
      });
    });

    describe('reading', () => {
      it('$all holds the events of every stream in append order, positions increasing', async () => {
        const headBefore = await store.headPosition();
        const streams = [streamOf('all-a'), streamOf('all-b'), streamOf('all-c')];
        const appended: string[] = [];
        const revisions = new Map<string, ExpectedRevision>(streams.map((stream) => [stream, 'no_stream']));
        for (let round = 0; round < 4; round += 1) {
          for (const stream of streams) {
            const batch = events(1 + (round % 2));
            const result = await store.append(stream, batch, revisions.get(stream) ?? 'any');
            revisions.set(stream, result.nextExpectedRevision);
            appended.push(...batch.map((event) => event.id));
          }
        }

        const all = ofThisRun(await store.readAll(headBefore === undefined ? {} : { fromPosition: headBefore })).filter(
          (event) => streams.includes(event.streamId),
        );

        expect(all.map((event) => event.id)).toEqual(appended);
        for (let index = 1; index < all.length; index += 1) {
          expect((all[index]?.position ?? 0n) > (all[index - 1]?.position ?? 0n)).toBe(true);
        }
      });

      it('readAll from any position returns exactly the events after it, up to maxCount', async () => {
        const headBefore = await store.headPosition();
        const stream = streamOf('read-all');
        await store.append(stream, events(3), 'no_stream');
        await store.append(stream, events(2), 2n);
        const stored = await store.readStream(stream);
        if (!stored.found) throw new Error('stream not found');
        const mine = (list: readonly RecordedEvent[]) =>
          list.filter((event) => event.streamId === stream).map((event) => event.id);

        for (const [index, event] of stored.events.entries()) {
          const after = await store.readAll({ fromPosition: event.position });
          expect(mine(after)).toEqual(stored.events.slice(index + 1).map((later) => later.id));
          expect(after.every((later) => later.position > event.position)).toBe(true);
        }
        const firstTwo = await store.readAll({
          ...(headBefore === undefined ? {} : { fromPosition: headBefore }),
          maxCount: 2,
        });
        expect(firstTwo.map((event) => event.id)).toEqual(stored.events.slice(0, 2).map((event) => event.id));
        const last = stored.events[4];
        expect(await store.readAll({ fromPosition: last?.position ?? 0n, maxCount: 10 })).toEqual([]);
      });

      it('readLog returns what readAll does, with every envelope part asked for, and the same paging', async () => {
        const headBefore = await store.headPosition();
        const from = headBefore === undefined ? {} : { fromPosition: headBefore };
        const stream = streamOf('read-log');
        await store.append(
          stream,
          [anEvent('First', { nested: { list: [1, 'two', null] } }), ...events(3, 'Later')],
          'no_stream',
        );
        const all = (await store.readAll(from)).filter((event) => event.streamId === stream);
        const unchanging = ({ streamId, type, revision, position, data }: LogEvent) => ({
          streamId,
          type,
          revision,
          position,
          data,
        });
        const partsToAsk: ReadonlyArray<readonly EnvelopePart[]> = [
          [],
          ['id'],
          ['metadata'],
          ['recordedAt'],
          ['recordedAt', 'id'],
          ['id', 'metadata', 'recordedAt'],
        ];

        for (const parts of partsToAsk) {
          const log = (await store.readLog({ ...from, parts })).filter((event) => event.streamId === stream);
          expect(log.map(unchanging)).toEqual(all.map(unchanging));
          for (const [index, event] of log.entries()) {
            const recorded = all[index] as RecordedEvent;
            for (const part of parts) expect(event[part]).toEqual(recorded[part]);
            // Data is an own property like any other (spread, cloned), whenever the store parses it.
            expect({ ...event }.data).toEqual(recorded.data);
            expect(structuredClone(event).data).toEqual(recorded.data);
          }
        }
        const firstTwo = await store.readLog({ ...from, maxCount: 2, parts: [] });
        expect(firstTwo.map((event) => event.position)).toEqual(all.slice(0, 2).map((event) => event.position));
        const rest = await store.readLog({ fromPosition: all[1]?.position ?? 0n, parts: ['id'] });
        expect(rest.filter((event) => event.streamId === stream).map((event) => event.id)).toEqual(
          all.slice(2).map((event) => event.id),
        );
        expect(await store.readLog({ fromPosition: all[3]?.position ?? 0n, maxCount: 10, parts: [] })).toEqual([]);
      });

      it('readStream reads forwards and backwards from every revision, with maxCount', async () => {
        const stream = streamOf('read-stream');
        const batch = events(5);
        await store.append(stream, batch, 'no_stream');
        const ids = batch.map((event) => event.id);
        const idsOf = async (options: Parameters<EventStore['readStream']>[1]) => {
          const read = await store.readStream(stream, options);
          return read.found ? read.events.map((event) => event.id) : undefined;
        };

        expect(await idsOf({})).toEqual(ids);
        expect(await idsOf({ direction: 'backwards' })).toEqual([...ids].reverse());
        for (let revision = 0; revision < 5; revision += 1) {
          expect(await idsOf({ fromRevision: BigInt(revision) })).toEqual(ids.slice(revision));
          expect(await idsOf({ direction: 'backwards', fromRevision: BigInt(revision) })).toEqual(
            ids.slice(0, revision + 1).reverse(),
          );
          expect(await idsOf({ fromRevision: BigInt(revision), maxCount: 2 })).toEqual(
            ids.slice(revision, revision + 2),
          );
          expect(await idsOf({ direction: 'backwards', fromRevision: BigInt(revision), maxCount: 2 })).toEqual(
            ids.slice(Math.max(0, revision - 1), revision + 1).reverse(),
          );
        }
        expect(await idsOf({ maxCount: 1 })).toEqual(ids.slice(0, 1));
        expect(await idsOf({ direction: 'backwards', maxCount: 1 })).toEqual(ids.slice(4));
      });

      it('a missing stream reads as not found; reading past the end finds no events', async () => {
        const stream = streamOf('missing');

        expect(await store.readStream(stream)).toEqual({ found: false });
        expect(await store.readStream(stream, { direction: 'backwards' })).toEqual({ found: false });
        await store.append(stream, events(2), 'no_stream');
        expect(await store.readStream(stream, { fromRevision: 2n })).toEqual({ found: true, events: [] });
      });

      it('headPosition is the position of the last append, and ping answers', async () => {
        const stream = streamOf('head');
        await store.append(stream, [anEvent()], 'no_stream');
        const last = await store.append(stream, events(2), 0n);

        expect(await store.headPosition()).toBe(last.position);
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });

    describe('subscriptions to $all', () => {
      it('catch up in order, report being caught up, then follow live appends', async () => {
        const headBefore = await store.headPosition();
        const prefix = `${streamOf('follow')}-`;
        const [one, two] = [`${prefix}1`, `${prefix}2`];
        const stored = [...events(2), ...events(1)];
        await store.append(one, stored.slice(0, 2), 'no_stream');
        await store.append(two, stored.slice(2), 'no_stream');

        const follower = new Follower(store, {
          ...(headBefore === undefined ? {} : { fromPosition: headBefore }),
          filter: { streamPrefixes: [prefix] },
        });
        await follower.until(() => follower.caughtUp.length > 0);

        expect(follower.ids()).toEqual(stored.map((event) => event.id));
        expect(follower.caughtUp[0]?.afterEvents).toBe(3);
        expect((follower.caughtUp[0]?.position ?? 0n) >= (follower.events[2]?.position ?? 0n)).toBe(true);

        const live = [...events(2), ...events(1)];
        await store.append(two, live.slice(0, 2), 0n);
        await store.append(one, live.slice(2), 1n);
        await follower.untilEvents(6);

        expect(follower.ids()).toEqual([...stored, ...live].map((event) => event.id));
        expect(follower.events.map((event) => event.streamId)).toEqual([one, one, two, two, two, one]);
        expect(follower.errors).toEqual([]);
        await follower.subscription.close();
      });

      it('await each handler before delivering the next event', async () => {
        const prefix = `${streamOf('await')}-`;
        let running = 0;
        let mostAtOnce = 0;
        const follower = new Follower(store, { filter: { streamPrefixes: [prefix] } }, async () => {
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          await new Promise((resolve) => setTimeout(resolve, 2));
          running -= 1;
        });
        const batch = events(10);

        await store.append(`${prefix}x`, batch.slice(0, 5), 'no_stream');
        await store.append(`${prefix}x`, batch.slice(5), 4n);
        await follower.untilEvents(10);

        expect(mostAtOnce).toBe(1);
        expect(follower.ids()).toEqual(batch.map((event) => event.id));
        await follower.subscription.close();
      });

      it('start strictly after the given position', async () => {
        const stream = streamOf('from');
        const batch = events(4);
        await store.append(stream, batch, 'no_stream');
        const read = await store.readStream(stream);
        if (!read.found) throw new Error('stream not found');

        const follower = new Follower(store, {
          fromPosition: read.events[1]?.position ?? 0n,
          filter: { streamPrefixes: [stream] },
        });
        await follower.untilEvents(2);
        await follower.until(() => follower.caughtUp.length > 0);

        expect(follower.ids()).toEqual(batch.slice(2).map((event) => event.id));
        await follower.subscription.close();
      });

      it('filter by stream prefix, by event type, and by both', async () => {
        const base = streamOf('filter');
        const headBefore = await store.headPosition();
        const from = headBefore === undefined ? {} : { fromPosition: headBefore };
        const [orgA, orgB, user] = [`${base}-org-a`, `${base}-org-b`, `${base}-user-a`];
        const byPrefix = new Follower(store, { ...from, filter: { streamPrefixes: [`${base}-org-`] } });
        const byType = new Follower(store, { ...from, filter: { eventTypes: ['SiteAdded', 'MemberAdded'] } });
        const byBoth = new Follower(store, {
          ...from,
          filter: { streamPrefixes: [`${base}-org-a`, `${base}-user-`], eventTypes: ['SiteAdded'] },
        });

        const appended = [
          { stream: orgA, event: anEvent('OrganizationCreated') },
          { stream: orgB, event: anEvent('SiteAdded') },
          { stream: user, event: anEvent('SiteAdded') },
          { stream: orgA, event: anEvent('MemberAdded') },
          { stream: user, event: anEvent('UserRegistered') },
          { stream: orgA, event: anEvent('SiteAdded') },
        ];
        for (const { stream, event } of appended) await store.append(stream, [event], 'any');
        const idsWhere = (keep: (item: (typeof appended)[number]) => boolean) =>
          appended.filter(keep).map((item) => item.event.id);

        const expectedByPrefix = idsWhere((item) => item.stream !== user);
        const expectedByBoth = idsWhere((item) => item.stream !== orgB && item.event.type === 'SiteAdded');
        await byPrefix.untilEvents(expectedByPrefix.length);
        await byBoth.untilEvents(expectedByBoth.length);
        const mineByType = () => byType.events.filter((event) => event.streamId.startsWith(base));
        await byType.until(() => mineByType().length >= 4);

        expect(byPrefix.ids()).toEqual(expectedByPrefix);
        expect(byBoth.ids()).toEqual(expectedByBoth);
        expect(mineByType().map((event) => event.id)).toEqual(
          idsWhere((item) => ['SiteAdded', 'MemberAdded'].includes(item.event.type)),
        );
        expect(byType.events.every((event) => ['SiteAdded', 'MemberAdded'].includes(event.type))).toBe(true);
        await Promise.all([byPrefix, byType, byBoth].map((follower) => follower.subscription.close()));
      });

      it('refuse to start after the end of the log: onError gets InvalidPositionError, nothing is delivered', async () => {
        const head = (await store.headPosition()) ?? 0n;
        // Far past anything this run could append (EventStoreDB positions are bytes of its log).
        const follower = new Follower(store, { fromPosition: head + 2n ** 40n });

        await follower.until(() => follower.errors.length > 0);

        expect(follower.errors).toHaveLength(1);
        expect(follower.errors[0]).toBeInstanceOf(InvalidPositionError);
        expect(follower.errors[0]).toMatchObject({ code: 'INVALID_POSITION', position: head + 2n ** 40n });
        expect(follower.events).toEqual([]);
        expect(follower.caughtUp).toEqual([]);
        await follower.subscription.close();
      });

      it('close waits for the running handler, then nothing more is delivered', async () => {
        const prefix = `${streamOf('close')}-`;
        let openGate: () => void = () => undefined;
        const gate = new Promise<void>((resolve) => {
          openGate = resolve;
        });
        // A promise, not a flag for until(): the handler starts without the Follower noticing a change, and a store
        // whose subscriptions read concurrently may start it after the witness has its event.
        let handlerStarted: () => void = () => undefined;
        const started = new Promise<void>((resolve) => {
          handlerStarted = resolve;
        });
        const closing = new Follower(store, { filter: { streamPrefixes: [prefix] } }, async () => {
          handlerStarted();
          await gate;
        });
        const witness = new Follower(store, { filter: { streamPrefixes: [prefix] } });
        await store.append(`${prefix}x`, [anEvent()], 'no_stream');
        await witness.untilEvents(1);
        await started;

        let closed = false;
        const close = closing.subscription.close().then(() => {
          closed = true;
        });
        await new Promise((resolve) => setImmediate(resolve));
        expect(closed).toBe(false);
        openGate();
        await close;

        await store.append(`${prefix}x`, events(3), 0n);
        await witness.untilEvents(4);
        expect(closing.events).toHaveLength(1);
        expect(closing.errors).toEqual([]);
        await closing.subscription.close();
        await witness.subscription.close();
      });

      it('a handler that throws stops its subscription and reports the error', async () => {
        const prefix = `${streamOf('failing')}-`;
        const failure = new Error('projection failed');
        let calls = 0;
        const failing = new Follower(store, { filter: { streamPrefixes: [prefix] } }, async () => {
          calls += 1;
          if (calls === 2) throw failure;
        });
        const witness = new Follower(store, { filter: { streamPrefixes: [prefix] } });

        await store.append(`${prefix}x`, events(3), 'no_stream');
        await failing.until(() => failing.errors.length > 0);
        await store.append(`${prefix}x`, events(2), 2n);
        await witness.untilEvents(5);

        expect(failing.errors).toEqual([failure]);
        expect(failing.events).toHaveLength(1);
        expect(calls).toBe(2);
        await failing.subscription.close();
        await witness.subscription.close();
      });
    });

    describe('concurrency', () => {
      it(
        '1,000 concurrent appends racing for one revision: exactly one wins, every other is told the winner',
        async () => {
          const stream = streamOf('race');
          await store.append(stream, [anEvent()], 'no_stream');
          const contenders = events(1_000);

          const outcomes = await Promise.allSettled(contenders.map((event) => store.append(stream, [event], 0n)));

          const wins = outcomes.flatMap((outcome, index) =>
            outcome.status === 'fulfilled' ? [{ index, result: outcome.value }] : [],
          );
          expect(wins).toHaveLength(1);
          expect(wins[0]?.result.nextExpectedRevision).toBe(1n);
          const losses = outcomes.flatMap((outcome) =>
            outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
          );
          expect(losses).toHaveLength(999);
          expect(losses.every((loss) => loss instanceof WrongExpectedRevisionError && loss.actual === 1n)).toBe(true);
          const read = await store.readStream(stream);
          if (!read.found) throw new Error('stream not found');
          expect(read.events).toHaveLength(2);
          expect(read.events[1]?.id).toBe(contenders[wins[0]?.index ?? -1]?.id);
        },
        SLOW_TEST_MS,
      );

      it(
        '1,000 appends from concurrent writers retrying conflicts: each revision is won by exactly one append',
        async () => {
          const stream = streamOf('writers');
          await store.append(stream, [anEvent()], 'no_stream');
          const wins: Array<{ expected: bigint; id: string; result: AppendResult }> = [];
          let conflicts = 0;
          const writer = async (count: number) => {
            let expected = 0n;
            for (let done = 0; done < count;) {
              const event = anEvent('Counted');
              try {
                const result = await store.append(stream, [event], expected);
                wins.push({ expected, id: event.id, result });
                expected = result.nextExpectedRevision;
                done += 1;
              } catch (error) {
                if (!(error instanceof WrongExpectedRevisionError) || error.actual === 'no_stream') throw error;
                conflicts += 1;
                expected = error.actual;
              }
            }
          };

          await Promise.all(Array.from({ length: 10 }, () => writer(100)));

          expect(wins).toHaveLength(1_000);
          expect(new Set(wins.map((win) => win.expected)).size).toBe(1_000);
          expect(wins.every((win) => win.result.nextExpectedRevision === win.expected + 1n)).toBe(true);
          expect(conflicts).toBeGreaterThan(0);
          const read = await store.readStream(stream);
          if (!read.found) throw new Error('stream not found');
          expect(read.events).toHaveLength(1_001);
          const winnerAt = new Map(wins.map((win) => [win.result.nextExpectedRevision, win.id]));
          expect(read.events.slice(1).every((event) => winnerAt.get(event.revision) === event.id)).toBe(true);
        },
        SLOW_TEST_MS,
      );
    });

    describe('concurrent repeats', () => {
      it.each<[string, (revision: bigint) => ExpectedRevision]>([
        ['no_stream', () => 'no_stream'],
        ['an exact revision', (revision) => revision],
        ['any', () => 'any'],
      ])(
        'ten concurrent repeats of one append with %s all answer its result, and it is stored once',
        async (_label, expectedOf) => {
          const stream = streamOf('concurrent-repeat');
          const creates = expectedOf(0n) === 'no_stream';
          if (!creates) await store.append(stream, [anEvent()], 'no_stream');
          const batch = events(2);
          const expected = expectedOf(0n);

          // Racing each other (EventStoreDB drops a repeat that arrives before the original is indexed).
          const outcomes = await Promise.all(Array.from({ length: 10 }, () => store.append(stream, batch, expected)));

          const first = outcomes[0] as AppendResult;
          expect(
            outcomes.every(
              (outcome) =>
                outcome.nextExpectedRevision === first.nextExpectedRevision && outcome.position === first.position,
            ),
          ).toBe(true);
          const read = await store.readStream(stream);
          if (!read.found) throw new Error('stream not found');
          expect(read.events.slice(creates ? 0 : 1).map((event) => event.id)).toEqual(batch.map((event) => event.id));
          expect(first).toEqual({
            nextExpectedRevision: read.events.at(-1)?.revision,
            position: read.events.at(-1)?.position,
          });
        },
        SLOW_TEST_MS,
      );
    });

    describe('deleted streams', () => {
      it.each<'soft' | 'hard'>(['soft', 'hard'])(
        'a stream deleted (%s) reads as not found and refuses every append, writing nothing',
        async (how) => {
          const stream = streamOf(`deleted-${how}`);
          const stored = events(3);
          await store.append(stream, stored, 'no_stream');
          await (harness as EventStoreContractHarness).deleteStream(stream, how);
          const headBefore = await store.headPosition();

          expect(await store.readStream(stream)).toEqual({ found: false });
          expect(await store.readStream(stream, { direction: 'backwards' })).toEqual({ found: false });
          // A new start, a repeat of the last append, the revision it was at, and neither-nor.
          const attempts: Array<[EventToAppend[], ExpectedRevision]> = [
            [[anEvent()], 'no_stream'],
            [stored, 'no_stream'],
            [[anEvent()], 2n],
            [[anEvent()], 'any'],
            [[anEvent()], 'stream_exists'],
          ];
          for (const [batch, expected] of attempts) {
            const refusal = await store.append(stream, batch, expected).then(
              () => undefined,
              (error: unknown) => error,
            );
            expect(refusal).toBeInstanceOf(StreamDeletedError);
            expect(refusal).toMatchObject({ code: 'STREAM_DELETED', streamId: stream });
          }

          expect(await store.readStream(stream)).toEqual({ found: false });
          expect(await store.headPosition()).toBe(headBefore);
        },
        SLOW_TEST_MS,
      );

      it('deleting one stream leaves the others alone', async () => {
        const [kept, deleted] = [streamOf('kept'), streamOf('deleted')];
        await store.append(kept, events(1), 'no_stream');
        await store.append(deleted, events(1), 'no_stream');

        await (harness as EventStoreContractHarness).deleteStream(deleted, 'soft');

        await expect(store.append(kept, [anEvent()], 0n)).resolves.toMatchObject({ nextExpectedRevision: 1n });
        const read = await store.readStream(kept);
        expect(read.found && read.events).toHaveLength(2);
      });
    });

    describe('append size', () => {
      /** One event whose append measures exactly `size` (see appendSize). */
      const eventOfSize = (stream: string, size: number): EventToAppend => {
        const event = anEvent('Sized', { blob: '' });
        const overhead = appendSize(serializeEvents(stream, [event]));
        return { ...event, data: { blob: 'x'.repeat(size - overhead) } };
      };

      it(
        'accepts an append of exactly 1 MiB, and refuses one byte more, or two halves over it, writing nothing',
        async () => {
          const stream = streamOf('size');

          await expect(
            store.append(stream, [eventOfSize(stream, MAX_APPEND_SIZE)], 'no_stream'),
          ).resolves.toMatchObject({ nextExpectedRevision: 0n });
          const headBefore = await store.headPosition();
          for (const batch of [
            [eventOfSize(stream, MAX_APPEND_SIZE + 1)],
            [eventOfSize(stream, MAX_APPEND_SIZE / 2), eventOfSize(stream, MAX_APPEND_SIZE / 2 + 1)],
          ]) {
            const refusal = await store.append(stream, batch, 0n).then(
              () => undefined,
              (error: unknown) => error,
            );
            expect(refusal).toBeInstanceOf(AppendTooLargeError);
            expect(refusal).toMatchObject({ code: 'APPEND_TOO_LARGE', streamId: stream, maxSize: MAX_APPEND_SIZE });
          }

          expect(await store.headPosition()).toBe(headBefore);
          const read = await store.readStream(stream);
          expect(read.found && read.events).toHaveLength(1);
        },
        SLOW_TEST_MS,
      );
    });

    describe('identity', () => {
      it('has one identity, however many callers ask at once', async () => {
        const identities = await Promise.all(Array.from({ length: 5 }, () => store.storeId()));

        expect(identities[0]).toMatch(/^\S{16,}$/);
        expect(new Set(identities).size).toBe(1);
      });
    });

    describe('closing and reopening', () => {
      it('close flushes pending appends and stops subscriptions; a reopened store has everything', async () => {
        const stream = streamOf('reopen');
        await store.append(stream, events(3), 'no_stream');
        const follower = new Follower(store, { filter: { streamPrefixes: [stream] } });
        await follower.untilEvents(3);
        const headBefore = await store.headPosition();
        const identity = await store.storeId();

        const pending = store.append(stream, [anEvent()], 2n);
        await store.close();

        const flushed = await pending;
        expect(flushed.nextExpectedRevision).toBe(3n);
        expect(follower.errors).toHaveLength(1);
        expect(follower.errors[0]).toBeInstanceOf(EventStoreClosedError);
        await expect(store.append(stream, [anEvent()], 3n)).rejects.toBeInstanceOf(EventStoreClosedError);
        await expect(store.readStream(stream)).rejects.toBeInstanceOf(EventStoreClosedError);
        await expect(store.storeId()).rejects.toBeInstanceOf(EventStoreClosedError);
        store = await (harness as EventStoreContractHarness).open();

        expect(await store.storeId()).toBe(identity);
        const read = await store.readStream(stream);
        if (!read.found) throw new Error('stream not found after reopening');
        expect(read.events.map((event) => event.revision)).toEqual([0n, 1n, 2n, 3n]);
        expect(read.events[3]?.position).toBe(flushed.position);
        expect(follower.events).toEqual(read.events.slice(0, 3));
        expect(
          ofThisRun(await store.readAll(headBefore === undefined ? {} : { fromPosition: headBefore })).map(
            (event) => event.id,
          ),
        ).toContain(read.events[3]?.id);
        await expect(store.append(stream, [anEvent()], 3n)).resolves.toMatchObject({ nextExpectedRevision: 4n });
      });
    });
  });
}
