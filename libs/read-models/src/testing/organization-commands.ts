// Runs organization commands against a real store the way the API's handlers do (read, fold,
// decide, append with the expected revision), for tests that need a realistic event log.
import { randomUUID } from 'node:crypto';
import {
  decide,
  foldOrganization,
  operator,
  organizationStream,
  type OrganizationCommand,
  type OrganizationEvent,
  type PlanCatalogue,
} from '#domain';
import type { AppendResult, EventStore } from '#event-store';

export async function executeOrganizationCommand(
  store: EventStore,
  catalogue: PlanCatalogue,
  organizationId: string,
  command: OrganizationCommand,
): Promise<AppendResult | undefined> {
  const stream = organizationStream(organizationId);
  const read = await store.readStream(stream);
  const history = read.found
    ? read.events.map((event) => ({ type: event.type, data: event.data }) as OrganizationEvent)
    : [];
  const events = decide(command, foldOrganization(history), { catalogue, requester: operator });
  if (events.length === 0) return undefined;
  const expected = read.found ? (read.events.at(-1)?.revision ?? 'no_stream') : 'no_stream';
  const correlationId = randomUUID();
  return store.append(
    stream,
    events.map((event) => ({
      id: randomUUID(),
      type: event.type,
      data: event.data,
      metadata: { actor: 'system', correlationId, causationId: correlationId },
    })),
    expected,
  );
}

/** A typical organization's first commands: created, on a plan, with an owner and a site. */
export function organizationSetUp(organizationId: string, index: number): OrganizationCommand[] {
  return [
    { type: 'CreateOrganization', data: { id: organizationId, name: `Organization ${index}` } },
    { type: 'AssignPlan', data: { line: 'classic', plan: index % 2 === 0 ? 'professional' : 'enterprise' } },
    { type: 'AddMember', data: { userId: `owner-${index}`, email: `owner${index}@example.test`, role: 'owner' } },
    { type: 'AddSite', data: { siteId: `site-${index}`, name: 'Main site', hostname: `www.org${index}.example` } },
  ];
}
