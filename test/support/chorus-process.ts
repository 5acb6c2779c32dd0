// The `chorus` command line as the crash tests drive it: separate processes sharing one DATA_DIR,
// and the read models' committed checkpoint read as another process would.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

const root = path.resolve(import.meta.dirname, '../..');
const chorus = path.join(root, 'bin', 'chorus.js');

export type CliRun = { status: number | null; stdout: string; stderr: string };

/** Compiles the server and CLI when the build is missing (bin/chorus.js runs dist/). */
export function ensureBuilt(): void {
  if (!existsSync(path.join(root, 'dist', 'apps', 'cli', 'src', 'main.js'))) {
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: root },
    );
  }
}

export class ChorusProcesses {
  constructor(private readonly dataDir: string) {}

  environment(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: this.dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      EVENTSTORE_CONNECTION_STRING: '',
      DATABASE_URL: '',
    };
  }

  /** Runs a command to its end. */
  cli(...args: string[]): CliRun {
    const run = spawnSync(process.execPath, [chorus, ...args], {
      cwd: root,
      env: this.environment(),
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  }

  /** Starts a long-running command (`projector:run`); `exit` settles with its signal or code. */
  start(...args: string[]): { child: ChildProcess; exit: Promise<NodeJS.Signals | number | null> } {
    const child = spawn(process.execPath, [chorus, ...args], { cwd: root, env: this.environment(), stdio: 'ignore' });
    const exit = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.once('exit', (code, signal) => resolve(signal ?? code)),
    );
    return { child, exit };
  }

  /** The committed checkpoint of a projection; undefined before the projector created its tables. */
  checkpoint(projection = 'organizations'): bigint | undefined {
    const file = path.join(this.dataDir, 'read-models.sqlite');
    if (!existsSync(file)) return undefined;
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const row = db
        .prepare('SELECT position FROM projection_checkpoints WHERE projection = ?')
        .safeIntegers(true)
        .get(projection) as { position: bigint | null } | undefined;
      return row?.position ?? undefined;
    } catch {
      return undefined;
    } finally {
      db.close();
    }
  }
}
