// The projector killed with SIGKILL in the middle of catching up: what it committed is consistent,
// and after a restart the model equals a full rebuild (`projections:verify` exits 0).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChorusProcesses, ensureBuilt } from '../support/chorus-process.js';
import { seedEventLog } from '../support/seed-event-log.js';

const organizations = 12_500;
/** Small catch-up transactions, so that the kill lands between many commits and inside one. */
const batchSize = 250;

let dataDir: string;
let chorus: ChorusProcesses;
let events: number;

beforeAll(async () => {
  ensureBuilt();
  dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-crash-'));
  chorus = new ChorusProcesses(dataDir);
  events = await seedEventLog(dataDir, organizations);
}, 120_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('projector killed with SIGKILL mid catch-up', () => {
  it('resumes from its checkpoint to the same model a full rebuild gives', async () => {
    const { child: projector, exit } = chorus.start('projector:run', '--batch-size', String(batchSize));
    // Kill it as soon as a few catch-up batches are committed, far from the end of the log.
    let committed: bigint | undefined;
    while ((committed = chorus.checkpoint()) === undefined || committed < BigInt(batchSize * 4)) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    projector.kill('SIGKILL');
    expect(await exit).toBe('SIGKILL');

    const atKill = chorus.checkpoint();
    expect(atKill).toBeDefined();
    expect(atKill).toBeLessThan(BigInt(events));
    // What was committed before the kill is already exactly a rebuild up to its checkpoint.
    const verifiedAtKill = chorus.cli('projections:verify', '--as-is', '--json');
    expect({ status: verifiedAtKill.status, stderr: verifiedAtKill.stderr }).toEqual({ status: 0, stderr: '' });

    const restarted = chorus.cli('projector:run', '--until-caught-up', '--batch-size', String(batchSize));
    expect({ status: restarted.status, stderr: restarted.stderr }).toEqual({ status: 0, stderr: '' });
    expect(chorus.checkpoint()).toBe(BigInt(events));

    const verified = chorus.cli('projections:verify', '--json');
    expect(verified.status).toBe(0);
    const report = JSON.parse(verified.stdout) as {
      drift: boolean;
      projections: { projection: string; checkpoint: string; tables: unknown[] }[];
    };
    expect(report.drift).toBe(false);
    expect(report.projections[0]).toMatchObject({ projection: 'organizations', checkpoint: String(events) });
    // One row per organization and one per membership (owner and member): nothing lost, nothing twice.
    expect(report.projections[0]?.tables).toEqual([
      {
        table: 'organizations',
        rowIs: 'organization',
        rowsAre: 'organizations',
        stored: organizations,
        rebuilt: organizations,
      },
      {
        table: 'memberships',
        rowIs: 'membership',
        rowsAre: 'memberships',
        stored: organizations * 2,
        rebuilt: organizations * 2,
      },
      // Organizations this small are read from their streams: usage points are kept from USAGE_ROWS_FROM_REVISION on.
      { table: 'organization_usage', rowIs: 'usage point', rowsAre: 'usage points', stored: 0, rebuilt: 0 },
    ]);
  }, 120_000);
});
