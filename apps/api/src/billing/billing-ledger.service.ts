// The billing ledger's store (its events, fold and decisions: libs/domain's billing-ledger.ts). Its events have
// ids named after the provider event, so a repeated decision is recognised. See README.md.
import { Inject, Injectable } from '@nestjs/common';
import {
  billingLedgerDecider,
  billingStream,
  type BillingEventReceived,
  type BillingOutcome,
  type LedgerEntry,
  type OrganizationCommand,
} from '#domain';
import { handleCommand, loadStream, type CommandContext } from '#application';
import { EVENT_STORE, type EventStore } from '#event-store';
import type { BillingEvent } from './billing-event.schema.js';
import { nameBasedUuid } from './name-based-uuid.js';

const claimEventId = (providerEventId: string): string => nameBasedUuid(`billing:${providerEventId}:received`);
const outcomeEventId = (providerEventId: string): string => nameBasedUuid(`billing:${providerEventId}:outcome`);

/** The id the claim of this entry was appended with: the causation of everything it caused. */
export const claimIdOf = (entry: LedgerEntry): string => claimEventId(entry.received.id);

/** Every ledger and organization event of one provider event shares this provenance. */
export function billingContext(received: BillingEventReceived['data'], causationId: string): CommandContext {
  return {
    actor: 'billing',
    correlationId: received.id,
    causationId,
    origin: {
      providerEventId: received.id,
      providerEventType: received.type,
      productId: received.productId,
      occurredAt: received.occurredAt,
    },
  };
}

@Injectable()
export class BillingLedger {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async read(providerEventId: string): Promise<LedgerEntry | undefined> {
    return (await loadStream(this.store, billingLedgerDecider, providerEventId)).state;
  }

  /** Claims the provider event id; whoever wins, answers the entry as stored (the first delivery's content). */
  async claim(event: BillingEvent, command: OrganizationCommand): Promise<LedgerEntry> {
    const received: BillingEventReceived['data'] = { ...event, command };
    await handleCommand(
      this.store,
      billingLedgerDecider,
      event.id,
      { type: 'ClaimBillingEvent', data: received },
      billingContext(received, event.id),
      {
        eventId: () => claimEventId(event.id),
      },
    );
    // Read back: a concurrent first delivery with other content may have been stored under the same claim id.
    const entry = await this.read(event.id);
    if (entry === undefined) throw new Error(`${billingStream(event.id)} vanished after its claim`);
    return entry;
  }

  /** Records the outcome once; a concurrent delivery that recorded it first wins and its outcome is answered. */
  async complete(entry: LedgerEntry, outcome: BillingOutcome): Promise<BillingOutcome> {
    const context = billingContext(entry.received, claimIdOf(entry));
    const { state } = await handleCommand(
      this.store,
      billingLedgerDecider,
      entry.received.id,
      { type: 'RecordBillingOutcome', data: outcome },
      context,
      {
        eventId: () => outcomeEventId(entry.received.id),
      },
    );
    return state?.outcome ?? outcome;
  }
}
