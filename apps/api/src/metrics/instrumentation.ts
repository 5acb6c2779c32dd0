// The two wrappers that measure a write, each bound where what it wraps is bound: the CommandBus the routes
// send commands through, and the event store bound with the port. Nothing is patched in at start-up.
import { Injectable } from '@nestjs/common';
import { currentTraceparent, inSpan, SpanKind, TRACEPARENT, tracingOn } from '#application';
import { CommandBus, type ICommand } from '@nestjs/cqrs';
import {
  ForwardingEventStore,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type StreamAppend,
} from '#event-store';
import { ErrorAnswers } from '../http/error-answers.js';
import { toProblem } from '../http/problem-document.js';
import { ChorusMetrics } from './chorus-metrics.js';

/** The command's type: the domain command's own (`AssignPlan`) for ChangeOrganizationCommand, else its class's. */
export function commandTypeOf(command: ICommand): string {
  const change = (command as { change?: { type?: unknown } }).change;
  if (typeof change?.type === 'string') return change.type;
  return command.constructor.name.replace(/Command$/, '');
}

/** The CommandBus the routes send commands through, counting each into `chorus_commands_total` by type and outcome. */
@Injectable()
export class MeteredCommandBus {
  readonly execute: CommandBus['execute'];

  constructor(bus: CommandBus, metrics: ChorusMetrics, answers: ErrorAnswers) {
    const counted = async (command: ICommand): Promise<unknown> => {
      const type = commandTypeOf(command);
      try {
        const result: unknown = await bus.execute(command);
        metrics.commands.inc({ command: type, outcome: 'accepted', code: '' });
        return result;
      } catch (error) {
        const problem = toProblem(error, answers);
        metrics.commands.inc({
          command: type,
          outcome: problem.unexpected ? 'failed' : 'refused',
          code: problem.document.code,
        });
        throw error;
      }
    };
    this.execute = counted as CommandBus['execute'];
  }
}

type Outcome = 'ok' | 'conflict' | 'error';

/**
 * The event store with every append timed into `chorus_event_store_append_duration_seconds` and, with tracing on,
 * in an `append` span whose W3C `traceparent` each appended event carries in its metadata (docs/service.md,
 * Tracing); everything else passed through.
 */
export class TimedEventStore extends ForwardingEventStore {
  private readonly labels: Record<Outcome, { store: string; outcome: Outcome }>;

  constructor(
    inner: EventStore,
    private readonly metrics: ChorusMetrics,
    storeName: string,
  ) {
    super(inner);
    metrics.countCommits(() => this.commitStats?.());
    this.labels = {
      ok: { store: storeName, outcome: 'ok' },
      conflict: { store: storeName, outcome: 'conflict' },
      error: { store: storeName, outcome: 'error' },
    };
  }

  override append(
    streamId: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    if (!tracingOn()) return this.timedAppend(streamId, events, expectedRevision);
    const attributes = {
      'chorus.stream': streamId,
      'chorus.events': events.length,
      'db.system.name': this.labels.ok.store,
    };
    return inSpan('append', { attributes, kind: SpanKind.CLIENT }, () =>
      this.timedAppend(streamId, withTraceparent(events), expectedRevision),
    );
  }

  override appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    if (!tracingOn()) return this.timed(() => this.inner.appendToStreams(appends));
    const attributes = {
      // The streams of the command's one append, in its order.
      'chorus.stream': appends.map((part) => part.streamId).join(' '),
      'chorus.events': appends.reduce((total, part) => total + part.events.length, 0),
      'db.system.name': this.labels.ok.store,
    };
    // Inside the span: each event carries the append's own traceparent.
    return inSpan('append', { attributes, kind: SpanKind.CLIENT }, () =>
      this.timed(() =>
        this.inner.appendToStreams(appends.map((part) => ({ ...part, events: withTraceparent(part.events) }))),
      ),
    );
  }

  private timedAppend(
    streamId: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    return this.timed(() => this.inner.append(streamId, events, expectedRevision));
  }

  private timed<Result>(append: () => Promise<Result>): Promise<Result> {
    const startedAt = process.hrtime.bigint();
    let appended: Promise<Result>;
    try {
      appended = append();
    } catch (error) {
      // A store that throws instead of rejecting: still timed, and still a rejection for the caller.
      this.observe(outcomeOf(error), startedAt);
      return Promise.reject(error as Error);
    }
    return appended.then(
      (result) => {
        this.observe('ok', startedAt);
        return result;
      },
      (error: unknown) => {
        this.observe(outcomeOf(error), startedAt);
        throw error;
      },
    );
  }

  private observe(outcome: Outcome, startedAt: bigint): void {
    this.metrics.appendDuration.observe(this.labels[outcome], Number(process.hrtime.bigint() - startedAt) / 1e9);
  }
}

/** The events with the active span's `traceparent` in their metadata (one copy of a metadata object they share). */
function withTraceparent(events: readonly EventToAppend[]): readonly EventToAppend[] {
  const traceparent = currentTraceparent();
  if (traceparent === undefined) return events;
  const copies = new Map<EventToAppend['metadata'], EventToAppend['metadata']>();
  return events.map((event) => {
    let metadata = copies.get(event.metadata);
    if (metadata === undefined) {
      metadata = { ...event.metadata, [TRACEPARENT]: traceparent };
      copies.set(event.metadata, metadata);
    }
    return { ...event, metadata };
  });
}

const outcomeOf = (error: unknown): Outcome => (error instanceof WrongExpectedRevisionError ? 'conflict' : 'error');
