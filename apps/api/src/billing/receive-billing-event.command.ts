import { Command } from '@nestjs/cqrs';
import type { BillingEvent } from './billing-event.schema.js';

/** What a delivery of a provider event came to. */
export type BillingReceipt = {
  /** The provider's event id. */
  id: string;
  outcome: 'applied' | 'superseded';
  /** The event id was already recorded when this delivery arrived. */
  duplicate: boolean;
  organizationId: string;
  /** Where the organization's stream stood after the event (read your writes with ?minPosition=). */
  revision: bigint;
  position: bigint;
};

/** A verified, well-formed provider event: recorded once, applied to its organization at most once. */
export class ReceiveBillingEventCommand extends Command<BillingReceipt> {
  constructor(readonly event: BillingEvent) {
    super();
  }
}
