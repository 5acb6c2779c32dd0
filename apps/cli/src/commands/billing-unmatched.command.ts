import type { Command } from 'commander';
import { STRIPE_UNMATCHED_STREAM, stripeUnmatchedStreamPrefix, type StripeEventUnmatched } from '#domain';
import { EVENT_STORE, type EventStore, type LogEvent } from '#event-store';
import { cliAction } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

type Unmatched = StripeEventUnmatched['data'] & { receivedAt: string };
type Kept = LogEvent<'recordedAt'>;

const PAGE_SIZE = 1000;

const row = (cells: readonly string[]): string =>
  [cells[0]?.padEnd(24), cells[1]?.padEnd(36), cells[2]?.padEnd(22), cells[3]?.padEnd(30), cells[4]]
    .join('  ')
    .trimEnd();

/**
 * The events of every stream `billing-stripe-unmatched-<event id>`: read by stream where the store can, else the log
 * filtered.
 */
async function keptOnTheirOwnStreams(store: EventStore): Promise<Kept[]> {
  const toPosition = await store.headPosition();
  if (toPosition === undefined) return [];
  const kept: Kept[] = [];
  const readLogByStream = store.readLogByStream?.bind(store);
  if (readLogByStream !== undefined) {
    for (let after: { streamId: string; revision: bigint } | undefined; ;) {
      const page = await readLogByStream({
        streamPrefix: stripeUnmatchedStreamPrefix,
        toPosition,
        maxCount: PAGE_SIZE,
        parts: ['recordedAt'],
        ...(after && { after }),
      });
      kept.push(...page);
      const last = page.at(-1);
      if (last === undefined || page.length < PAGE_SIZE) return kept;
      after = { streamId: last.streamId, revision: last.revision };
    }
  }
  for (let fromPosition: bigint | undefined; ;) {
    const page = await store.readLog({
      parts: ['recordedAt'],
      maxCount: PAGE_SIZE,
      ...(fromPosition !== undefined && { fromPosition }),
    });
    kept.push(...page.filter((event) => event.streamId.startsWith(stripeUnmatchedStreamPrefix)));
    const last = page.at(-1);
    if (last === undefined || page.length < PAGE_SIZE) return kept;
    fromPosition = last.position;
  }
}

/**
 * Every event kept, oldest first, once: also those a version before kept on the one stream `billing-stripe-unmatched`.
 */
async function keptUnmatched(store: EventStore): Promise<Unmatched[]> {
  const before = await store.readStream(STRIPE_UNMATCHED_STREAM);
  const kept: Kept[] = [...(before.found ? before.events : []), ...(await keptOnTheirOwnStreams(store))];
  kept.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  const listed = new Map<string, Unmatched>();
  for (const event of kept) {
    const data = event.data as StripeEventUnmatched['data'];
    // A redelivery after the upgrade of an event kept on the old stream is kept again on its own.
    if (!listed.has(data.eventId)) listed.set(data.eventId, { ...data, receivedAt: event.recordedAt });
  }
  return [...listed.values()];
}

/**
 * `chorus billing:unmatched [--json]`: the Stripe events Chorus kept without placing them, oldest first, with the
 * reason.
 */
export function registerBillingUnmatchedCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('billing:unmatched')
    .description(
      'list the Stripe events Chorus could not place (no or unknown organization, unknown price, another customer), with the reason',
    )
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context) => {
        const events = await keptUnmatched(context.app.get<EventStore>(EVENT_STORE));
        return {
          json: { events },
          text:
            events.length === 0
              ? 'No unmatched Stripe events.'
              : [
                  row(['RECEIVED', 'EVENT', 'REASON', 'TYPE', 'DETAIL']),
                  ...events.map((event) =>
                    row([event.receivedAt, event.eventId, event.reason, event.eventType, event.detail]),
                  ),
                ].join('\n'),
        };
      }),
    );
}
