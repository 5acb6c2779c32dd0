// The projector killed with SIGKILL in the middle of catching up: what it committed is consistent,
// and after a restart the model equals a full rebuild (`projections:verify` exits 0).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { seedEventLog } from '../support/seed-event-log.js';

const root = path.resolve(import.meta.dirname, '../..');
const chorus = path.join(root, 'bin', 'chorus.js');
const organizations = 12_500;
/** Small catch-up transactions, so that the kill lands between many commits and inside one. */
const batchSize = 250;

let dataDir: string;
let events: number;

function environment(): NodeJS.ProcessEnv {
  return { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'warn', EVENTSTORE_CONNECTION_STRING: '' };
}

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [chorus, ...args], { cwd: root, env: environment(), encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The committed checkpoint of the organizations projection, read as another process would. */
function checkpoint(): bigint | undefined {
  const file = path.join(dataDir, 'read-models.sqlite');
  if (!existsSync(file)) return undefined;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("SELECT position FROM projection_checkpoints WHERE projection = 'organizations'").safeIntegers(true).get() as
      | { position: bigint | null }
      | undefined;
    return row?.position ?? undefined;
  } catch {
    // The projector has not created its tables yet.
    return undefined;
  } finally {
    db.close();
  }
}

function exited(child: ChildProcess): Promise<NodeJS.Signals | number | null> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
}

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist', 'apps', 'cli', 'src', 'main.js'))) {
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root });
  }
  dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-crash-'));
  events = await seedEventLog(dataDir, organizations);
}, 120_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('projector killed with SIGKILL mid catch-up', () => {
  it('resumes from its checkpoint to the same model a full rebuild gives', async () => {
    const projector = spawn(process.execPath, [chorus, 'projector:run', '--batch-size', String(batchSize)], { cwd: root, env: environment(), stdio: 'ignore' });
    const exit = exited(projector);
    // Kill it as soon as a few catch-up batches are committed, far from the end of the log.
    let committed: bigint | undefined;
    while ((committed = checkpoint()) === undefined || committed < BigInt(batchSize * 4)) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    projector.kill('SIGKILL');
    expect(await exit).toBe('SIGKILL');

    const atKill = checkpoint();
    expect(atKill).toBeDefined();
    expect(atKill).toBeLessThan(BigInt(events));
    // What was committed before the kill is already exactly a rebuild up to its checkpoint.
    const verifiedAtKill = cli('projections:verify', '--json');
    expect({ status: verifiedAtKill.status, stderr: verifiedAtKill.stderr }).toEqual({ status: 0, stderr: '' });

    const restarted = cli('projector:run', '--until-caught-up', '--batch-size', String(batchSize));
    expect({ status: restarted.status, stderr: restarted.stderr }).toEqual({ status: 0, stderr: '' });
    expect(checkpoint()).toBe(BigInt(events));

    const verified = cli('projections:verify', '--json');
    expect(verified.status).toBe(0);
    const report = JSON.parse(verified.stdout) as { drift: boolean; projections: { projection: string; checkpoint: string; tables: unknown[] }[] };
    expect(report.drift).toBe(false);
    expect(report.projections[0]).toMatchObject({ projection: 'organizations', checkpoint: String(events) });
    // One row per organization and one per membership (owner and member): nothing lost, nothing twice.
    expect(report.projections[0]?.tables).toEqual([
      { table: 'organizations', rowsAre: 'organizations', stored: organizations, rebuilt: organizations },
      { table: 'memberships', rowsAre: 'memberships', stored: organizations * 2, rebuilt: organizations * 2 },
    ]);
  }, 120_000);
});
