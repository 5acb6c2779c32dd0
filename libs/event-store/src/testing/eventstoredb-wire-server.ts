// A log behind EventStoreDB's gRPC Streams service, for the transport-level tests of copies into and out of
// EventStoreDB where no EventStoreDB can run (no Docker): grpc-js serving the service definition generated from the
// client's own .proto files, so every call goes through the real client and its real encoding. It keeps what
// EventStoreDB's answers promise the adapter and nothing more: positions given as records are written (increasing, with
// gaps, as byte offsets are), expected revisions, idempotent repeats of the same ids at the same revision, soft deletes
// (stream metadata) and tombstones. What EventStoreDB itself does is tested against it where Docker runs
// (eventstoredb-event-store.int.spec.ts, eventstoredb-copies.int.spec.ts).
import { randomUUID } from 'node:crypto';
import {
  Metadata,
  Server,
  ServerCredentials,
  status,
  type sendUnaryData,
  type ServerReadableStream,
  type ServerUnaryCall,
  type ServerWritableStream,
} from '@grpc/grpc-js';
import { Empty, StreamIdentifier, UUID } from '@eventstore/db-client/generated/shared_pb.js';
import { StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb.js';
import {
  AppendReq,
  AppendResp,
  DeleteReq,
  DeleteResp,
  ReadReq,
  ReadResp,
  TombstoneReq,
  TombstoneResp,
} from '@eventstore/db-client/generated/streams_pb.js';

export type WireRecord = {
  streamId: string;
  revision: bigint;
  id: string;
  type: string;
  contentType: string;
  data: Buffer;
  metadata: Buffer;
  /** Ticks of 100 ns since the Unix epoch, as the server sends `created`. */
  created: bigint;
  position: bigint;
};

type Expected = { kind: 'revision'; revision: bigint } | { kind: 'no_stream' | 'any' | 'stream_exists' };

const SOFT_DELETED = '{"$tb":9223372036854775807}';
const TOMBSTONE_REVISION = 2n ** 63n - 1n;

const streamName = (identifier: StreamIdentifier | undefined): string =>
  Buffer.from(identifier?.getStreamName() ?? '').toString('utf8');

function failure(code: status, exception: string, stream: string): Partial<{ code: status; metadata: Metadata }> {
  const metadata = new Metadata();
  metadata.set('exception', exception);
  metadata.set('stream-name', stream);
  return { code, details: exception, metadata } as Partial<{ code: status; metadata: Metadata }>;
}

export class EventStoreDbWireServer {
  /** Every record in $all order, system ones included. */
  readonly all: WireRecord[] = [];
  private readonly streams = new Map<string, WireRecord[]>();
  private readonly tombstoned = new Set<string>();
  private nextPosition = 0n;
  private readonly server = new Server();
  port = 0;

  async start(): Promise<string> {
    // The first records of a real database are the server's own.
    this.write('$epochs', [{ id: '00000000-0000-4000-8000-000000000000', type: '$epoch', data: '{}', metadata: '' }]);
    this.server.addService(StreamsService, {
      read: (call: ServerWritableStream<ReadReq, ReadResp>) => this.read(call),
      append: (call: ServerReadableStream<AppendReq, AppendResp>, callback: sendUnaryData<AppendResp>) =>
        this.append(call, callback),
      delete: (call: ServerUnaryCall<DeleteReq, DeleteResp>, callback: sendUnaryData<DeleteResp>) =>
        this.softDelete(call, callback),
      tombstone: (call: ServerUnaryCall<TombstoneReq, TombstoneResp>, callback: sendUnaryData<TombstoneResp>) =>
        this.tombstone(call, callback),
      batchAppend: () => undefined,
    });
    this.port = await new Promise<number>((resolve, reject) => {
      this.server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) =>
        error ? reject(error) : resolve(port),
      );
    });
    return `esdb://127.0.0.1:${this.port}?tls=false`;
  }

  stop(): void {
    this.server.forceShutdown();
  }

  /** The records of the log's own streams (not `$`-prefixed), in $all order. */
  userRecords(): WireRecord[] {
    return this.all.filter((record) => !record.streamId.startsWith('$') && !record.type.startsWith('$'));
  }

  private write(
    streamId: string,
    events: readonly { id: string; type: string; data: string | Buffer; metadata: string | Buffer }[],
    revision?: bigint,
  ): WireRecord[] {
    const stream = this.streams.get(streamId) ?? [];
    this.streams.set(streamId, stream);
    const written = events.map((event, index) => {
      const data = Buffer.from(event.data);
      const metadata = Buffer.from(event.metadata);
      const record: WireRecord = {
        streamId,
        revision: revision ?? BigInt(stream.length + index),
        id: event.id,
        type: event.type,
        contentType: 'application/json',
        data,
        metadata,
        created: BigInt(Date.now()) * 10_000n,
        position: this.nextPosition,
      };
      // A record's position is its offset in the log: the next one starts after its bytes.
      this.nextPosition += 100n + BigInt(data.length + metadata.length + streamId.length);
      return record;
    });
    stream.push(...written);
    this.all.push(...written);
    return written;
  }

  /** Events below the stream's truncate-before (a soft delete) are hidden from reads of the stream. */
  private visible(streamId: string): WireRecord[] | undefined {
    const stream = this.streams.get(streamId);
    if (stream === undefined || stream.length === 0) return undefined;
    const metadata = this.streams.get(`$$${streamId}`)?.at(-1);
    const truncateBefore =
      metadata === undefined ? 0 : Number((JSON.parse(metadata.data.toString('utf8')) as { $tb?: number }).$tb ?? 0);
    const shown = stream.filter((record) => Number(record.revision) >= truncateBefore);
    return shown.length === 0 ? undefined : shown;
  }

  private read(call: ServerWritableStream<ReadReq, ReadResp>): void {
    const options = call.request.getOptions();
    if (options === undefined || options.hasSubscription()) {
      call.emit('error', { code: status.UNIMPLEMENTED, details: 'subscriptions are not served here' });
      return;
    }
    const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
    const count = Number(options.getCount());
    let records: WireRecord[];
    const all = options.getAll();
    if (all !== undefined) {
      const at = all.hasPosition() ? BigInt(all.getPosition()?.getCommitPosition() ?? '0') : undefined;
      if (backwards) {
        const before = at === undefined ? this.all : this.all.filter((record) => record.position < at);
        records = before.slice(-count).reverse();
      } else {
        records = (at === undefined ? this.all : this.all.filter((record) => record.position >= at)).slice(0, count);
      }
    } else {
      const stream = options.getStream();
      const name = streamName(stream?.getStreamIdentifier());
      if (this.tombstoned.has(name)) {
        call.emit('error', failure(status.FAILED_PRECONDITION, 'stream-deleted', name));
        return;
      }
      const shown = this.visible(name);
      if (shown === undefined) {
        const notFound = new ReadResp.StreamNotFound().setStreamIdentifier(
          new StreamIdentifier().setStreamName(Buffer.from(name)),
        );
        call.write(new ReadResp().setStreamNotFound(notFound));
        call.end();
        return;
      }
      const from = stream?.hasRevision() ? BigInt(stream.getRevision()) : undefined;
      records = backwards
        ? shown
            .filter((record) => from === undefined || record.revision <= from)
            .slice(-count)
            .reverse()
        : shown.filter((record) => from === undefined || record.revision >= from).slice(0, count);
    }
    for (const record of records) call.write(toReadResp(record));
    call.end();
  }

  private append(call: ServerReadableStream<AppendReq, AppendResp>, callback: sendUnaryData<AppendResp>): void {
    let options: AppendReq.Options | undefined;
    const proposed: { id: string; type: string; data: Buffer; metadata: Buffer }[] = [];
    call.on('data', (request: AppendReq) => {
      if (request.hasOptions()) options = request.getOptions();
      const message = request.getProposedMessage();
      if (message !== undefined)
        proposed.push({
          id: message.getId()?.getString() ?? '',
          type: message.getMetadataMap().get('type') ?? '',
          data: Buffer.from(message.getData_asU8()),
          metadata: Buffer.from(message.getCustomMetadata_asU8()),
        });
    });
    // A client gone before its request ended (killed): nothing of it is written, as nothing reached the log.
    let cancelled = false;
    call.on('cancelled', () => (cancelled = true));
    call.on('end', () => {
      if (cancelled) return;
      const name = streamName(options?.getStreamIdentifier());
      if (this.tombstoned.has(name)) return callback(failure(status.FAILED_PRECONDITION, 'stream-deleted', name));
      const expected: Expected = options?.hasRevision()
        ? { kind: 'revision', revision: BigInt(options.getRevision()) }
        : options?.hasNoStream()
          ? { kind: 'no_stream' }
          : options?.hasStreamExists()
            ? { kind: 'stream_exists' }
            : { kind: 'any' };
      const stream = this.streams.get(name) ?? [];
      const current = stream.length === 0 ? undefined : BigInt(stream.length - 1);
      const first =
        expected.kind === 'revision' ? expected.revision + 1n : expected.kind === 'no_stream' ? 0n : undefined;
      // The same ids at the same revision: written already, answered as written.
      const there = first === undefined ? [] : stream.slice(Number(first), Number(first) + proposed.length);
      if (there.length === proposed.length && there.every((record, index) => record.id === proposed[index]?.id)) {
        const last = there.at(-1);
        if (last !== undefined) return callback(null, success(last));
      }
      const wrong =
        (expected.kind === 'revision' && current !== expected.revision) ||
        (expected.kind === 'no_stream' && current !== undefined) ||
        (expected.kind === 'stream_exists' && current === undefined);
      if (wrong) {
        const mismatch = new AppendResp.WrongExpectedVersion();
        if (current === undefined) mismatch.setCurrentNoStream(new Empty());
        else mismatch.setCurrentRevision(current.toString());
        if (expected.kind === 'revision') mismatch.setExpectedRevision(expected.revision.toString());
        else if (expected.kind === 'no_stream') mismatch.setExpectedNoStream(new Empty());
        else mismatch.setExpectedStreamExists(new Empty());
        return callback(null, new AppendResp().setWrongExpectedVersion(mismatch));
      }
      if (proposed.length === 0) {
        const answer = new AppendResp.Success().setNoPosition(new Empty());
        if (current === undefined) answer.setNoStream(new Empty());
        else answer.setCurrentRevision(current.toString());
        return callback(null, new AppendResp().setSuccess(answer));
      }
      const softDeleted = current !== undefined && this.visible(name) === undefined;
      const written = this.write(name, proposed);
      // An append to a soft-deleted stream starts it again from here.
      if (softDeleted)
        this.write(`$$${name}`, [
          { id: randomUUID(), type: '$metadata', data: `{"$tb":${written[0]?.revision}}`, metadata: '' },
        ]);
      callback(null, success(written.at(-1) as WireRecord));
    });
  }

  private softDelete(call: ServerUnaryCall<DeleteReq, DeleteResp>, callback: sendUnaryData<DeleteResp>): void {
    const name = streamName(call.request.getOptions()?.getStreamIdentifier());
    if (this.tombstoned.has(name)) return callback(failure(status.FAILED_PRECONDITION, 'stream-deleted', name));
    const [record] = this.write(`$$${name}`, [
      { id: randomUUID(), type: '$metadata', data: SOFT_DELETED, metadata: '' },
    ]);
    const position = new DeleteResp.Position()
      .setCommitPosition(String(record?.position))
      .setPreparePosition(String(record?.position));
    callback(null, new DeleteResp().setPosition(position));
  }

  private tombstone(call: ServerUnaryCall<TombstoneReq, TombstoneResp>, callback: sendUnaryData<TombstoneResp>): void {
    const name = streamName(call.request.getOptions()?.getStreamIdentifier());
    if (this.tombstoned.has(name)) return callback(failure(status.FAILED_PRECONDITION, 'stream-deleted', name));
    this.tombstoned.add(name);
    const [record] = this.write(
      name,
      [{ id: randomUUID(), type: '$streamDeleted', data: '{}', metadata: '' }],
      TOMBSTONE_REVISION,
    );
    const position = new TombstoneResp.Position()
      .setCommitPosition(String(record?.position))
      .setPreparePosition(String(record?.position));
    callback(null, new TombstoneResp().setPosition(position));
  }
}

function success(last: WireRecord): AppendResp {
  const position = new AppendResp.Position()
    .setCommitPosition(last.position.toString())
    .setPreparePosition(last.position.toString());
  return new AppendResp().setSuccess(
    new AppendResp.Success().setCurrentRevision(last.revision.toString()).setPosition(position),
  );
}

function toReadResp(record: WireRecord): ReadResp {
  const recorded = new ReadResp.ReadEvent.RecordedEvent();
  recorded.setId(new UUID().setString(record.id));
  recorded.setStreamIdentifier(new StreamIdentifier().setStreamName(Buffer.from(record.streamId)));
  recorded.setStreamRevision(record.revision.toString());
  recorded.setCommitPosition(record.position.toString());
  recorded.setPreparePosition(record.position.toString());
  recorded
    .getMetadataMap()
    .set('type', record.type)
    .set('content-type', record.contentType)
    .set('created', record.created.toString());
  recorded.setData(record.data);
  recorded.setCustomMetadata(record.metadata);
  return new ReadResp().setEvent(
    new ReadResp.ReadEvent().setEvent(recorded).setCommitPosition(record.position.toString()),
  );
}
