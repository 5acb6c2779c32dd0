// The billing ledger: one stream per provider event, `billing-<provider event id>`. Its first event is the
// claim (appended only if the stream does not exist), its second the outcome. See README.md.
import { Inject, Injectable } from '@nestjs/common';
import type { OrganizationCommand } from '#domain';
import { eventMetadata, handleCommand, loadStream, type CommandContext, type StreamFold } from '#application';
import { EVENT_STORE, type EventStore } from '#event-store';
import type { BillingEvent } from './billing-event.schema.js';
import { nameBasedUuid } from './name-based-uuid.js';

const billingStreamPrefix = 'billing-';
export const billingStream = (providerEventId: string): string => `${billingStreamPrefix}${providerEventId}`;

/** The delivery as first accepted, and the organization command it was resolved to. */
export type BillingEventReceived = {
  type: 'BillingEventReceived';
  data: BillingEvent & { command: OrganizationCommand };
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

/** What the ledger knows about one provider event: nothing, claimed (pending), or finished. */
export type LedgerEntry = { claimId: string; received: BillingEventReceived['data']; outcome: BillingOutcome | undefined };

const claimEventId = (providerEventId: string): string => nameBasedUuid(`billing:${providerEventId}:received`);
const outcomeEventId = (providerEventId: string): string => nameBasedUuid(`billing:${providerEventId}:outcome`);

/** Every ledger and organization event of one provider event shares this provenance. */
export function billingContext(received: BillingEventReceived['data'], causationId: string): CommandContext {
  return {
    actor: 'billing',
    correlationId: received.id,
    causationId,
    origin: { providerEventId: received.id, providerEventType: received.type, productId: received.productId, occurredAt: received.occurredAt },
  };
}

type LedgerEvent = BillingEventReceived | BillingOutcome;

/** The ledger as its stream says: nothing, claimed (pending), or finished. The claim's id is the one it is always appended with. */
const ledgerFold: StreamFold<LedgerEntry | undefined, LedgerEvent> = {
  initialState: undefined,
  evolve: (entry, event) => {
    if (event.type === 'BillingEventReceived') return { claimId: claimEventId(event.data.id), received: event.data, outcome: undefined };
    if (entry === undefined) throw new Error(`A billing ledger starts with BillingEventReceived, not ${event.type}`);
    return { ...entry, outcome: event };
  },
};

@Injectable()
export class BillingLedger {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async read(providerEventId: string): Promise<LedgerEntry | undefined> {
    return (await loadStream(this.store, billingStream(providerEventId), ledgerFold)).state;
  }

  /** Claims the provider event id; whoever wins, answers the entry as stored (the first delivery's content). */
  async claim(event: BillingEvent, command: OrganizationCommand): Promise<LedgerEntry> {
    const received: BillingEventReceived['data'] = { ...event, command };
    await handleCommand(this.store, billingStream(event.id), (entry) => (entry === undefined ? [{ type: 'BillingEventReceived' as const, data: received }] : []), {
      ...ledgerFold,
      metadata: eventMetadata(billingContext(received, event.id)),
      eventId: () => claimEventId(event.id),
    });
    // Read back: a concurrent first delivery with other content may have been stored under the same claim id.
    const entry = await this.read(event.id);
    if (entry === undefined) throw new Error(`${billingStream(event.id)} vanished after its claim`);
    return entry;
  }

  /** Records the outcome once; a concurrent delivery that recorded it first wins and its outcome is answered. */
  async complete(entry: LedgerEntry, outcome: BillingOutcome): Promise<BillingOutcome> {
    const { state } = await handleCommand(this.store, billingStream(entry.received.id), (stored) => (stored?.outcome === undefined ? [outcome] : []), {
      ...ledgerFold,
      metadata: eventMetadata(billingContext(entry.received, entry.claimId)),
      eventId: () => outcomeEventId(entry.received.id),
    });
    return state?.outcome ?? outcome;
  }
}
