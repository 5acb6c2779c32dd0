// The EventStoreDB adapter at the gRPC transport level only: how many calls it leaves open, and whether it
// gives up on a server that does not answer. The server here is grpc-js serving the Streams service
// definition generated from the client's own .proto files (@eventstore/db-client/generated); it answers
// Read with a stream of records that never ends, or never answers, and Append with a follower's NotLeader
// as often as told, then a success. It knows nothing of EventStoreDB's
// semantics and stands in for none of them: what EventStoreDB does is tested against EventStoreDB itself
// (eventstoredb-event-store.int.spec.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Metadata,
  Server,
  ServerCredentials,
  status,
  type sendUnaryData,
  type ServerReadableStream,
  type ServerWritableStream,
} from '@grpc/grpc-js';
import { StreamIdentifier, UUID } from '@eventstore/db-client/generated/shared_pb.js';
import { StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb.js';
import { AppendReq, AppendResp, ReadReq, ReadResp } from '@eventstore/db-client/generated/streams_pb.js';
import { EventStoreClosedError, EventStoreTimeoutError } from './event-store.port.js';
import { EventStoreDbEventStore, type EventStoreDbTimeouts } from './eventstoredb-event-store.js';

/** EventStoreDB's Kestrel accepts this many concurrent HTTP/2 streams per connection (its default). */
const STREAMS_PER_CONNECTION = 100;

type Behaviour = 'endless' | 'silent';

/** Counts Read calls: opened, and still open (neither finished by the server nor cancelled by the client). */
class CountingServer {
  behaviour: Behaviour = 'endless';
  opened = 0;
  open = 0;
  /** The `requires-leader` header of each Read call, in order. */
  readonly requiresLeader: string[] = [];
  /** Append calls answered so far, and how many more to answer as a follower (NotLeader) before succeeding. */
  appends = 0;
  notLeaderAnswers = 0;
  port = 0;
  private readonly server = new Server({ 'grpc.max_concurrent_streams': STREAMS_PER_CONNECTION });
  private readonly waiting = new Set<() => void>();

  async start(): Promise<number> {
    this.server.addService(StreamsService, {
      read: (call: ServerWritableStream<ReadReq, ReadResp>) => this.read(call),
      append: (call: ServerReadableStream<AppendReq, AppendResp>, callback: sendUnaryData<AppendResp>) =>
        this.append(call, callback),
      delete: () => undefined,
      tombstone: () => undefined,
      batchAppend: () => undefined,
    });
    this.port = await new Promise<number>((resolve, reject) => {
      this.server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) =>
        error ? reject(error) : resolve(port),
      );
    });
    return this.port;
  }

  stop(): void {
    this.server.forceShutdown();
  }

  /** Resolves once no Read call is open (the test's timeout is the only limit). */
  untilNoneOpen(): Promise<void> {
    if (this.open === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.open !== 0) return;
        this.waiting.delete(check);
        resolve();
      };
      this.waiting.add(check);
    });
  }

  /**
   * A follower's refusal (the leader's address: this server) while notLeaderAnswers lasts, then a success at revision
   * 0.
   */
  private append(call: ServerReadableStream<AppendReq, AppendResp>, callback: sendUnaryData<AppendResp>): void {
    call.on('data', () => undefined);
    call.on('end', () => {
      this.appends += 1;
      if (this.notLeaderAnswers > 0) {
        this.notLeaderAnswers -= 1;
        const metadata = new Metadata();
        metadata.set('exception', 'not-leader');
        metadata.set('leader-endpoint-host', '127.0.0.1');
        metadata.set('leader-endpoint-port', String(this.port));
        callback({ code: status.NOT_FOUND, details: 'Leader info available', metadata });
        return;
      }
      const position = new AppendResp.Position().setCommitPosition('4200').setPreparePosition('4200');
      callback(
        null,
        new AppendResp().setSuccess(new AppendResp.Success().setCurrentRevision('0').setPosition(position)),
      );
    });
  }

  private read(call: ServerWritableStream<ReadReq, ReadResp>): void {
    this.requiresLeader.push(String(call.metadata.get('requires-leader')[0] ?? 'absent'));
    this.opened += 1;
    this.open += 1;
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      this.open -= 1;
      for (const check of [...this.waiting]) check();
    };
    call.on('cancelled', close);
    call.on('close', close);
    if (this.behaviour === 'silent') return;
    let position = 1;
    // As fast as HTTP/2 flow control lets it: a client that stops reading leaves the call blocked, open.
    const push = () => {
      while (!closed) {
        if (!call.write(record(position))) return void call.once('drain', push);
        position += 1;
      }
    };
    push();
  }
}

/** One record of a stream, in the message shape the client decodes. */
function record(position: number): ReadResp {
  const recorded = new ReadResp.ReadEvent.RecordedEvent();
  recorded.setId(new UUID().setString(randomUUID()));
  recorded.setStreamIdentifier(new StreamIdentifier().setStreamName(Buffer.from('transport-test')));
  recorded.setStreamRevision(String(position - 1));
  recorded.setCommitPosition(String(position * 100));
  recorded.setPreparePosition(String(position * 100));
  recorded
    .getMetadataMap()
    .set('type', 'Counted')
    .set('content-type', 'application/json')
    .set('created', '638000000000000000');
  recorded.setData(Buffer.from(JSON.stringify({ position })));
  recorded.setCustomMetadata(Buffer.from(JSON.stringify({ actor: 'test', correlationId: 'c', causationId: 'c' })));
  return new ReadResp().setEvent(new ReadResp.ReadEvent().setEvent(recorded).setCommitPosition(String(position * 100)));
}

describe('The EventStoreDB adapter, at the gRPC transport level', () => {
  const server = new CountingServer();
  let port = 0;
  const stores: EventStoreDbEventStore[] = [];
  const connect = (timeouts: Partial<EventStoreDbTimeouts> = {}) => {
    const store = EventStoreDbEventStore.connect(`esdb://127.0.0.1:${port}?tls=false`, timeouts);
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    port = await server.start();
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    server.behaviour = 'endless';
  });

  afterAll(() => {
    server.stop();
  });

  it(`cancels the call of every read it leaves early, so ${STREAMS_PER_CONNECTION * 1.5} of them never use up the connection`, async () => {
    server.behaviour = 'endless';
    const store = connect();
    const openedBefore = server.opened;

    for (let read = 0; read < STREAMS_PER_CONNECTION * 1.5; read += 1) {
      // readAll up to maxCount (a rebuild's page, GET /session), headPosition (/health), ping.
      if (read % 3 === 0) expect(await store.readAll({ maxCount: 2 })).toHaveLength(2);
      else if (read % 3 === 1) expect(await store.headPosition()).toBe(100n);
      else await store.ping();
    }
    await server.untilNoneOpen();

    expect(server.opened - openedBefore).toBe(STREAMS_PER_CONNECTION * 1.5);
    expect(server.open).toBe(0);
  }, 60_000);

  it('asks the leader for every read (a follower may be behind what was acknowledged): requires-leader on each call', async () => {
    server.behaviour = 'endless';
    const store = connect();
    const before = server.requiresLeader.length;

    await store.readAll({ maxCount: 2 });
    await store.headPosition();
    await store.ping();
    // A subscription is a Read call too; the first event delivered means the call reached the server.
    let delivered!: () => void;
    const first = new Promise<void>((resolve) => (delivered = resolve));
    const subscription = store.subscribeToAll({ onEvent: () => delivered() });
    await first;
    await subscription.close();
    await server.untilNoneOpen();

    expect(server.requiresLeader.slice(before)).toEqual(['true', 'true', 'true', 'true']);
  });

  it('sends an append a follower refused (NotLeader: not written) again, to the leader, and answers its result; a cluster that keeps refusing is a 503', async () => {
    server.behaviour = 'endless';
    const store = connect();
    const event = {
      id: randomUUID(),
      type: 'Counted',
      data: {},
      metadata: { actor: 'test', correlationId: 'c', causationId: 'c' },
    };
    server.notLeaderAnswers = 2;
    const before = server.appends;

    await expect(store.append('org-1', [event], 'no_stream')).resolves.toEqual({
      nextExpectedRevision: 0n,
      position: 4200n,
    });
    expect(server.appends - before).toBe(3);

    server.notLeaderAnswers = 100;
    await expect(store.append('org-2', [{ ...event, id: randomUUID() }], 'no_stream')).rejects.toMatchObject({
      code: 'EVENT_STORE_TIMEOUT',
    });
    server.notLeaderAnswers = 0;
  }, 30_000);

  it('gives up on a read the server never answers, with EventStoreTimeoutError, and cancels its call', async () => {
    server.behaviour = 'silent';
    const store = connect({ readMs: 300 });

    await expect(store.readAll()).rejects.toBeInstanceOf(EventStoreTimeoutError);
    await expect(store.readStream('org-1')).rejects.toMatchObject({ code: 'EVENT_STORE_TIMEOUT', timeoutMs: 300 });
    await expect(store.headPosition()).rejects.toBeInstanceOf(EventStoreTimeoutError);
    await server.untilNoneOpen();

    expect(server.open).toBe(0);
  });

  it('answers ping within its own bound when the server says nothing', async () => {
    server.behaviour = 'silent';
    const store = connect({ pingMs: 300, readMs: 60_000 });

    await expect(store.ping()).rejects.toMatchObject({ code: 'EVENT_STORE_TIMEOUT', timeoutMs: 300 });
    await server.untilNoneOpen();
  });

  it('closes without hanging on reads the server never answers: they reject with EventStoreClosedError', async () => {
    server.behaviour = 'silent';
    const store = connect({ readMs: 600_000, closeMs: 300 });
    const reads = [store.readStream('org-1'), store.readAll(), store.headPosition()].map((read) =>
      read.then(
        () => 'answered',
        (error: unknown) => error,
      ),
    );
    // The calls reach the server before the store closes.
    while (server.open < 3) await new Promise((resolve) => setTimeout(resolve, 10));

    await store.close();

    for (const outcome of await Promise.all(reads)) expect(outcome).toBeInstanceOf(EventStoreClosedError);
    await server.untilNoneOpen();
    expect(server.open).toBe(0);
  });
});
