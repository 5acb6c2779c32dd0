// Applies a claimed billing event exactly once (README.md, step 3): deterministic event ids, and the stream as recorded
// (not just its fold) to recognise its own earlier write and newer plan purchases.
import { Inject, Injectable } from '@nestjs/common';
import {
  operator,
  organizationDecider,
  organizationStream,
  type BillingOutcome,
  type LedgerEntry,
  type PlanAssigned,
  type PlanCatalogue,
} from '#domain';
import { handleDecision } from '#application';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { billingContext, claimIdOf } from './billing-ledger.service.js';
import { unknownOrganization } from './billing-problems.js';
import { nameBasedUuid } from './name-based-uuid.js';

export const organizationEventId = (providerEventId: string, index: number): string =>
  nameBasedUuid(`billing:${providerEventId}:organization:${index}`);

/** Appended together, so consecutive. */
function ownEvents(events: readonly RecordedEvent[], providerEventId: string): RecordedEvent[] {
  const first = events.findIndex((event) => event.id === organizationEventId(providerEventId, 0));
  if (first < 0) return [];
  const own: RecordedEvent[] = [];
  for (let index = 0; events[first + index]?.id === organizationEventId(providerEventId, index); index += 1) {
    own.push(events[first + index] as RecordedEvent);
  }
  return own;
}

function newerPlanPurchase(events: readonly RecordedEvent[], entry: LedgerEntry): RecordedEvent | undefined {
  const { command, occurredAt } = entry.received;
  if (command.type !== 'AssignPlan') return undefined;
  const occurred = Date.parse(occurredAt);
  let newest: RecordedEvent | undefined;
  for (const event of events) {
    const at = event.metadata.occurredAt;
    if (event.type !== 'PlanAssigned' || event.metadata.actor !== 'billing' || typeof at !== 'string') continue;
    if ((event.data as PlanAssigned['data']).line !== command.data.line || Date.parse(at) <= occurred) continue;
    if (newest === undefined || Date.parse(at) > Date.parse(newest.metadata.occurredAt as string)) newest = event;
  }
  return newest;
}

function applied(
  organizationId: string,
  organizationEventIds: string[],
  at: { revision: bigint | undefined; position: bigint | undefined },
): BillingOutcome {
  return {
    type: 'BillingEventApplied',
    data: {
      organizationId,
      organizationEventIds,
      revision: String(at.revision ?? -1n),
      position: String(at.position ?? -1n),
    },
  };
}

function settled(entry: LedgerEntry, stream: readonly RecordedEvent[]): BillingOutcome | undefined {
  const { id: providerEventId, organizationId } = entry.received;
  const own = ownEvents(stream, providerEventId);
  const lastOwn = own.at(-1);
  if (lastOwn !== undefined)
    return applied(
      organizationId,
      own.map((event) => event.id),
      lastOwn,
    );
  const newer = newerPlanPurchase(stream, entry);
  const head = stream.at(-1);
  if (newer === undefined || head === undefined) return undefined;
  const supersededBy = String(newer.metadata.providerEventId ?? newer.metadata.correlationId);
  return {
    type: 'BillingEventSuperseded',
    data: { organizationId, supersededBy, revision: head.revision.toString(), position: head.position.toString() },
  };
}

@Injectable()
export class BillingEffects {
  private readonly decider: ReturnType<typeof organizationDecider>;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLAN_CATALOGUE) catalogue: PlanCatalogue,
  ) {
    this.decider = organizationDecider(catalogue);
  }

  /**
   * Decided on the stream as recorded: a retry after a lost race reads it again and re-judges, and a concurrent
   * duplicate finds the winner's events.
   */
  async apply(entry: LedgerEntry): Promise<BillingOutcome> {
    const { id: providerEventId, organizationId, command } = entry.received;
    const context = billingContext(entry.received, claimIdOf(entry));
    const eventId = (index: number) => organizationEventId(providerEventId, index);
    type Read = { settled: BillingOutcome } | { at: { revision: bigint | undefined; position: bigint | undefined } };
    const { result, applied: changes } = await handleDecision<Read>(
      this.store,
      context,
      { serializedOn: organizationStream(organizationId), commandType: command.type },
      async (reads) => {
        const organization = await reads.stream(this.decider, organizationId, { keepRecordedEvents: true });
        if (!organization.state.exists) throw unknownOrganization(organizationId);
        const done = settled(entry, organization.recorded);
        if (done !== undefined) return { changes: [], result: { settled: done } };
        const change = organization.decide({ ...command, requester: operator }, { eventId });
        return { changes: [change], result: { at: organization } };
      },
    );
    if ('settled' in result) return result.settled;
    const change = changes[0];
    return applied(organizationId, change?.appended.map((event) => event.id) ?? [], change ?? result.at);
  }
}
