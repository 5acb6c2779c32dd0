import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, organizationStream, type PlanCatalogue } from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { billingCommand } from './billing-command.js';
import { BillingEffects } from './billing-effects.js';
import type { BillingOutcome, LedgerEntry } from '#domain';
import { BillingLedger } from './billing-ledger.service.js';
import { notApplicable, unknownOrganization } from './billing-problems.js';
import { ReceiveBillingEventCommand, type BillingReceipt } from './receive-billing-event.command.js';

/** The state machine of README.md: claim, decide on the organization, record the outcome; each step safe to repeat. */
@CommandHandler(ReceiveBillingEventCommand)
export class ReceiveBillingEventHandler implements ICommandHandler<ReceiveBillingEventCommand> {
  constructor(
    private readonly ledger: BillingLedger,
    private readonly effects: BillingEffects,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
  ) {}

  async execute({ event }: ReceiveBillingEventCommand): Promise<BillingReceipt> {
    const known = await this.ledger.read(event.id);
    if (known?.outcome !== undefined) return receipt(known, known.outcome, true);
    // A pending claim (a crash, or a delivery still running) is finished with the content it recorded.
    const entry = known ?? (await this.claim(event));
    let outcome: BillingOutcome;
    try {
      outcome = await this.effects.apply(entry);
    } catch (error) {
      // The claim stays pending: the provider's retry decides again, and may succeed once the state allows it.
      if (error instanceof DomainError) throw notApplicable(error);
      throw error;
    }
    return receipt(entry, await this.ledger.complete(entry, outcome), known !== undefined);
  }

  /** Refusals that depend only on the delivery come before the claim, so they record nothing. */
  private async claim(event: ReceiveBillingEventCommand['event']): Promise<LedgerEntry> {
    const command = billingCommand(event, this.catalogue);
    const organization = await this.store.readStream(organizationStream(event.organizationId), { maxCount: 1 });
    if (!organization.found) throw unknownOrganization(event.organizationId);
    return this.ledger.claim(event, command);
  }
}

function receipt(entry: LedgerEntry, outcome: BillingOutcome, duplicate: boolean): BillingReceipt {
  return {
    id: entry.received.id,
    outcome: outcome.type === 'BillingEventApplied' ? 'applied' : 'superseded',
    duplicate,
    organizationId: outcome.data.organizationId,
    revision: BigInt(outcome.data.revision),
    position: BigInt(outcome.data.position),
  };
}
