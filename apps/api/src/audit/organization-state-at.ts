// Time travel: the organization folded up to a revision or an instant with the domain's own `evolve`
// and presented with its own `organizationView`, the same code that computes today's state.
import {
  DomainError,
  foldOrganization,
  organizationStream,
  organizationView,
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
  /** The last event folded. */
  revision: bigint;
  position: bigint;
  recordedAt: string;
};

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

/** The stream's prefix up to the point (a fold needs a prefix, so a later event stamped earlier is never folded in). */
async function eventsUpTo(store: EventStore, streamId: string, point: StatePoint): Promise<RecordedEvent[] | undefined> {
  const taken: RecordedEvent[] = [];
  for (let fromRevision = 0n; ; ) {
    const read = await store.readStream(streamId, { fromRevision, maxCount: READ_PAGE_SIZE });
    if (!read.found) return undefined;
    for (const event of read.events) {
      if (!isBefore(point, event)) return taken;
      taken.push(event);
    }
    const last = read.events.at(-1);
    if (last === undefined || read.events.length < READ_PAGE_SIZE) return taken;
    fromRevision = last.revision + 1n;
  }
}

export async function organizationStateAt(
  store: EventStore,
  catalogue: PlanCatalogue,
  organizationId: string,
  point: StatePoint,
): Promise<OrganizationStateAt> {
  const events = await eventsUpTo(store, organizationStream(organizationId), point);
  if (events === undefined) throw organizationNotFound();
  const last = events.at(-1);
  if (point.kind === 'revision' && last?.revision !== point.revision) {
    throw new DomainError('NOT_FOUND', `The organization has no revision ${point.revision} (its latest is ${last?.revision ?? 'none'}).`, {
      entity: 'revision',
      latestRevision: last === undefined ? null : Number(last.revision),
    });
  }
  const state = foldOrganization(events.map(asOrganizationEvent));
  if (last === undefined || !state.exists) {
    throw new DomainError('NOT_FOUND', 'The organization did not exist yet at that point.', { entity: 'organization' });
  }
  return { view: organizationView(state, catalogue), revision: last.revision, position: last.position, recordedAt: last.recordedAt };
}
