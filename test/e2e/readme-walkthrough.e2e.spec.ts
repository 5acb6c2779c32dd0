// The root README's command-line walkthrough, taken from the README itself (so it cannot drift from what
// is tested) and run line by line, as written, by a shell in the repository on an empty DATA_DIR, through
// the `./chorus` script and the built command line (bin/chorus.js over dist/): every line must succeed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ensureCliBuilt, repositoryRoot as root } from '../support/chorus-cli.js';

const marker = '<!-- walkthrough:';
/** What user:create reads from standard input when it is not a terminal, as `< password.txt` would give it. */
const password = 'walkthrough horse battery staple';

/** The lines of the first ```sh block after the marker comment, as a reader would copy them. */
function walkthroughLines(readme: string): string[] {
  const start = readme.indexOf(marker);
  if (start < 0) throw new Error(`README.md has no "${marker}" comment before its walkthrough`);
  const block = /```sh\n([\s\S]*?)\n\s*```/.exec(readme.slice(start));
  if (block?.[1] === undefined) throw new Error('no ```sh block after the walkthrough comment');
  return block[1]
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

type Run = { line: string; code: number | null; stdout: string; stderr: string };

function runLine(line: string, dataDir: string): Promise<Run> {
  return new Promise((done) => {
    // A reader's shell: their PATH and HOME, nothing of the test's environment but an empty DATA_DIR.
    const child = spawn('bash', ['-c', line], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ line, code, stdout, stderr }));
    child.stdin.end(`${password}\n`);
  });
}

const lines = walkthroughLines(readFileSync(join(root, 'README.md'), 'utf8'));
const runs: Run[] = [];
let dataDir: string;

beforeAll(async () => {
  ensureCliBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-readme-'));
  for (const line of lines) runs.push(await runLine(line, dataDir));
}, 300_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const runOf = (command: string): Run => {
  const run = runs.find((candidate) => candidate.line.startsWith(`./chorus ${command}`));
  if (run === undefined) throw new Error(`the walkthrough has no "./chorus ${command}" line`);
  return run;
};

describe("the README's command-line walkthrough, on a fresh store", () => {
  it('is a block of chorus commands, the ones the README promises', () => {
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const line of lines) expect(line).toMatch(/^\.\/chorus /);
  });

  it.each(lines.map((line, index) => [index + 1, line]))('line %i succeeds as written: %s', (index) => {
    const run = runs[Number(index) - 1] as Run;

    // A refusal of ours starts with "chorus:".
    expect({
      line: run.line,
      code: run.code,
      refusals: run.stderr.split('\n').filter((text) => text.startsWith('chorus:')),
    }).toEqual({
      line: run.line,
      code: 0,
      refusals: [],
    });
  });

  it('does what the README says each line does', () => {
    const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    expect(runOf('--version').stdout.trim()).toBe(version);
    // The id the next lines use.
    expect(runOf('org:create').stdout).toBe('acme\n');
    expect(runOf('org:plan').stdout).toContain('classic plan professional');
    expect(runOf('org:list').stdout).toMatch(/^acme +Acme +classic professional +0 +0$/m);
    expect(runOf('user:create').stdout).toMatch(/\(owner of acme\)/);
    expect(runOf('api-key:create').stdout).toMatch(/^chrs_/m);
    // In the console's words, who did what.
    const history = runOf('org:history').stdout;
    for (const sentence of [
      'Organization created: Acme',
      'Plan assigned: Classic professional',
      'Member added: ann@example.com as owner',
    ]) {
      expect(history).toMatch(new RegExp(`Command line +${sentence}$`, 'm'));
    }
    expect(runOf('org:state acme --as-of-revision').stdout).toMatch(/at revision 0[\s\S]*Classic plan: +none/);
    expect(runOf('org:state acme --as-of ').stdout).toMatch(
      /at revision 2[\s\S]*Classic plan: +professional[\s\S]*ann@example\.com owner/,
    );
    expect(runOf('projections:verify').stdout).toContain('no drift');
  });
});
