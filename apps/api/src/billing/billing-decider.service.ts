// Decides a claimed billing event on its organization exactly once. Unlike OrganizationDecider it needs
// the raw stream (event ids and metadata, not just the folded state) to recognise its own earlier write
// and newer plan purchases, and it proposes deterministic event ids. See README.md.
import { Inject, Injectable } from '@nestjs/common';
import { decide, foldOrganization, operator, organizationStream, type PlanAssigned, type PlanCatalogue } from '#domain';
import { EVENT_STORE, WrongExpectedRevisionError, type EventStore, type RecordedEvent } from '#event-store';
import { MAX_DECISION_ATTEMPTS } from '../organizations/organization-decider.service.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { billingMetadata, type BillingOutcome, type LedgerEntry } from './billing-ledger.js';
import { unknownOrganization } from './billing-problems.js';
import { nameBasedUuid } from './name-based-uuid.js';
import { asOrganizationEvent } from '../organizations/organization-repository.js';

export const organizationEventId = (providerEventId: string, index: number): string =>
  nameBasedUuid(`billing:${providerEventId}:organization:${index}`);


/** The events this provider event already wrote (appended together, so consecutive), or none. */
function ownEvents(events: readonly RecordedEvent[], providerEventId: string): RecordedEvent[] {
  const first = events.findIndex((event) => event.id === organizationEventId(providerEventId, 0));
  if (first < 0) return [];
  const own: RecordedEvent[] = [];
  for (let index = 0; events[first + index]?.id === organizationEventId(providerEventId, index); index += 1) {
    own.push(events[first + index] as RecordedEvent);
  }
  return own;
}

/** The newest plan purchase on the same line that the provider says happened after this one. */
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

@Injectable()
export class BillingDecider {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
  ) {}

  async decide(entry: LedgerEntry): Promise<BillingOutcome> {
    const { id: providerEventId, organizationId, command } = entry.received;
    const streamId = organizationStream(organizationId);
    for (let attempt = 1; ; attempt += 1) {
      const read = await this.store.readStream(streamId);
      const head = read.found ? read.events.at(-1) : undefined;
      if (!read.found || head === undefined) throw unknownOrganization(organizationId);

      const own = ownEvents(read.events, providerEventId);
      const lastOwn = own.at(-1);
      if (lastOwn !== undefined) return applied(organizationId, own.map((event) => event.id), lastOwn);

      const newer = newerPlanPurchase(read.events, entry);
      if (newer !== undefined) {
        const supersededBy = String(newer.metadata.providerEventId ?? newer.metadata.correlationId);
        return { type: 'BillingEventSuperseded', data: { organizationId, supersededBy, revision: head.revision.toString(), position: head.position.toString() } };
      }

      const events = decide(command, foldOrganization(read.events.map(asOrganizationEvent)), { catalogue: this.catalogue, requester: operator });
      // Nothing to change (the plan is already in place): answered where the organization stands.
      if (events.length === 0) return applied(organizationId, [], head);
      const metadata = { ...billingMetadata(entry.received, entry.claimId), commandType: command.type };
      try {
        const result = await this.store.append(
          streamId,
          events.map((event, index) => ({ id: organizationEventId(providerEventId, index), type: event.type, data: event.data, metadata })),
          head.revision,
        );
        return applied(organizationId, events.map((_event, index) => organizationEventId(providerEventId, index)), {
          revision: result.nextExpectedRevision,
          position: result.position,
        });
      } catch (error) {
        // Lost a race (another command, or a concurrent delivery of this very event): read again and re-judge.
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_DECISION_ATTEMPTS) throw error;
      }
    }
  }
}

function applied(organizationId: string, organizationEventIds: string[], at: { revision: bigint; position: bigint }): BillingOutcome {
  return {
    type: 'BillingEventApplied',
    data: { organizationId, organizationEventIds, revision: at.revision.toString(), position: at.position.toString() },
  };
}
