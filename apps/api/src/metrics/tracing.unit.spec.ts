// The explicit spans of a write (docs/service.md, Tracing): command, decision and append nest, the appended
// events carry the append's traceparent, and what reads them back (a projection, a reaction) joins that trace.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { context, trace } from '@opentelemetry/api';
import { node } from '@opentelemetry/sdk-node';
import { handleCommand, inSpan, spanPlaceFor, TRACEPARENT, tracingStarted, tracingStopped } from '#application';
import type { Decider } from '#domain';
import type { EventStore, EventToAppend } from '#event-store';
import { createPino } from '../logging/pino.js';
import { ChorusMetrics } from './chorus-metrics.js';
import { TimedEventStore } from './instrumentation.js';

const exporter = new node.InMemorySpanExporter();
const provider = new node.NodeTracerProvider({ spanProcessors: [new node.SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  provider.register();
  tracingStarted();
});

afterAll(async () => {
  tracingStopped();
  await provider.shutdown();
  trace.disable();
  context.disable();
});

beforeEach(() => exporter.reset());

type Counter = { count: number };
type Added = { type: 'Added'; data: Record<string, never> };
const counterDecider: Decider<Counter, { type: 'Add' }, Added> = {
  initialState: { count: 0 },
  streamOf: (id: string) => `counter-${id}`,
  decide: (): Added[] => [{ type: 'Added', data: {} }],
  evolve: (state: Counter) => ({ count: state.count + 1 }),
};

function recordingStore(): { store: EventStore; appended: EventToAppend[] } {
  const appended: EventToAppend[] = [];
  const inner = {
    readStream: () => Promise.resolve({ found: false }),
    append: (_stream: string, events: readonly EventToAppend[]) => {
      appended.push(...events);
      return Promise.resolve({ nextExpectedRevision: BigInt(appended.length - 1), position: BigInt(appended.length) });
    },
  } as unknown as EventStore;
  const metrics = new ChorusMetrics(() => Promise.reject(new Error('no read models here')));
  return { store: new TimedEventStore(inner, metrics, 'sqlite'), appended };
}

const context0 = { actor: 'user:u1', correlationId: 'c1', causationId: 'c1', origin: {} };

describe('tracing a command', () => {
  it('nests decide and append in the command span, and stamps the append span on each appended event', async () => {
    const { store, appended } = recordingStore();

    await inSpan('POST /things', {}, () => handleCommand(store, counterDecider, 'a', { type: 'Add' }, context0));

    const spans = exporter.getFinishedSpans();
    const byName = new Map(spans.map((span) => [span.name, span]));
    const request = byName.get('POST /things');
    const command = byName.get('command Add');
    const decide = byName.get('decide');
    const append = byName.get('append');
    expect([request, command, decide, append].every((span) => span !== undefined)).toBe(true);
    const traceId = request?.spanContext().traceId;
    expect(spans.every((span) => span.spanContext().traceId === traceId)).toBe(true);
    expect(command?.parentSpanContext?.spanId).toBe(request?.spanContext().spanId);
    expect(decide?.parentSpanContext?.spanId).toBe(command?.spanContext().spanId);
    expect(append?.parentSpanContext?.spanId).toBe(command?.spanContext().spanId);
    expect(append?.attributes).toMatchObject({ 'chorus.stream': 'counter-a', 'chorus.events': 1 });
    expect(appended[0]?.metadata[TRACEPARENT]).toBe(`00-${traceId}-${append?.spanContext().spanId}-01`);
    // The command's own metadata is not changed: only the stored copy carries it.
    expect(context0).not.toHaveProperty(TRACEPARENT);
  });

  it("puts a span about one trace's events in that trace, and one about several traces' events in its own, linked to each", async () => {
    const { store, appended } = recordingStore();
    await handleCommand(store, counterDecider, 'a', { type: 'Add' }, context0);
    await handleCommand(store, counterDecider, 'b', { type: 'Add' }, context0);
    const [first, second] = appended.map((event) => ({ metadata: event.metadata }));
    const traceOf = (event: typeof first) => String(event?.metadata[TRACEPARENT]).slice(3, 35);
    exporter.reset();

    inSpan('project one', spanPlaceFor([first, first].filter((event) => event !== undefined)), () => undefined);
    inSpan('project both', spanPlaceFor([first, second].filter((event) => event !== undefined)), () => undefined);
    inSpan('project untraced', spanPlaceFor([{ metadata: {} }]), () => undefined);

    const [one, both, untraced] = exporter.getFinishedSpans();
    expect(one?.spanContext().traceId).toBe(traceOf(first));
    expect(both?.spanContext().traceId).not.toBe(traceOf(first));
    expect(both?.links.map((link) => link.context.traceId).sort()).toEqual([traceOf(first), traceOf(second)].sort());
    expect(untraced?.parentSpanContext).toBeUndefined();
  });

  it('marks a refused command failed', async () => {
    const { store } = recordingStore();
    const refusing = {
      ...counterDecider,
      decide: () => {
        throw new Error('refused');
      },
    } as typeof counterDecider;

    await expect(handleCommand(store, refusing, 'a', { type: 'Add' }, context0)).rejects.toThrow('refused');

    const names = exporter.getFinishedSpans().map((span) => [span.name, span.status.code]);
    expect(names).toEqual([
      ['decide', 2],
      ['command Add', 2],
    ]);
  });

  it('writes the trace and span ids on the log lines written within a span', () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    const logger = createPino({ level: 'info', destination });

    logger.info('outside');
    inSpan('work', {}, (span) => {
      logger.info('inside');
      return span;
    });

    const [span] = exporter.getFinishedSpans();
    expect(lines[0]).not.toHaveProperty('traceId');
    expect(lines[1]).toMatchObject({ traceId: span?.spanContext().traceId, spanId: span?.spanContext().spanId });
  });
});
