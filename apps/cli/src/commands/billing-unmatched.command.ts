import type { Command } from 'commander';
import { STRIPE_UNMATCHED_STREAM, type StripeEventUnmatched } from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import { cliAction } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

type Unmatched = StripeEventUnmatched['data'] & { receivedAt: string };

const row = (cells: readonly string[]): string =>
  [cells[0]?.padEnd(24), cells[1]?.padEnd(36), cells[2]?.padEnd(22), cells[3]?.padEnd(30), cells[4]].join('  ').trimEnd();

/** `chorus billing:unmatched [--json]`: the Stripe events Chorus kept without placing them, oldest first, with the reason. */
export function registerBillingUnmatchedCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('billing:unmatched')
    .description('list the Stripe events Chorus could not place (no or unknown organization, unknown price), with the reason')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context) => {
        const read = await context.app.get<EventStore>(EVENT_STORE).readStream(STRIPE_UNMATCHED_STREAM);
        const events: Unmatched[] = (read.found ? read.events : []).map((event) => ({
          ...(event.data as StripeEventUnmatched['data']),
          receivedAt: event.recordedAt,
        }));
        return {
          json: { events },
          text:
            events.length === 0
              ? 'No unmatched Stripe events.'
              : [
                  row(['RECEIVED', 'EVENT', 'REASON', 'TYPE', 'DETAIL']),
                  ...events.map((event) => row([event.receivedAt, event.eventId, event.reason, event.eventType, event.detail])),
                ].join('\n'),
        };
      }),
    );
}
