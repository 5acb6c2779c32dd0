// handleDecision on the real SQLite store: a command deciding on several streams appends all its changes in ONE append
// (one commit), each at the revision it was decided on; a lost race on any stream reads and decides the whole again.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Decider } from '#domain';
import { SqliteEventStore, type RecordedEvent } from '#event-store';
import { eventMetadata, newCommandContext } from './command-context.js';
import { handleDecision, withdrawn, type DecisionReads } from './command-handler.js';

// A guest list and the seat each guest holds: booking a guest takes their name and a seat, or neither.
type Reserved = { type: 'Reserved'; data: { guest: string } };
type Reserve = { type: 'Reserve'; data: { guest: string } };
type Names = { holder: string | undefined };
type Seats = { taken: readonly string[] };

const nameDecider: Decider<Names, Reserve, Reserved> = {
  streamOf: (name) => `name-${name}`,
  initialState: { holder: undefined },
  evolve: (_, event) => ({ holder: event.data.guest }),
  decide: (command, state) => (state.holder === undefined ? [{ type: 'Reserved', data: command.data }] : []),
};

class Full extends Error {}

const seatDecider: Decider<Seats, Reserve, Reserved> = {
  streamOf: (room) => `seats-${room}`,
  initialState: { taken: [] },
  evolve: (state, event) => ({ taken: [...state.taken, event.data.guest] }),
  decide: (command, state) => {
    if (state.taken.includes(command.data.guest)) return [];
    if (state.taken.length >= 2) throw new Full(command.data.guest);
    return [{ type: 'Reserved', data: command.data }];
  },
};

const context = newCommandContext('cli', { cliCommand: 'test' }, 'corr-1');
let dataDir: string;
let store: SqliteEventStore;

const eventsIn = async (streamId: string): Promise<RecordedEvent[]> => {
  const read = await store.readStream(streamId);
  return read.found ? read.events : [];
};

/** Books `guest` under `name` in room 1: the name's claim (expected new, unread) and a seat. */
const book = (name: string, guest: string) =>
  handleDecision(store, context, { serializedOn: 'seats-1', commandType: 'Reserve' }, async (reads: DecisionReads) => {
    const claim = await reads.stream(nameDecider, name, { known: 'no_stream' });
    const seats = await reads.stream(seatDecider, '1');
    const seat = seats.decide({ type: 'Reserve', data: { guest } });
    const reservation = claim.decide({ type: 'Reserve', data: { guest } });
    return {
      changes: [seat.decided.length > 0 ? reservation : withdrawn(reservation), seat],
      result: claim.state.holder ?? '(nobody yet)',
    };
  });

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-decision-handler-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
});
afterEach(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('handleDecision', () => {
  it('appends the changes of several streams in one commit, each stream at its own revision', async () => {
    const commitsBefore = store.groupCommitStats().commits;

    const handled = await book('ada', 'ada');

    expect(store.groupCommitStats().commits - commitsBefore).toBe(1);
    expect(handled.applied.map(({ streamId, revision }) => [streamId, revision])).toEqual([
      ['name-ada', 0n],
      ['seats-1', 0n],
    ]);
    const [name, seat] = [await eventsIn('name-ada'), await eventsIn('seats-1')];
    expect(name[0]?.position).toBeLessThan(seat[0]?.position as bigint);
    expect(handled.position).toBe(seat[0]?.position);
    expect(name[0]?.metadata).toEqual(eventMetadata(context, 'Reserve'));
  });

  it('refuses the whole when one stream refuses: nothing is appended anywhere', async () => {
    await book('ada', 'ada');
    await book('bob', 'bob');

    await expect(book('cy', 'cy')).rejects.toBeInstanceOf(Full);

    expect(await eventsIn('name-cy')).toEqual([]);
    expect(await eventsIn('seats-1')).toHaveLength(2);
  });

  it('decides the whole again after a race lost on a stream it assumed new, and adopts what the rival wrote', async () => {
    // A rival took the name meanwhile: the unread claim conflicts, the retry reads it.
    await store.append(
      'name-ada',
      [{ id: randomUUID(), type: 'Reserved', data: { guest: 'rival' }, metadata: eventMetadata(context) }],
      'no_stream',
    );

    const handled = await book('ada', 'ada');

    expect(handled.result).toBe('rival');
    expect(handled.applied.map(({ streamId }) => streamId)).toEqual(['seats-1']);
    expect((await eventsIn('name-ada')).map((event) => event.data)).toEqual([{ guest: 'rival' }]);
  });

  it('does not let a no-op stand on a stream it did not read: it reads and decides again', async () => {
    await book('ada', 'ada');
    // Ada's seat is taken, so the decision appends nothing; the claim it assumed new is not trusted for that.
    const handled = await book('ada', 'ada');

    expect(handled.applied).toEqual([]);
    expect(handled.result).toBe('ada');
    expect(await eventsIn('name-ada')).toHaveLength(1);
  });

  it('of two decisions racing for one stream, one appends all its changes and the other decides again', async () => {
    await book('ada', 'ada');

    const outcomes = await Promise.allSettled([book('bob', 'bob'), book('cy', 'cy')]);

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const names = [await eventsIn('name-bob'), await eventsIn('name-cy')].map((events) => events.length);
    expect(names.sort()).toEqual([0, 1]);
    expect(await eventsIn('seats-1')).toHaveLength(2);
  });
});
