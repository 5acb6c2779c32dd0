// The projector killed with SIGKILL while it is live, committing batches of events that another
// process keeps appending (each batch one transaction): what it committed is consistent, and after
// a restart the model equals a full rebuild (`projections:verify` exits 0), nothing lost or applied twice.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPlanCatalogue } from '#domain';
import { openEventStore, type EventStore } from '#event-store';
import {
  executeOrganizationCommand,
  organizationSetUp,
} from '../../libs/read-models/src/testing/organization-commands.js';
import { ChorusProcesses, ensureBuilt } from '../support/chorus-process.js';
import { seedEventLog } from '../support/seed-event-log.js';

const catalogue = createPlanCatalogue();
const seeded = 200;
/** Organizations set up concurrently in each burst (4 commands each): many appends per poll of the projector. */
const burst = 40;

let dataDir: string;
let chorus: ChorusProcesses;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(() => {
  ensureBuilt();
  dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-crash-live-'));
  chorus = new ChorusProcesses(dataDir);
}, 120_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('projector killed with SIGKILL while live', () => {
  it('resumes from its checkpoint to the same model a full rebuild gives', async () => {
    const seededEvents = await seedEventLog(dataDir, seeded);
    const { child: projector, exit } = chorus.start('projector:run');
    while ((chorus.checkpoint() ?? 0n) < BigInt(seededEvents)) await sleep(10);

    // Another process's appends: the projector notices them by polling and commits each poll's events together.
    const store: EventStore = await openEventStore({ dataDir });
    let organizations = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const ids = Array.from({ length: burst }, () => `live-${(organizations += 1)}`);
        await Promise.all(
          ids.map(async (id, index) => {
            for (const command of organizationSetUp(id, index))
              await executeOrganizationCommand(store, catalogue, id, command);
          }),
        );
      }
    })();
    // Kill it once it has committed live batches, while more keep coming.
    while ((chorus.checkpoint() ?? 0n) < BigInt(seededEvents + burst * 4 * 3)) await sleep(5);
    projector.kill('SIGKILL');
    expect(await exit).toBe('SIGKILL');
    writing = false;
    await writer;
    const head = (await store.headPosition()) ?? 0n;
    await store.close();

    const atKill = chorus.checkpoint();
    expect(atKill).toBeGreaterThan(BigInt(seededEvents));
    expect(atKill).toBeLessThan(head);
    // What was committed before the kill is already exactly a rebuild up to its checkpoint.
    const verifiedAtKill = chorus.cli('projections:verify', '--as-is', '--json');
    expect({ status: verifiedAtKill.status, stderr: verifiedAtKill.stderr }).toEqual({ status: 0, stderr: '' });

    const restarted = chorus.cli('projector:run', '--until-caught-up');
    expect({ status: restarted.status, stderr: restarted.stderr }).toEqual({ status: 0, stderr: '' });
    expect(chorus.checkpoint()).toBe(head);
    const verified = chorus.cli('projections:verify', '--json');
    expect(verified.status).toBe(0);
    const report = JSON.parse(verified.stdout) as {
      drift: boolean;
      projections: { projection: string; tables: unknown[] }[];
    };
    expect(report.drift).toBe(false);
    // One row per organization and one per membership: seeded ones have an owner and a member, live ones an owner.
    const rows = { organizations: seeded + organizations, memberships: seeded * 2 + organizations };
    expect(report.projections[0]?.tables).toEqual([
      {
        table: 'organizations',
        rowIs: 'organization',
        rowsAre: 'organizations',
        stored: rows.organizations,
        rebuilt: rows.organizations,
      },
      {
        table: 'memberships',
        rowIs: 'membership',
        rowsAre: 'memberships',
        stored: rows.memberships,
        rebuilt: rows.memberships,
      },
      // Organizations this small are read from their streams: usage points are kept from USAGE_ROWS_FROM_REVISION on.
      { table: 'organization_usage', rowIs: 'usage point', rowsAre: 'usage points', stored: 0, rebuilt: 0 },
    ]);
  }, 180_000);
});
