import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Command } from 'commander';
import { z } from 'zod';
import { organizationStream } from '#domain';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import {
  ActorNameLookup,
  EXPORT_FORMATS,
  HistoryExport,
  HistoryInWords,
  historyEvent,
  organizationIdSchema,
  readOrganizationHistory,
  type ExportFormat,
  type TimelineEntry,
} from '#api';
import { parseInput, reportFailure } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

const PAGE_SIZE = 500;

// The event in words last: sentences differ in length, the columns before them do not.
const columns = (time: string, revision: string, actor: string, event: string): string =>
  `${time.padEnd(24)}  ${revision.padStart(8)}  ${actor.padEnd(28)}  ${event}`;

const entryLine = (entry: TimelineEntry): string =>
  columns(entry.recordedAt, String(entry.revision), entry.actorName, entry.description);

function follow(
  store: EventStore,
  streamId: string,
  afterPosition: bigint,
  print: (event: RecordedEvent) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const subscription = store.subscribeToAll({
      fromPosition: afterPosition,
      // A prefix filter: `organization-acme` also matches `organization-acme-corp`, hence the exact check.
      filter: { streamPrefixes: [streamId] },
      onEvent: (event) => {
        if (event.streamId === streamId) print(event);
      },
      onError: reject,
    });
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      subscription.close().then(resolve, reject);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

const exportOptions = z
  .strictObject({
    format: z.enum(EXPORT_FORMATS as [ExportFormat, ...ExportFormat[]], {
      error: `must be one of ${EXPORT_FORMATS.join(', ')}`,
    }),
    json: z.literal(false, { error: 'cannot be given with --format (the format says what is printed)' }),
    follow: z.literal(false, { error: 'cannot be given with --format (an export ends with the last event)' }),
    proof: z.boolean(),
  })
  .refine(({ proof, format }) => !proof || format === 'jsonl', {
    message: 'comes with --format jsonl only',
    path: ['proof'],
  });

async function printExport(
  getContext: GetCliContext,
  organizationId: string,
  format: ExportFormat,
  proof: boolean,
): Promise<void> {
  const exports = (await getContext()).app.get(HistoryExport);
  const chunks = proof ? await exports.openWithProof(organizationId) : await exports.open(organizationId, format);
  // end: false: stdout stays open for the process; pipeline waits for it to drain between chunks.
  await pipeline(Readable.from(chunks), process.stdout, { end: false });
}

export function registerOrgHistoryCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:history')
    .description(
      "an organization's events, oldest first, in the console's words: time, revision, who, and what happened",
    )
    .argument('<id>', 'the organization id')
    .option(
      '--json',
      'one JSON object per line (the event shape of GET /organizations/:id/history: type, data, metadata, correlation id)',
    )
    .option('--follow', 'keep printing new events until interrupted (Ctrl-C)')
    .option(
      '--format <format>',
      `the whole history with the console's words, as the console's downloads: ${EXPORT_FORMATS.join(' or ')}`,
    )
    .option(
      '--proof',
      'with --format jsonl: each event with its hashes, ending with a signed checkpoint (history:verify)',
    )
    .action(async (id: string, options: { json?: boolean; follow?: boolean; format?: string; proof?: boolean }) => {
      const json = options.json === true;
      if (options.format !== undefined || options.proof === true) {
        try {
          const organizationId = parseInput(organizationIdSchema, id, 'id');
          const { format, proof } = parseInput(exportOptions, {
            format: options.format,
            json,
            follow: options.follow === true,
            proof: options.proof === true,
          });
          await printExport(getContext, organizationId, format, proof);
        } catch (error) {
          await reportFailure(error, false, getContext);
        }
        return;
      }
      try {
        const organizationId = parseInput(organizationIdSchema, id, 'id');
        const { app } = await getContext();
        const store = app.get<EventStore>(EVENT_STORE);
        const words = new HistoryInWords(app.get(ActorNameLookup), organizationId);
        // In order, also while following: each page's words wait for the names of the page before.
        let printed = Promise.resolve();
        const print = (events: RecordedEvent[]): Promise<void> =>
          (printed = printed.then(async () => {
            const lines = json
              ? events.map((event) => JSON.stringify(historyEvent(event)))
              : (await words.entries(events)).map(entryLine);
            if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
          }));
        let last: RecordedEvent | undefined;
        for (let fromRevision = 0n, hasMore = true; hasMore;) {
          const page = await readOrganizationHistory(store, organizationId, { fromRevision, limit: PAGE_SIZE });
          if (!json && fromRevision === 0n) process.stdout.write(`${columns('time', 'revision', 'by', 'event')}\n`);
          await print(page.events);
          last = page.events.at(-1) ?? last;
          ({ nextFromRevision: fromRevision, hasMore } = page);
        }
        if (options.follow === true && last !== undefined) {
          await follow(store, organizationStream(organizationId), last.position, (event) => void print([event]));
          await printed;
        }
      } catch (error) {
        await reportFailure(error, json, getContext);
      }
    });
}
