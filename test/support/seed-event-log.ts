// Writes a large, realistic event log straight into the embedded store's file (its own schema, one
// transaction): the domain decides every event, organizations interleave as in production.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  createPlanCatalogue,
  decide,
  evolve,
  initialOrganizationState,
  operator,
  organizationStream,
  type OrganizationCommand,
  type OrganizationState,
} from '#domain';
import { openEventStore } from '#event-store';
import { organizationSetUp } from '../../libs/read-models/src/testing/organization-commands.js';

const catalogue = createPlanCatalogue();

function storyOf(index: number): OrganizationCommand[] {
  const id = `org-${index}`;
  return [
    ...organizationSetUp(id, index),
    {
      type: 'AddMember',
      data: {
        userId: `member-${index}`,
        email: `member${index}@example.test`,
        role: 'member',
        chorusUser: index % 3 === 0,
      },
    },
    { type: 'PurchaseAddOn', data: { addOn: 'additionalContentSection', quantity: 1 } },
    { type: 'AddSite', data: { siteId: `blog-${index}`, name: 'Blog', hostname: `blog.org${index}.example` } },
    { type: 'ConfigureLimits', data: { users: 3 + (index % 5) } },
  ];
}

/** Appends `organizations` organizations of 8 events each; answers the number of events written. */
export async function seedEventLog(dataDir: string, organizations: number): Promise<number> {
  await (await openEventStore({ dataDir })).close();
  const db = new Database(path.join(dataDir, 'events.sqlite'));
  const insert = db.prepare(
    'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const states: OrganizationState[] = Array.from({ length: organizations }, () => initialOrganizationState);
  const revisions = new Array<number>(organizations).fill(-1);
  const recordedAt = new Date().toISOString();
  let written = 0;
  db.transaction(() => {
    for (let step = 0; step < storyOf(0).length; step += 1) {
      for (let index = 0; index < organizations; index += 1) {
        const command = storyOf(index)[step] as OrganizationCommand;
        const correlationId = randomUUID();
        const metadata = JSON.stringify({ actor: 'system', correlationId, causationId: correlationId });
        for (const event of decide(command, states[index] as OrganizationState, { catalogue, requester: operator })) {
          states[index] = evolve(states[index] as OrganizationState, event);
          revisions[index] = (revisions[index] as number) + 1;
          insert.run(
            organizationStream(`org-${index}`),
            revisions[index],
            randomUUID(),
            event.type,
            JSON.stringify(event.data),
            metadata,
            recordedAt,
          );
          written += 1;
        }
      }
    }
  })();
  db.close();
  return written;
}
