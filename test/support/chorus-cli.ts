// The real `chorus` command line (bin/chorus.js over dist/) as a child process, for CLI tests.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repositoryRoot = resolve(import.meta.dirname, '..', '..');
export const chorusBin = join(repositoryRoot, 'bin', 'chorus.js');

/**
 * CI builds first (npm test); a local run without dist/ builds here once rather than racing inside
 * each call. A dist/ older than the sources is the caller's to rebuild (`npm run build:server`).
 */
export function ensureCliBuilt(): void {
  if (existsSync(join(repositoryRoot, 'dist', 'apps', 'cli', 'src', 'main.js'))) return;
  try {
    execFileSync(
      process.execPath,
      [join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: repositoryRoot,
        stdio: 'ignore',
      },
    );
  } catch {
    // Emitted despite type errors elsewhere; the calls fail clearly if not.
  }
}

export type ChorusRun = { code: number | null; stdout: string; stderr: string };

/**
 * `chorus <args>` with NODE_ENV=test, SEED_DEMO=false and the given settings (DATA_DIR among them).
 * `input` is written to its standard input, which is then closed (a pipe, not a terminal).
 */
export function runChorus(args: readonly string[], settings: Record<string, string>, input = ''): Promise<ChorusRun> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [chorusBin, ...args],
      { cwd: repositoryRoot, env: { PATH: process.env.PATH, NODE_ENV: 'test', SEED_DEMO: 'false', ...settings } },
      (error, stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}
