// EventStoreDB's streams' chains (stream-chain.ts), through the real client at the gRPC transport level: no
// EventStoreDB runs here (no Docker), so the server is EventStoreDbWireServer. Every append links each event to the one
// before it in its stream, reads never show the hash, and a walk of $all finds an event changed, removed, inserted or
// moved within its stream, naming its position.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { EventToAppend } from './event-store.port.js';
import { EventStoreDbCopies } from './eventstoredb-copies.js';
import { EventStoreDbEventStore } from './eventstoredb-event-store.js';
import { STREAM_HASH } from './stream-chain.js';
import { EventStoreDbWireServer, type WireRecord } from './testing/eventstoredb-wire-server.js';

const event = (type: string, data: unknown): EventToAppend => ({
  id: randomUUID(),
  type,
  data,
  metadata: { actor: 'cli', correlationId: 'c', causationId: 'c' },
});

const opened: { close(): Promise<void> }[] = [];
const servers: EventStoreDbWireServer[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((one) => one.close()));
  for (const server of servers.splice(0)) server.stop();
});

/** A database written through the adapter: two streams, appends of every kind, and one by a node that read nothing. */
async function chainedDatabase() {
  const server = new EventStoreDbWireServer();
  servers.push(server);
  const url = await server.start();
  const store = EventStoreDbEventStore.connect(url);
  opened.push(store);
  await store.append(
    'organization-a',
    [event('PlanAssigned', { plan: 'pro' }), event('SiteAdded', { n: 1 })],
    'no_stream',
  );
  await store.append('organization-a', [event('SiteAdded', { n: 2 })], 1n);
  await store.append('organization-b', [event('PlanAssigned', { plan: 'essentials' })], 'any');
  await store.append('organization-b', [event('MemberAdded', { role: 'owner', text: 'tab\t"é"' })], 'stream_exists');
  // Another node: it has read nothing of the stream, so it reads the hash it links to.
  const other = EventStoreDbEventStore.connect(url);
  opened.push(other);
  await other.append('organization-a', [event('SiteAdded', { n: 3 })], 2n);
  await store.append('organization-a', [event('SiteAdded', { n: 4 })], 3n);
  const copies = EventStoreDbCopies.connect(url, store);
  opened.push(copies);
  return { server, store, copies, records: () => server.userRecords() };
}

const at = (records: WireRecord[], streamId: string, revision: bigint): WireRecord =>
  records.find((record) => record.streamId === streamId && record.revision === revision) as WireRecord;

describe("EventStoreDB's streams' chains, at the gRPC transport level", () => {
  it('chains every event to the one before it in its stream, and proves every stream', async () => {
    const { store, copies, records } = await chainedDatabase();
    const check = await copies.verifyStreams();
    expect(check).toMatchObject({ checked: 7, unchained: 0, broken: undefined });
    expect(check.provenTo).toBe(records().at(-1)?.position);
    // Stored with every event, shown by no read.
    for (const record of records()) expect(JSON.parse(record.metadata.toString())).toHaveProperty(STREAM_HASH);
    const read = await store.readAll();
    expect(read.map((recorded) => Object.keys(recorded.metadata))).toEqual(
      read.map(() => ['actor', 'correlationId', 'causationId']),
    );
  });

  it('links an append sent again to the same hashes: it is answered as written, and the chain holds', async () => {
    const { store, copies } = await chainedDatabase();
    const again = event('SiteAdded', { n: 5 });
    await store.append('organization-b', [again], 1n);
    await store.append('organization-b', [again], 1n);
    expect(await copies.verifyStreams()).toMatchObject({ checked: 8, broken: undefined });
  });

  const tampering: [string, (records: WireRecord[], all: WireRecord[]) => WireRecord][] = [
    [
      "a changed byte in an event's data",
      (records) => {
        const target = at(records, 'organization-a', 1n);
        target.data = Buffer.from(target.data.toString().replace('1', '7'));
        return target;
      },
    ],
    [
      "a changed byte in an event's metadata",
      (records) => {
        const target = at(records, 'organization-b', 0n);
        target.metadata = Buffer.from(target.metadata.toString().replace('"cli"', '"clj"'));
        return target;
      },
    ],
    [
      'a changed type',
      (records) => {
        const target = at(records, 'organization-a', 0n);
        target.type = 'PlanRemoved';
        return target;
      },
    ],
    [
      'a removed event (the next one of its stream fails)',
      (records, all) => {
        all.splice(all.indexOf(at(records, 'organization-a', 2n)), 1);
        return at(records, 'organization-a', 3n);
      },
    ],
    [
      'an inserted event, its stream renumbered after it',
      (records, all) => {
        const next = at(records, 'organization-a', 2n);
        const forged: WireRecord = { ...next, id: randomUUID(), position: next.position - 1n };
        for (const record of records.filter((one) => one.streamId === 'organization-a' && one.revision >= 2n))
          record.revision += 1n;
        all.splice(all.indexOf(next), 0, forged);
        return forged;
      },
    ],
    [
      'two events of a stream swapped',
      (records) => {
        const [first, second] = [at(records, 'organization-a', 1n), at(records, 'organization-a', 2n)];
        [first.data, second.data] = [second.data, first.data];
        [first.metadata, second.metadata] = [second.metadata, first.metadata];
        [first.id, second.id] = [second.id, first.id];
        return first;
      },
    ],
  ];

  it.each(tampering)('finds %s and names the position', async (_what, tamper) => {
    const { server, copies, records } = await chainedDatabase();
    const failing = tamper(records(), server.all);
    const check = await copies.verifyStreams();
    expect(check.broken?.position).toBe(failing.position);
    expect(check.broken?.reason).toEqual(expect.any(String));
  });

  it('counts an event written before the chain as unchained, and links the next one from it', async () => {
    const { server, copies, records } = await chainedDatabase();
    const last = at(records(), 'organization-b', 1n);
    const { [STREAM_HASH]: _hash, ...metadata } = JSON.parse(last.metadata.toString()) as Record<string, unknown>;
    last.metadata = Buffer.from(JSON.stringify(metadata));
    expect(await copies.verifyStreams()).toMatchObject({ unchained: 1, broken: undefined });
    const fresh = EventStoreDbEventStore.connect(`esdb://127.0.0.1:${server.port}?tls=false`);
    opened.push(fresh);
    await fresh.append('organization-b', [event('SiteAdded', { n: 9 })], 1n);
    // Six of the seven before, and the new one linked to the unchained one.
    expect(await copies.verifyStreams()).toMatchObject({ checked: 7, unchained: 1, broken: undefined });
  });
});
