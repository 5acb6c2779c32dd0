// The billing ledger: one stream per payment provider event, `billing-<provider event id>`. Its first event
// is the claim (the first delivery as accepted, and the organization command it was resolved to), appended
// only if the stream does not exist; its second the outcome. A delivery repeated, or made concurrently,
// finds the claim and answers what the first one decided.
import type { Decider } from '../decider.js';
import type { OrganizationCommand } from '../organization/commands.js';

export const billingStreamPrefix = 'billing-';
export const billingStream = (providerEventId: string): string => `${billingStreamPrefix}${providerEventId}`;

/** A payment provider's event in Chorus's generic billing format. */
export type ProviderBillingEvent = {
  id: string;
  type: 'plan.purchased' | 'addon.purchased' | 'addon.cancelled';
  organizationId: string;
  productId: string;
  quantity?: number | undefined;
  occurredAt: string;
};

/** The delivery as first accepted, and the organization command it was resolved to. */
export type BillingEventReceived = {
  type: 'BillingEventReceived';
  data: ProviderBillingEvent & { command: OrganizationCommand };
};

/** The command was decided on the organization: its events (none when it changed nothing) and where it stood after. */
export type BillingEventApplied = {
  type: 'BillingEventApplied';
  data: { organizationId: string; organizationEventIds: string[]; revision: string; position: string };
};

/** An older plan purchase that arrived after a newer one: recorded, never applied. */
export type BillingEventSuperseded = {
  type: 'BillingEventSuperseded';
  data: { organizationId: string; supersededBy: string; revision: string; position: string };
};

export type BillingOutcome = BillingEventApplied | BillingEventSuperseded;
export type BillingLedgerEvent = BillingEventReceived | BillingOutcome;

/** What the ledger knows about one provider event: nothing (undefined), claimed (no outcome yet), or finished. */
export type LedgerEntry = { received: BillingEventReceived['data']; outcome: BillingOutcome | undefined };

export function evolveLedger(entry: LedgerEntry | undefined, event: BillingLedgerEvent): LedgerEntry | undefined {
  if (event.type === 'BillingEventReceived') return { received: event.data, outcome: undefined };
  if (entry === undefined) throw new Error(`A billing ledger starts with BillingEventReceived, not ${event.type}`);
  return { ...entry, outcome: event };
}

/** The first delivery claims the provider event; any later one records nothing. */
export const decideClaim = (
  entry: LedgerEntry | undefined,
  received: BillingEventReceived['data'],
): BillingLedgerEvent[] => (entry === undefined ? [{ type: 'BillingEventReceived', data: received }] : []);

/** The outcome is recorded once: a delivery that finds one recorded keeps it. */
export const decideOutcome = (entry: LedgerEntry | undefined, outcome: BillingOutcome): BillingLedgerEvent[] =>
  entry?.outcome === undefined ? [outcome] : [];

export type BillingLedgerCommand =
  | { type: 'ClaimBillingEvent'; data: BillingEventReceived['data'] }
  | { type: 'RecordBillingOutcome'; data: BillingOutcome };

/** A provider event's ledger: claimed by its first delivery, then its outcome, each once. */
export const billingLedgerDecider: Decider<LedgerEntry | undefined, BillingLedgerCommand, BillingLedgerEvent> = {
  streamOf: billingStream,
  initialState: undefined,
  evolve: evolveLedger,
  decide: (command, entry) =>
    command.type === 'ClaimBillingEvent' ? decideClaim(entry, command.data) : decideOutcome(entry, command.data),
};
