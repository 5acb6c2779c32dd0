// The positions a request's appends took, noted in its context, so that its answer can name the last one
// (Chorus-Position) whatever the route answers in its body (SCIM's resources, a 204).
import {
  ForwardingEventStore,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type StreamAppend,
} from '#event-store';
import { currentRequestContext } from './request-context.js';

function noteWritten(position: bigint): void {
  const context = currentRequestContext();
  if (context !== undefined && (context.writtenUpTo === undefined || position > context.writtenUpTo))
    context.writtenUpTo = position;
}

export class RequestWritesEventStore extends ForwardingEventStore {
  constructor(inner: EventStore) {
    super(inner);
  }

  override async append(
    streamId: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    const result = await this.inner.append(streamId, events, expectedRevision);
    noteWritten(result.position);
    return result;
  }

  override async appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const results = await this.inner.appendToStreams(appends);
    const last = results.at(-1);
    if (last !== undefined) noteWritten(last.position);
    return results;
  }
}
