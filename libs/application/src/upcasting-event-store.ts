// Every read of the log goes through here (commands, projections and their rebuild, history, time travel,
// exports, the change stream, the command line), so the rest of the code sees each event in its current shape;
// every append says which version it wrote (`metadata.schemaVersion`; none stored means version 1).
import type { EventSchemas } from '#domain';
import {
  ForwardingEventStore,
  type AppendResult,
  type EnvelopePart,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type LogEvent,
  type ReadAllOptions,
  type ReadLogByStreamOptions,
  type ReadLogOptions,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type Subscription,
} from '#event-store';

export const SCHEMA_VERSION = 'schemaVersion';

const versionIn = (metadata: Record<string, unknown> | undefined): number => {
  const version = metadata?.[SCHEMA_VERSION];
  return typeof version === 'number' ? version : 1;
};

export class UpcastingEventStore extends ForwardingEventStore {
  constructor(
    inner: EventStore,
    private readonly schemas: EventSchemas,
  ) {
    super(inner);
    const byStream = inner.readLogByStream?.bind(inner);
    this.readLogByStream =
      byStream === undefined
        ? undefined
        : <P extends EnvelopePart = never>(options: ReadLogByStreamOptions<P>) =>
            this.readLogWith(options.parts, (parts) => byStream({ ...options, parts }));
  }

  override append(
    streamId: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    const versioned = events.map((event) => ({
      ...event,
      metadata: { ...event.metadata, [SCHEMA_VERSION]: this.schemas.versionOf(event.type) },
    }));
    return this.inner.append(streamId, versioned, expectedRevision);
  }

  override async readStream(streamId: string, options?: ReadStreamOptions): Promise<ReadStreamResult> {
    const result = await this.inner.readStream(streamId, options);
    return result.found ? { found: true, events: result.events.map(this.current) } : result;
  }

  override async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return (await this.inner.readAll(options)).map(this.current);
  }

  override readLog<P extends EnvelopePart = never>(options: ReadLogOptions<P>): Promise<LogEvent<P>[]> {
    return this.readLogWith(options.parts, (parts) => this.inner.readLog({ ...options, parts }));
  }

  override subscribeToAll(options: SubscribeToAllOptions): Subscription {
    return this.inner.subscribeToAll({ ...options, onEvent: (event) => options.onEvent(this.current(event)) });
  }

  /**
   * An event already in its current shape is passed on untouched: its data, which a store may parse when first read,
   * unread.
   */
  private readonly current = <E extends Pick<RecordedEvent, 'type' | 'data' | 'metadata'>>(event: E): E => {
    const version = versionIn(event.metadata);
    if (version === this.schemas.versionOf(event.type)) return event;
    const data = this.schemas.upcast(event.type, version, event.data);
    return data === event.data ? event : { ...event, data };
  };

  /** The log's reads leave metadata out when not asked for; a version is needed only once some type has several. */
  private async readLogWith<P extends EnvelopePart>(
    parts: readonly P[],
    read: (parts: readonly EnvelopePart[]) => Promise<LogEvent<EnvelopePart>[]>,
  ): Promise<LogEvent<P>[]> {
    if (!this.schemas.evolves) return (await read(parts)) as LogEvent<P>[];
    const asked = parts.includes('metadata' as P);
    // Metadata read for the version stays on the event: taking it off would copy the event, and parse its data.
    const events = await read(asked ? parts : [...parts, 'metadata']);
    return events.map((event) => this.current(event) as LogEvent<P>);
  }
}
