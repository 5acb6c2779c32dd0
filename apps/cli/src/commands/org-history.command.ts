import type { Command } from 'commander';
import { organizationStream } from '#domain';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import { historyEvent, organizationIdSchema, readOrganizationHistory } from '#api';
import { parseInput, reportFailure } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

const PAGE_SIZE = 500;

const columns = (time: string, revision: string, type: string, actor: string, correlation: string): string =>
  `${time.padEnd(24)}  ${revision.padStart(8)}  ${type.padEnd(30)}  ${actor.padEnd(40)}  ${correlation}`;

/** One line per event: a table row for people, or one JSON object (GET .../history's event shape) for tools. */
function eventLine(event: RecordedEvent, json: boolean): string {
  if (json) return JSON.stringify(historyEvent(event));
  return columns(event.recordedAt, String(event.revision), event.type, event.metadata.actor, event.metadata.correlationId);
}

/** Prints events recorded after `afterPosition` in the stream until SIGINT or SIGTERM. */
function follow(store: EventStore, streamId: string, afterPosition: bigint, print: (event: RecordedEvent) => void): Promise<void> {
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

/** `chorus org:history ID [--json] [--follow]`: the organization's events, oldest first. */
export function registerOrgHistoryCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:history')
    .description("an organization's events, oldest first: time, revision, type, actor and correlation id")
    .argument('<id>', 'the organization id')
    .option('--json', 'one JSON object per line (the event shape of GET /organizations/:id/history)')
    .option('--follow', 'keep printing new events until interrupted (Ctrl-C)')
    .action(async (id: string, options: { json?: boolean; follow?: boolean }) => {
      const json = options.json === true;
      const print = (event: RecordedEvent): void => {
        process.stdout.write(`${eventLine(event, json)}\n`);
      };
      try {
        const organizationId = parseInput(organizationIdSchema, id, 'id');
        const store = (await getContext()).app.get<EventStore>(EVENT_STORE);
        let last: RecordedEvent | undefined;
        for (let fromRevision = 0n, hasMore = true; hasMore; ) {
          const page = await readOrganizationHistory(store, organizationId, { fromRevision, limit: PAGE_SIZE });
          // The header only once the organization is known to exist.
          if (!json && fromRevision === 0n) process.stdout.write(`${columns('time', 'revision', 'type', 'actor', 'correlation')}\n`);
          page.events.forEach(print);
          last = page.events.at(-1) ?? last;
          ({ nextFromRevision: fromRevision, hasMore } = page);
        }
        if (options.follow === true && last !== undefined) await follow(store, organizationStream(organizationId), last.position, print);
      } catch (error) {
        reportFailure(error, json);
      }
    });
}
