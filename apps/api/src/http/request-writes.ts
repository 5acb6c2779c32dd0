// The positions a request's appends took, noted in its context, so that its answer can name the last one
// (Chorus-Position) whatever the route answers in its body (SCIM's resources, a 204).
import {
  handleDecision,
  type CommandContext,
  type Decision,
  type DecisionOptions,
  type DecisionReads,
  type HandledDecision,
} from '#application';
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

/**
 * handleDecision for writes decided together (DecisionOptions.together): their one append runs in the turn of the
 * request that waited first, so each request notes its own position here, in its own context.
 */
export async function handleDecisionTogether<Result>(
  store: EventStore,
  context: CommandContext,
  options: Omit<DecisionOptions, 'together'>,
  decide: (reads: DecisionReads) => Promise<Decision<Result>>,
): Promise<HandledDecision<Result>> {
  const handled = await handleDecision(store, context, { ...options, together: true }, decide);
  if (handled.position !== undefined) noteWritten(handled.position);
  return handled;
}
