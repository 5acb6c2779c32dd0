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
import { currentRequestContext, requestsAnsweringUnder, type RequestContext } from './request-context.js';

function noteWritten(context: RequestContext | undefined, position: bigint): void {
  if (context !== undefined && (context.writtenUpTo === undefined || position > context.writtenUpTo))
    context.writtenUpTo = position;
}

/**
 * Each part is noted for the requests its events were written for (their correlation id), not only for the request
 * whose turn made the append: writes decided together share one append, made in the turn of the one that waited
 * first. The request making the append notes it too (a command whose context is not its request's, such as a check
 * it runs as `system`).
 */
function noteParts(parts: ReadonlyArray<{ readonly events: readonly EventToAppend[] }>, results: AppendResult[]): void {
  const current = currentRequestContext();
  parts.forEach((part, index) => {
    const position = (results[index] as AppendResult).position;
    noteWritten(current, position);
    // A part merged from several decisions holds each one's events, in turn.
    let noted: unknown;
    for (const { metadata } of part.events) {
      if (metadata.correlationId === noted || typeof metadata.correlationId !== 'string') continue;
      noted = metadata.correlationId;
      for (const context of requestsAnsweringUnder(metadata.correlationId) ?? []) noteWritten(context, position);
    }
  });
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
    noteParts([{ events }], [result]);
    return result;
  }

  override async appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const results = await this.inner.appendToStreams(appends);
    noteParts(appends, results);
    return results;
  }
}
