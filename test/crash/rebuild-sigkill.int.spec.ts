// `chorus projections:rebuild` killed with SIGKILL after it made its aside tables: the next start-up
// drops them. And a rebuild that is only paused (SIGSTOP) keeps them: a server starting meanwhile
// must not pull its tables from under it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startApp } from '../support/start-app.js';
import { seedEventLog } from '../support/seed-event-log.js';

const root = path.resolve(import.meta.dirname, '../..');
const chorus = path.join(root, 'bin', 'chorus.js');
const organizations = 12_500;

let seeded: string;
const dataDirs: string[] = [];

function environment(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    EVENTSTORE_CONNECTION_STRING: '',
  };
}

/** A copy of the seeded event log, with no read models yet. */
function freshDataDir(): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-rebuild-crash-'));
  dataDirs.push(dataDir);
  cpSync(seeded, dataDir, { recursive: true });
  return dataDir;
}

/** The aside tables in the read-model file, read as another process would. */
function asideTables(dataDir: string): string[] {
  const file = path.join(dataDir, 'read-models.sqlite');
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_\\_rebuild' ESCAPE '\\' ORDER BY name",
      )
      .pluck()
      .all() as string[];
  } catch {
    return [];
  } finally {
    db.close();
  }
}

async function rebuildWithAsideTables(
  dataDir: string,
): Promise<{ rebuild: ChildProcess; exit: Promise<NodeJS.Signals | number | null> }> {
  const rebuild = spawn(process.execPath, [chorus, 'projections:rebuild', '--json'], {
    cwd: root,
    env: environment(dataDir),
    stdio: 'ignore',
  });
  const exit = new Promise<NodeJS.Signals | number | null>((resolve) =>
    rebuild.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  while (asideTables(dataDir).length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
  return { rebuild, exit };
}

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist', 'apps', 'cli', 'src', 'main.js'))) {
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: root },
    );
  }
  seeded = mkdtempSync(path.join(tmpdir(), 'chorus-rebuild-seed-'));
  dataDirs.push(seeded);
  await seedEventLog(seeded, organizations);
}, 120_000);

afterEach(() => {
  for (const dataDir of dataDirs.splice(1)) rmSync(dataDir, { recursive: true, force: true });
});

afterAll(() => {
  for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
});

/** Every table of every read model, as a rebuild makes them aside before it fills them. */
const everyAsideTable = [
  'event_correlations__rebuild',
  'first_sign_ins__rebuild',
  'member_second_factors__rebuild',
  'member_security_events__rebuild',
  'memberships__rebuild',
  'organization_events__rebuild',
  'organization_record_names__rebuild',
  'organization_usage__rebuild',
  'organizations__rebuild',
  'security_memberships__rebuild',
  'traffic_periods__rebuild',
];

describe('a rebuild that did not finish', () => {
  it('killed with SIGKILL: the next start-up drops its aside tables', async () => {
    const dataDir = freshDataDir();
    const { rebuild, exit } = await rebuildWithAsideTables(dataDir);
    rebuild.kill('SIGKILL');
    expect(await exit).toBe('SIGKILL');
    expect(asideTables(dataDir)).toEqual(everyAsideTable);

    const server = await startApp({ DATA_DIR: dataDir, PROJECTIONS: 'off' });
    try {
      expect(asideTables(dataDir)).toEqual([]);
      expect(server.logs).toContainEqual(
        expect.objectContaining({
          msg: 'dropped the aside tables of a rebuild that did not finish',
          tables: everyAsideTable,
        }),
      );
    } finally {
      await server.close();
    }
  }, 120_000);

  it('paused (SIGSTOP): a server starting meanwhile leaves its tables alone, and the rebuild then completes', async () => {
    const dataDir = freshDataDir();
    const { rebuild, exit } = await rebuildWithAsideTables(dataDir);
    rebuild.kill('SIGSTOP');
    try {
      const building = asideTables(dataDir);
      const server = await startApp({ DATA_DIR: dataDir, PROJECTIONS: 'off' });
      try {
        expect(asideTables(dataDir)).toEqual(building);
      } finally {
        await server.close();
      }
    } finally {
      rebuild.kill('SIGCONT');
    }
    expect(await exit).toBe(0);
    expect(asideTables(dataDir)).toEqual([]);
    const verified = spawnSync(process.execPath, [chorus, 'projections:verify', '--json'], {
      cwd: root,
      env: environment(dataDir),
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect({ status: verified.status, stderr: verified.stderr }).toEqual({ status: 0, stderr: '' });
  }, 120_000);
});
