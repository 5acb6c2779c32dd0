// Time travel: the organization folded up to a revision or an instant with the domain's own `evolve`
// and presented with its own `organizationView`, the same code that computes today's state. The stream
// is folded page by page as it is read, so a point deep in a long history costs time, never memory.
import {
  DomainError,
  diffOrganizations,
  evolve,
  initialOrganizationState,
  organizationStream,
  organizationView,
  type ExistingOrganization,
  type OrganizationChange,
  type OrganizationState,
  type OrganizationView,
  type PlanCatalogue,
} from '#domain';
import type { EventStore, RecordedEvent } from '#event-store';
import { organizationNotFound } from './organization-history.js';
import { asOrganizationEvent } from '../organizations/organizations.js';

/** latest: today's state; revision: up to and including it; instant: every event recorded at or before it. */
export type StatePoint = { kind: 'latest' } | { kind: 'revision'; revision: bigint } | { kind: 'instant'; at: Date };

export type OrganizationStateAt = {
  view: OrganizationView;
  /** For operators (the command line), not in the view owners read: which Stripe subscription and customer. */
  stripe: { subscriptionId: string | null; customerId: string | null };
  /** The last event folded. */
  revision: bigint;
  position: bigint;
  recordedAt: string;
};

/** The state at a point, the state just before its last event, and that event. */
export type FoldedPoint = { before: OrganizationState; after: ExistingOrganization; last: RecordedEvent };

const READ_PAGE_SIZE = 1_000;

/** Whether the event belongs before the point; the first one past it ends the fold. */
function isBefore(point: StatePoint, event: RecordedEvent): boolean {
  switch (point.kind) {
    case 'latest':
      return true;
    case 'revision':
      return event.revision <= point.revision;
    case 'instant':
      return Date.parse(event.recordedAt) <= point.at.getTime();
  }
}

/**
 * Folds the stream's prefix up to the point (a fold needs a prefix, so a later event stamped earlier is
 * never folded in). Refuses a point the stream does not reach: an unknown organization, a revision not
 * recorded yet, an instant before the first event.
 */
export async function foldUpTo(store: EventStore, organizationId: string, point: StatePoint): Promise<FoldedPoint> {
  let before: OrganizationState = initialOrganizationState;
  let after: OrganizationState = initialOrganizationState;
  let last: RecordedEvent | undefined;
  let latest: RecordedEvent | undefined;
  read: for (let fromRevision = 0n; ; ) {
    const read = await store.readStream(organizationStream(organizationId), { fromRevision, maxCount: READ_PAGE_SIZE });
    if (!read.found) throw organizationNotFound();
    for (const event of read.events) {
      latest = event;
      if (!isBefore(point, event)) break read;
      before = after;
      after = evolve(after, asOrganizationEvent(event));
      last = event;
    }
    const end = read.events.at(-1);
    if (end === undefined || read.events.length < READ_PAGE_SIZE) break;
    fromRevision = end.revision + 1n;
  }
  if (point.kind === 'revision' && last?.revision !== point.revision) {
    throw new DomainError('NOT_FOUND', `The organization has no revision ${point.revision} (its latest is ${latest?.revision ?? 'none'}).`, {
      entity: 'revision',
      latestRevision: latest === undefined ? null : Number(latest.revision),
    });
  }
  if (last === undefined || !after.exists) {
    throw new DomainError('NOT_FOUND', 'The organization did not exist yet at that point.', { entity: 'organization' });
  }
  return { before, after, last };
}

export async function organizationStateAt(
  store: EventStore,
  catalogue: PlanCatalogue,
  organizationId: string,
  point: StatePoint,
): Promise<OrganizationStateAt> {
  const { after, last } = await foldUpTo(store, organizationId, point);
  return { view: organizationView(after, catalogue), stripe: stripeOf(after), revision: last.revision, position: last.position, recordedAt: last.recordedAt };
}

const stripeOf = (state: ExistingOrganization): OrganizationStateAt['stripe'] => ({
  subscriptionId: state.subscription?.subscriptionId ?? null,
  customerId: state.stripeCustomerId ?? null,
});

/** The state at a point and what its last event changed: the diff of the state before it and after it. */
export type OrganizationChangesAt = OrganizationStateAt & { event: RecordedEvent; before: OrganizationState; changes: OrganizationChange[] };

export async function organizationChangesAt(
  store: EventStore,
  catalogue: PlanCatalogue,
  organizationId: string,
  point: StatePoint,
): Promise<OrganizationChangesAt> {
  const { before, after, last } = await foldUpTo(store, organizationId, point);
  const view = organizationView(after, catalogue);
  const changes = diffOrganizations(before.exists ? organizationView(before, catalogue) : undefined, view);
  return { view, stripe: stripeOf(after), revision: last.revision, position: last.position, recordedAt: last.recordedAt, event: last, before, changes };
}
