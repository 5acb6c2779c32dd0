// handleCommand on the real SQLite store: load (through a cache, in pages), decide with the stream's decider,
// append at the revision decided on, decide again after a lost race, give up after MAX_DECISION_ATTEMPTS.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Decider } from '#domain';
import { eventMetadata, newCommandContext } from './command-context.js';
import { MAX_DECISION_ATTEMPTS } from './command-handler.js';
import { handleCommand } from './handle-command.js';
import { loadStream, READ_PAGE_SIZE, type FoldedStream, type FoldedStreamCache } from './load-stream.js';
import { WrongExpectedRevisionError, type EventStore, type RecordedEvent } from '#event-store';
import { SqliteEventStore } from '#event-store';

// A room with a number of seats: enough of a domain to decide on.
type SeatTaken = { type: 'SeatTaken'; data: { guest: string } };
type TakeSeat = { type: 'TakeSeat'; data: { guest: string } };
type Room = { guests: readonly string[] };
const seats = 3;

class RoomFull extends Error {}

/** The room's decider, counting its decisions. */
function roomDecider(): Decider<Room, TakeSeat, SeatTaken> & { decisions: number; seen: Room[] } {
  const decider = {
    decisions: 0,
    seen: [] as Room[],
    streamOf: (id: string) => `room-${id}`,
    initialState: { guests: [] } as Room,
    evolve: (state: Room, event: SeatTaken): Room => ({ guests: [...state.guests, event.data.guest] }),
    decide: (command: TakeSeat, state: Room): SeatTaken[] => {
      decider.decisions += 1;
      decider.seen.push(state);
      const { guest } = command.data;
      if (state.guests.includes(guest)) return [];
      if (state.guests.length >= seats) throw new RoomFull(guest);
      return [{ type: 'SeatTaken', data: { guest } }];
    },
  };
  return decider;
}

const seat = (guest: string): TakeSeat => ({ type: 'TakeSeat', data: { guest } });
const context = newCommandContext('cli', { cliCommand: 'test' }, 'corr-1');
const stream = 'room-1';

class MapCache implements FoldedStreamCache<Room> {
  readonly entries = new Map<string, FoldedStream<Room>>();
  get = (streamId: string) => this.entries.get(streamId);
  remember = (streamId: string, folded: FoldedStream<Room>) => void this.entries.set(streamId, folded);
  forget = (streamId: string) => void this.entries.delete(streamId);
}

let dataDir: string;
let store: SqliteEventStore;
let room: ReturnType<typeof roomDecider>;
let reads: { fromRevision: bigint | undefined; returned: number }[];
let recording: EventStore;

const eventsIn = async (streamId: string): Promise<RecordedEvent[]> => {
  const read = await store.readStream(streamId);
  return read.found ? read.events : [];
};
/** Another writer takes a seat, as a rival process would between our read and our append. */
const rivalTakes = (guest: string) =>
  store.append(
    stream,
    [{ id: randomUUID(), type: 'SeatTaken', data: { guest }, metadata: eventMetadata(newCommandContext('cli')) }],
    'any',
  );

/** The store, with a rival taking a seat just before each of our first `races` appends (or every one). */
function losingRaces(races = Number.POSITIVE_INFINITY): EventStore & { appends: () => number } {
  let appends = 0;
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'appends') return () => appends;
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== 'append') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<EventStore['append']>) => {
        appends += 1;
        if (appends <= races) await rivalTakes(`rival-${appends}`);
        return target.append(...args);
      };
    },
  }) as unknown as EventStore & { appends: () => number };
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-command-handler-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  room = roomDecider();
  reads = [];
  // The store, with every readStream call counted.
  recording = new Proxy(store, {
    get(target, property, receiver) {
      if (property !== 'readStream') {
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (streamId: string, options?: Parameters<EventStore['readStream']>[1]) => {
        const read = await target.readStream(streamId, options);
        reads.push({ fromRevision: options?.fromRevision, returned: read.found ? read.events.length : 0 });
        return read;
      };
    },
  });
});

afterEach(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('handleCommand', () => {
  it("appends the decided events at the revision decided on, with the context and the command's type as metadata, and answers the new state", async () => {
    await handleCommand(store, room, '1', seat('ada'), context);

    const handled = await handleCommand(store, room, '1', seat('bob'), context);

    const recorded = await eventsIn(stream);
    expect(handled).toMatchObject({
      state: { guests: ['ada', 'bob'] },
      revision: 1n,
      position: recorded.at(-1)?.position,
    });
    expect(handled.appended.map((event) => event.id)).toEqual([recorded.at(-1)?.id]);
    expect(recorded.at(-1)?.metadata).toEqual({
      cliCommand: 'test',
      actor: 'cli',
      correlationId: 'corr-1',
      causationId: 'corr-1',
      commandType: 'TakeSeat',
    });
  });

  it('appends nothing and answers where the stream stands when the decision changes nothing', async () => {
    const first = await handleCommand(store, room, '1', seat('ada'), context);

    const again = await handleCommand(store, room, '1', seat('ada'), context);

    expect(again).toMatchObject({ appended: [], revision: 0n, position: first.position, state: { guests: ['ada'] } });
    expect(await eventsIn(stream)).toHaveLength(1);
  });

  it('does not retry a refusal, and appends nothing', async () => {
    for (const guest of ['a', 'b', 'c']) await handleCommand(store, room, '1', seat(guest), context);
    room.decisions = 0;

    await expect(handleCommand(store, room, '1', seat('d'), context)).rejects.toBeInstanceOf(RoomFull);
    expect(room.decisions).toBe(1);
    expect(await eventsIn(stream)).toHaveLength(3);
  });

  it('reads again and decides again after each lost race, and succeeds while the decision holds', async () => {
    const handled = await handleCommand(losingRaces(2), room, '1', seat('ada'), context);

    expect(room.decisions).toBe(3);
    expect(handled.state.guests).toEqual(['rival-1', 'rival-2', 'ada']);
    expect((await eventsIn(stream)).map((event) => (event.data as { guest: string }).guest)).toEqual([
      'rival-1',
      'rival-2',
      'ada',
    ]);
  });

  it('answers the new decision when a lost race changed it', async () => {
    await handleCommand(store, room, '1', seat('a'), context);

    await expect(handleCommand(losingRaces(2), room, '1', seat('ada'), context)).rejects.toBeInstanceOf(RoomFull);
    expect(await eventsIn(stream)).toHaveLength(seats);
  });

  it(`gives up with the conflict after ${MAX_DECISION_ATTEMPTS} lost races in a row`, async () => {
    const big = {
      ...roomDecider(),
      decide: (command: TakeSeat): SeatTaken[] => [{ type: 'SeatTaken', data: { guest: command.data.guest } }],
    };
    const losing = losingRaces();
    await expect(handleCommand(losing, big, '1', seat('ada'), context)).rejects.toBeInstanceOf(
      WrongExpectedRevisionError,
    );
    expect(losing.appends()).toBe(MAX_DECISION_ATTEMPTS);
  });

  it('of 50 concurrent commands against 3 seats, exactly 3 are appended and the others refused', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_unused, index) => handleCommand(store, room, '1', seat(`guest-${index}`), context)),
    );

    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(seats);
    expect(
      outcomes.filter((outcome) => outcome.status === 'rejected' && outcome.reason instanceof RoomFull),
    ).toHaveLength(50 - seats);
    expect(await eventsIn(stream)).toHaveLength(seats);
  });

  it('decides each of 40 concurrent commands on one stream once, on the state the one before it left, and appends them all', async () => {
    const counter: Decider<number, TakeSeat, SeatTaken> & { seen: number[] } = {
      seen: [],
      streamOf: (id) => `room-${id}`,
      initialState: 0,
      evolve: (count) => count + 1,
      decide: (_command, state) => {
        counter.seen.push(state);
        return [{ type: 'SeatTaken', data: { guest: `guest-${state}` } }];
      },
    };

    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () => handleCommand(store, counter, '1', seat('any'), context)),
    );

    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    expect(counter.seen).toEqual(Array.from({ length: 40 }, (_unused, index) => index));
    expect(await eventsIn(stream)).toHaveLength(40);
  });

  it('commands on other streams do not wait for one another, and a refusal does not hold up the next command', async () => {
    for (const guest of ['a', 'b', 'c']) await handleCommand(store, room, '1', seat(guest), context);
    let releaseSlow!: () => void;
    const held = new Promise<void>((resolve) => (releaseSlow = resolve));
    // A store whose reads of room 2 wait: its command is under way, and no other should wait for it.
    const slowRoom2 = new Proxy(store, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property !== 'readStream') return typeof value === 'function' ? value.bind(target) : value;
        return async (streamId: string, options?: Parameters<EventStore['readStream']>[1]) => {
          if (streamId === 'room-2') await held;
          return target.readStream(streamId, options);
        };
      },
    });
    const slow = handleCommand(slowRoom2, room, '2', seat('slow'), context);

    await expect(handleCommand(slowRoom2, room, '1', seat('d'), context)).rejects.toBeInstanceOf(RoomFull);
    const other = await handleCommand(slowRoom2, room, '3', seat('e'), context);
    releaseSlow();

    expect(other.state.guests).toEqual(['e']);
    expect((await slow).state.guests).toEqual(['slow']);
  });

  it('two stores on one file (two nodes) still race through the expected revision: of 50 commands spread over both, exactly 3 are appended', async () => {
    const otherNode = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
    try {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 50 }, (_unused, index) =>
          handleCommand(index % 2 === 0 ? store : otherNode, room, '1', seat(`guest-${index}`), context),
        ),
      );

      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(seats);
      expect(
        outcomes.filter((outcome) => outcome.status === 'rejected' && !(outcome.reason instanceof RoomFull)),
      ).toEqual([]);
      expect(await eventsIn(stream)).toHaveLength(seats);
    } finally {
      await otherNode.close();
    }
  });

  it('appends with the ids eventId chooses, so that a repeated decision is recognised as the same append', async () => {
    const id = '6f1c1b4e-7d44-4c47-9a53-0a4f4f5b3b10';

    const first = await handleCommand(store, room, '1', seat('ada'), context, { eventId: () => id });
    // The same decision again at the revision it was first made on: the store answers the original append.
    const repeated = await store.append(stream, first.appended, 'no_stream');

    expect((await eventsIn(stream)).map((event) => event.id)).toEqual([id]);
    expect(repeated).toEqual({ nextExpectedRevision: 0n, position: first.position });
  });
});

describe('handleCommand from a state the caller knows (known)', () => {
  it('decides on it without reading the stream, and appends at its revision', async () => {
    const first = await handleCommand(recording, room, '1', seat('ada'), context);
    reads = [];

    const handled = await handleCommand(recording, room, '1', seat('bob'), context, { known: first });

    expect(reads).toEqual([]);
    expect(handled).toMatchObject({ state: { guests: ['ada', 'bob'] }, revision: 1n });
    expect((await eventsIn(stream)).map((event) => event.data)).toEqual([{ guest: 'ada' }, { guest: 'bob' }]);
  });

  it('a stale one costs a read and a second decision, never a wrong one: what others recorded counts', async () => {
    const first = await handleCommand(store, room, '1', seat('ada'), context);
    await rivalTakes('rival-1');
    await rivalTakes('rival-2');
    reads = [];
    room.decisions = 0;

    // On the known state (one guest) the room has seats; on the stream (three) it is full.
    await expect(handleCommand(recording, room, '1', seat('bob'), context, { known: first })).rejects.toBeInstanceOf(
      RoomFull,
    );
    expect(room.decisions).toBe(2);
    expect(reads).toHaveLength(1);
    expect(await eventsIn(stream)).toHaveLength(3);
  });

  it('a command that waited for others on its stream decides on a read, not on what its caller knew before them', async () => {
    const nothingYet = { state: room.initialState, revision: undefined, position: undefined };

    const outcomes = await Promise.allSettled(
      ['a', 'b', 'c'].map((guest) => handleCommand(store, room, '1', seat(guest), context, { known: nothingYet })),
    );

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    // One decision each: the two that waited did not first decide on the empty room and lose to its append.
    expect(room.decisions).toBe(3);
    expect((await eventsIn(stream)).map((event) => (event.data as { guest: string }).guest)).toEqual(['a', 'b', 'c']);
  });

  it('answers a decision of no events on it only after reading the stream (nothing checked the known state)', async () => {
    const first = await handleCommand(store, room, '1', seat('ada'), context);
    await rivalTakes('bob');
    reads = [];

    // Known: ada only, so taking ada's seat again is nothing; the stream has bob too, which the answer must show.
    const again = await handleCommand(recording, room, '1', seat('ada'), context, { known: first });

    expect(reads).toHaveLength(1);
    expect(again).toMatchObject({ appended: [], revision: 1n, state: { guests: ['ada', 'bob'] } });
  });
});

describe('loadStream', () => {
  it('loads a stream that does not exist as the initial state, without a revision', async () => {
    expect(await loadStream(store, room, 'nobody')).toEqual({
      state: { guests: [] },
      revision: undefined,
      position: undefined,
      recorded: [],
    });
  });

  it('reads the whole stream once, in pages, then only the events recorded after the cached revision', async () => {
    const guests = Array.from({ length: READ_PAGE_SIZE + 99 }, (_unused, index) => `guest-${index}`);
    const metadata = eventMetadata(context, 'TakeSeat');
    await store.append(
      stream,
      guests.map((guest) => ({ id: randomUUID(), type: 'SeatTaken', data: { guest }, metadata })),
      'no_stream',
    );
    const cache = new MapCache();

    const first = await loadStream(recording, room, '1', { cache });
    await rivalTakes('late');
    const second = await loadStream(recording, room, '1', { cache });

    expect(reads).toEqual([
      { fromRevision: 0n, returned: READ_PAGE_SIZE },
      { fromRevision: BigInt(READ_PAGE_SIZE), returned: 99 },
      { fromRevision: BigInt(READ_PAGE_SIZE + 99), returned: 1 },
    ]);
    expect(first.revision).toBe(BigInt(READ_PAGE_SIZE + 98));
    expect(second.revision).toBe(BigInt(READ_PAGE_SIZE + 99));
    expect(second.state.guests).toHaveLength(READ_PAGE_SIZE + 100);
  });

  it("folds each page at once with the decider's fold when it has one, to the same state, revision and position", async () => {
    const guests = Array.from({ length: READ_PAGE_SIZE + 2 }, (_unused, index) => `guest-${index}`);
    const metadata = eventMetadata(context, 'TakeSeat');
    await store.append(
      stream,
      guests.map((guest) => ({ id: randomUUID(), type: 'SeatTaken', data: { guest }, metadata })),
      'no_stream',
    );
    const pages: number[] = [];
    const folding: Decider<Room, TakeSeat, SeatTaken> = {
      ...room,
      evolve: () => {
        throw new Error('evolve one by one, where the decider folds pages');
      },
      fold: (state, events) => {
        pages.push(events.length);
        return { guests: [...state.guests, ...events.map((event) => event.data.guest)] };
      },
    };

    const folded = await loadStream(store, folding, '1');
    const oneByOne = await loadStream(store, room, '1');

    expect(pages).toEqual([READ_PAGE_SIZE, 2]);
    expect(folded).toEqual(oneByOne);
  });

  it('hands back the events it read when asked to keep them', async () => {
    await rivalTakes('ada');

    const loaded = await loadStream(store, room, '1', { keepRecordedEvents: true });

    expect(loaded.recorded.map((event) => event.id)).toEqual([(await eventsIn(stream))[0]?.id]);
  });

  it('folds appended events into the cache, so that the next load reads nothing', async () => {
    const cache = new MapCache();
    await handleCommand(recording, room, '1', seat('ada'), context, { cache });

    const appended = await handleCommand(recording, room, '1', seat('bob'), context, { cache });
    const again = await loadStream(recording, room, '1', { cache });

    expect(appended.revision).toBe(1n);
    expect(reads.at(-1)).toEqual({ fromRevision: 2n, returned: 0 });
    expect(again).toMatchObject({ revision: 1n, state: { guests: ['ada', 'bob'] } });
  });

  it('a cached state behind the stream catches up before deciding: what others recorded counts', async () => {
    const cache = new MapCache();
    await handleCommand(store, room, '1', seat('a'), context, { cache });
    // Another process fills the room; this process's cache still says one seat is taken.
    await rivalTakes('b');
    await rivalTakes('c');

    await expect(handleCommand(store, room, '1', seat('d'), context, { cache })).rejects.toBeInstanceOf(RoomFull);
  });

  it('with a decider whose events carry the state, reads only the last event, backwards, however long the stream, and appends after it', async () => {
    // A counter whose every event carries the count after it.
    type Counted = { type: 'Counted'; data: { count: number } };
    const counter: Decider<number, { type: 'Count' }, Counted> = {
      streamOf: (id) => `counter-${id}`,
      initialState: 0,
      evolve: (_count, event) => event.data.count,
      decide: (_command, state) => [{ type: 'Counted', data: { count: state + 1 } }],
      stateInLastEvent: true,
    };
    for (let index = 0; index < 5; index += 1) await handleCommand(store, counter, '1', { type: 'Count' }, context);
    reads = [];

    const loaded = await loadStream(recording, counter, '1');
    const handled = await handleCommand(recording, counter, '1', { type: 'Count' }, context);

    expect(loaded).toMatchObject({ state: 5, revision: 4n });
    expect(reads).toEqual([
      { fromRevision: undefined, returned: 1 },
      { fromRevision: undefined, returned: 1 },
    ]);
    expect(handled).toMatchObject({ state: 6, revision: 5n });
    expect(await loadStream(store, counter, 'none')).toEqual({
      state: 0,
      revision: undefined,
      position: undefined,
      recorded: [],
    });
  });
});
