// handleDecision's `together` on the real SQLite store: decisions that queue on one stream while another runs are
// decided in turn, each on what the ones before it leave, and written in ONE append; each caller still gets its own
// answer, its own refusal, its own metadata, and a lost race decides them all again.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Decider } from '#domain';
import { SqliteEventStore, type RecordedEvent } from '#event-store';
import { eventMetadata, newCommandContext } from './command-context.js';
import { handleDecision, withdrawn, type DecisionReads } from './command-handler.js';

// A guest list and the seats of a room of three: booking a guest takes their name and a seat, or neither.
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
    if (state.taken.length >= 3) throw new Full(command.data.guest);
    return [{ type: 'Reserved', data: command.data }];
  },
};

let dataDir: string;
let store: SqliteEventStore;

const eventsIn = async (streamId: string): Promise<RecordedEvent[]> => {
  const read = await store.readStream(streamId);
  return read.found ? read.events : [];
};

const guestOf = (event: RecordedEvent): string => (event.data as Reserved['data']).guest;
const guestsIn = async (streamId: string): Promise<string[]> => (await eventsIn(streamId)).map(guestOf);

const contextOf = (guest: string) => newCommandContext('cli', { cliCommand: 'test' }, `corr-${guest}`);

const ledgerDecider: Decider<number, Reserve, Reserved> = {
  streamOf: (room) => `ledger-${room}`,
  initialState: 0,
  evolve: (count) => count + 1,
  decide: (command) => [{ type: 'Reserved', data: command.data }],
};

type Booking = {
  /** The decision's streams in reverse order: ledger, seat, name. */
  reversed?: boolean;
  /** Also writes the room's ledger, after the seat. */
  ledger?: boolean;
  /** Its seat in two parts, one each side of the name's claim: one stream in two places of one append. */
  splitSeat?: boolean;
  /** Runs once, after the first reads: another writer's turn. */
  meanwhile?: () => Promise<void>;
};

/** Books `guest` under `name` in room 1: the name's claim and a seat, or neither. */
const book = (
  name: string,
  guest: string,
  { reversed = false, ledger = false, splitSeat = false, meanwhile }: Booking = {},
) => {
  let interrupt = meanwhile;
  return handleDecision(
    store,
    contextOf(guest),
    { serializedOn: 'seats-1', commandType: 'Reserve', together: true },
    async (reads: DecisionReads) => {
      const claim = await reads.stream(nameDecider, name);
      const seats = await reads.stream(seatDecider, '1');
      const interrupting = interrupt;
      interrupt = undefined;
      await interrupting?.();
      const seat = seats.decide({ type: 'Reserve', data: { guest } });
      const reservation = claim.decide({ type: 'Reserve', data: { guest } });
      const changes = [seat.decided.length > 0 ? reservation : withdrawn(reservation), seat];
      if (splitSeat) changes.unshift(seat);
      if (ledger) changes.push((await reads.stream(ledgerDecider, '1')).decide({ type: 'Reserve', data: { guest } }));
      return { changes: reversed ? changes.reverse() : changes, result: seats.state.taken.length };
    },
  );
};

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-decisions-together-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
});
afterEach(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('decisions taken together', () => {
  it('writes the decisions that waited in one commit, each on the state the ones before it leave', async () => {
    const commitsBefore = store.groupCommitStats().commits;

    const [ada, bob, cy] = await Promise.all([book('ada', 'ada'), book('bob', 'bob'), book('cy', 'cy')]);

    // Ada went alone (the stream was free); Bob and Cy waited for her turn and went together.
    expect(store.groupCommitStats().commits - commitsBefore).toBe(2);
    expect([ada.result, bob.result, cy.result]).toEqual([0, 1, 2]);
    expect(cy.applied.map(({ streamId, revision }) => [streamId, revision])).toEqual([
      ['name-cy', 0n],
      ['seats-1', 2n],
    ]);
    expect(bob.applied.find(({ streamId }) => streamId === 'seats-1')?.revision).toBe(1n);
    const seats = await eventsIn('seats-1');
    expect(seats.map((event) => [event.data, event.metadata])).toEqual(
      ['ada', 'bob', 'cy'].map((guest) => [{ guest }, eventMetadata(contextOf(guest), 'Reserve')]),
    );
    // Each caller's own streams come in the order it decided them, and its answer reaches its events.
    const [bobName, cyName] = [(await eventsIn('name-bob'))[0], (await eventsIn('name-cy'))[0]];
    expect(bobName?.position).toBeLessThan(seats[1]?.position as bigint);
    expect(cyName?.position).toBeLessThan(seats[2]?.position as bigint);
    expect(cy.position).toBeGreaterThanOrEqual(seats[2]?.position as bigint);
  });

  it('refuses only the callers whose decisions refuse, decided on what the callers before them took', async () => {
    await book('ada', 'ada');

    const outcomes = await Promise.allSettled([
      book('bob', 'bob'),
      book('cy', 'cy'),
      book('dee', 'dee'),
      book('eve', 'eve'),
    ]);

    // The room holds three: Bob goes alone; Cy, Dee and Eve wait together, and Cy's seat fills the room for the others.
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(Full);
    expect(await guestsIn('seats-1')).toEqual(['ada', 'bob', 'cy']);
    expect(await eventsIn('name-dee')).toEqual([]);
  });

  it('lets a second caller for the same name see the first one’s claim in the same round', async () => {
    const [first, second, third] = await Promise.all([book('ada', 'ada'), book('bob', 'bob'), book('bob', 'bob')]);

    expect([first.applied.length, second.applied.length, third.applied]).toEqual([2, 2, []]);
    expect(await eventsIn('name-bob')).toHaveLength(1);
    expect(await guestsIn('seats-1')).toEqual(['ada', 'bob']);
  });

  it('decides the whole round again when another writer took a stream meanwhile', async () => {
    const rivalNode = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
    const rival = async () => {
      await rivalNode.append(
        'seats-1',
        [{ id: randomUUID(), type: 'Reserved', data: { guest: 'rival' }, metadata: eventMetadata(contextOf('rival')) }],
        0n,
      );
    };
    try {
      const commitsBefore = store.groupCommitStats().commits;

      // Another process takes a seat while Bob, first of the round, decides: the round's append finds it taken.
      const outcomes = await Promise.allSettled([
        book('ada', 'ada'),
        book('bob', 'bob', { meanwhile: rival }),
        book('cy', 'cy'),
      ]);

      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect((outcomes[1] as PromiseFulfilledResult<{ result: unknown }>).value.result).toBe(2);
      expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(Full);
      expect(await guestsIn('seats-1')).toEqual(['ada', 'rival', 'bob']);
      expect(await eventsIn('name-cy')).toEqual([]);
      expect(store.groupCommitStats().commits - commitsBefore).toBe(2);
    } finally {
      await rivalNode.close();
    }
  });

  it('keeps a caller whose streams come in another order for the next round, decided again', async () => {
    const commitsBefore = store.groupCommitStats().commits;

    const outcomes = await Promise.allSettled([
      book('ada', 'ada', { ledger: true }),
      book('bob', 'bob', { ledger: true }),
      book('cy', 'cy', { ledger: true, reversed: true }),
      book('dee', 'dee', { ledger: true }),
    ]);

    // Cy's ledger before its seat cannot share Bob's append (seat before ledger), nor Dee's Cy's: three commits, and
    // Dee finds the room full on the round after Cy's.
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect(store.groupCommitStats().commits - commitsBefore).toBe(3);
    const seats = await eventsIn('seats-1');
    expect(seats.map(guestOf)).toEqual(['ada', 'bob', 'cy']);
    const [cyLedger, cyName] = [(await eventsIn('ledger-1'))[2], (await eventsIn('name-cy'))[0]];
    expect(cyLedger === undefined ? undefined : guestOf(cyLedger)).toBe('cy');
    expect(cyLedger?.position).toBeLessThan(seats[2]?.position as bigint);
    expect(cyName?.position).toBeGreaterThan(seats[2]?.position as bigint);
  });

  it('refuses a decision that puts one stream in two places, and still writes the others of its round', async () => {
    const outcomes = await Promise.allSettled([
      book('ada', 'ada'),
      book('bob', 'bob', { splitSeat: true }),
      book('cy', 'cy'),
    ]);

    // Bob's decision comes first of its round, so no order of the others can be blamed: it is refused alone.
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(RangeError);
    expect(await guestsIn('seats-1')).toEqual(['ada', 'cy']);
    expect(await eventsIn('name-bob')).toEqual([]);
  });
});
