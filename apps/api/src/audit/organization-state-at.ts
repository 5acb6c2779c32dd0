// Time travel with the domain's own `evolve` and `organizationView`, the same code as today's state. Folded page by
// page
// as read, so a point deep in a long history costs time, never memory.
import {
  DomainError,
  diffOrganizations,
  evolve,
  foldOrganization,
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
import { asOrganizationEvent } from '../organizations/organizations.service.js';

export type StatePoint = { kind: 'latest' } | { kind: 'revision'; revision: bigint } | { kind: 'instant'; at: Date };

export type OrganizationStateAt = {
  view: OrganizationView;
  /** For operators (the command line), not in the view owners read. */
  stripe: { subscriptionId: string | null; customerId: string | null };
  revision: bigint;
  position: bigint;
  recordedAt: string;
};

export type FoldedPoint = { before: OrganizationState; after: ExistingOrganization; last: RecordedEvent };

const READ_PAGE_SIZE = 1_000;

/** The first event past the point ends the fold. */
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

/** A fold needs a prefix, so a later event stamped earlier is never folded in. */
export async function foldUpTo(store: EventStore, organizationId: string, point: StatePoint): Promise<FoldedPoint> {
  let before: OrganizationState = initialOrganizationState;
  let after: OrganizationState = initialOrganizationState;
  let last: RecordedEvent | undefined;
  let latest: RecordedEvent | undefined;
  for (let fromRevision = 0n; ;) {
    const read = await store.readStream(organizationStream(organizationId), { fromRevision, maxCount: READ_PAGE_SIZE });
    if (!read.found) throw organizationNotFound();
    const beyond = read.events.findIndex((event) => !isBefore(point, event));
    const taken = beyond === -1 ? read.events : read.events.slice(0, beyond);
    latest = (beyond === -1 ? read.events.at(-1) : read.events[beyond]) ?? latest;
    const newest = taken.at(-1);
    if (newest !== undefined) {
      // A page at once (a directory's run of additions folds in one step); the last event alone, for `before`.
      before = foldOrganization(taken.slice(0, -1).map(asOrganizationEvent), after);
      after = evolve(before, asOrganizationEvent(newest));
      last = newest;
    }
    const end = read.events.at(-1);
    if (beyond !== -1 || end === undefined || read.events.length < READ_PAGE_SIZE) break;
    fromRevision = end.revision + 1n;
  }
  if (point.kind === 'revision' && last?.revision !== point.revision) {
    throw new DomainError(
      'NOT_FOUND',
      `The organization has no revision ${point.revision} (its latest is ${latest?.revision ?? 'none'}).`,
      {
        entity: 'revision',
        latestRevision: latest === undefined ? null : Number(latest.revision),
      },
    );
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
  return {
    view: organizationView(after, catalogue),
    stripe: stripeOf(after),
    revision: last.revision,
    position: last.position,
    recordedAt: last.recordedAt,
  };
}

const stripeOf = (state: ExistingOrganization): OrganizationStateAt['stripe'] => ({
  subscriptionId: state.subscription?.subscriptionId ?? null,
  customerId: state.stripeCustomerId ?? null,
});

export type OrganizationChangesAt = OrganizationStateAt & {
  event: RecordedEvent;
  before: OrganizationState;
  changes: OrganizationChange[];
};

export async function organizationChangesAt(
  store: EventStore,
  catalogue: PlanCatalogue,
  organizationId: string,
  point: StatePoint,
): Promise<OrganizationChangesAt> {
  const { before, after, last } = await foldUpTo(store, organizationId, point);
  const view = organizationView(after, catalogue);
  const changes = diffOrganizations(before.exists ? organizationView(before, catalogue) : undefined, view);
  return {
    view,
    stripe: stripeOf(after),
    revision: last.revision,
    position: last.position,
    recordedAt: last.recordedAt,
    event: last,
    before,
    changes,
  };
}
