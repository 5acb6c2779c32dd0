// The chain's link and its check: every kind of change to a log (a byte, an event removed, inserted or moved) is found
// at the first event it touches, and an untouched log is proven whole.
import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import {
  CHAIN_GENESIS,
  ChainCheck,
  chainLink,
  eventDigest,
  linkDigest,
  type ChainedEvent,
  type ChainedFields,
} from './event-chain.js';

const fields = (position: number): ChainedFields => ({
  position: BigInt(position),
  streamId: `organization-${position % 3}`,
  revision: BigInt(Math.floor(position / 3)),
  id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
  type: position % 2 === 0 ? 'MemberAdded' : 'PlanAssigned',
  recordedAt: `2026-11-27T10:00:${String(position % 60).padStart(2, '0')}.123Z`,
  data: JSON.stringify({ n: position, email: { sealed: 'v1.abc' } }),
  metadata: JSON.stringify({ actor: 'system', correlationId: `c-${position}` }),
});

/** A log of `count` events, chained as a store chains them. */
function chained(count: number): ChainedEvent[] {
  const events: ChainedEvent[] = [];
  let previous = CHAIN_GENESIS;
  for (let position = 1; position <= count; position += 1) {
    const event = fields(position);
    previous = chainLink(previous, event);
    events.push({ ...event, hash: previous });
  }
  return events;
}

function check(events: readonly ChainedEvent[]): ChainCheck {
  const checking = new ChainCheck();
  for (const event of events) if (checking.next(event) !== undefined) break;
  return checking;
}

describe('chainLink', () => {
  it("is SHA-256 over the version, the hash before and the event's digest, as docs/history.md writes it", () => {
    const event = fields(7);
    const u32 = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
    const text = (value: string) => [u32(Buffer.byteLength(value)), Buffer.from(value)];
    const u64 = (n: bigint) => {
      const bytes = Buffer.alloc(8);
      bytes.writeBigUInt64BE(n);
      return bytes;
    };
    const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
    const digest = sha256(
      Buffer.from('chorus-event-v2'),
      u64(7n),
      u64(event.revision),
      ...[event.streamId, event.id, event.type, event.recordedAt, event.data, event.metadata].flatMap(text),
    );
    expect(eventDigest(event)).toEqual(digest);
    expect(chainLink(CHAIN_GENESIS, event)).toEqual(sha256(Buffer.from('chorus-chain-v2'), CHAIN_GENESIS, digest));
    expect(linkDigest(CHAIN_GENESIS, digest)).toEqual(chainLink(CHAIN_GENESIS, event));
  });

  it('hashes an instant alike whatever its form, so stores that write times differently chain alike', () => {
    const event = fields(1);
    expect(chainLink(CHAIN_GENESIS, { ...event, recordedAt: '2026-11-27T11:00:01.123+01:00' })).toEqual(
      chainLink(CHAIN_GENESIS, event),
    );
  });

  it('changes with every field and with the hash before', () => {
    const event = fields(4);
    const base = chainLink(CHAIN_GENESIS, event);
    const changed: Partial<ChainedFields>[] = [
      { position: 5n },
      { revision: 9n },
      { streamId: 'organization-x' },
      { id: 'other' },
      { type: 'MemberRemoved' },
      { recordedAt: '2026-11-27T10:00:04.124Z' },
      { data: event.data.replace('4', '5') },
      { metadata: event.metadata.replace('system', 'cli') },
      // The same bytes split between two fields otherwise: the lengths tell them apart.
      { type: `${event.type}x`, recordedAt: event.recordedAt },
    ];
    for (const change of changed) expect(chainLink(CHAIN_GENESIS, { ...event, ...change })).not.toEqual(base);
    expect(chainLink(Buffer.alloc(32, 1), event)).not.toEqual(base);
  });
});

describe('ChainCheck', () => {
  it('proves an untouched log whole', () => {
    const checking = check(chained(50));
    expect(checking).toMatchObject({ checked: 50, provenTo: 50n, unchained: 0, broken: undefined });
  });

  it.each([
    ['a byte of its data', (log: ChainedEvent[]) => ({ ...log[20]!, data: log[20]!.data.replace('21', '22') })],
    ['its metadata', (log: ChainedEvent[]) => ({ ...log[20]!, metadata: '{}' })],
    ['its type', (log: ChainedEvent[]) => ({ ...log[20]!, type: 'SomethingElse' })],
    ['its time', (log: ChainedEvent[]) => ({ ...log[20]!, recordedAt: '2020-01-01T00:00:00.000Z' })],
  ])('finds %s changed at that event', (_what, change) => {
    const log = chained(40);
    log[20] = change(log);
    expect(check(log).broken).toEqual({ position: 21n, reason: expect.stringContaining('its hash does not match') });
    expect(check(log).provenTo).toBe(20n);
  });

  it('finds an event removed at the one after it, naming the gap', () => {
    const log = chained(40);
    log.splice(10, 1);
    expect(check(log).broken).toEqual({
      position: 12n,
      reason: 'the events before it, from position 11, are missing: removed',
    });
  });

  it('finds an event inserted, and events moved, at the first place they touch', () => {
    const inserted = chained(40);
    const stranger = { ...fields(11), data: '{"forged":true}' };
    inserted.splice(10, 0, { ...stranger, hash: chainLink(inserted[9]!.hash!, stranger) });
    // The stranger at 11 chains; the event after it, also at 11, is out of order.
    expect(check(inserted).broken).toEqual({ position: 11n, reason: expect.stringContaining('out of order') });

    const moved = chained(40);
    const [a, b] = [moved[10]!, moved[11]!];
    moved[10] = { ...b, position: a.position };
    moved[11] = { ...a, position: b.position };
    expect(check(moved).broken?.position).toBe(11n);
  });

  it('counts a log written before the chain as unchained, and a chained event after an unchained one as a break', () => {
    const log = chained(10).map((event, index) => (index < 4 ? event : { ...event, hash: null }));
    expect(check(log)).toMatchObject({ checked: 4, provenTo: 4n, unchained: 6, broken: undefined });
    const holed = chained(10).map((event, index) => (index === 4 ? { ...event, hash: null } : event));
    expect(check(holed).broken).toEqual({ position: 6n, reason: 'it is chained, but an event before it is not' });
  });
});
