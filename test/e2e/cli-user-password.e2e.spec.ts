// `chorus user:create` without --password (which shell history and `ps` keep): the real binary reads the
// password from standard input, or, on a terminal (a real pseudo-terminal through util-linux's `script`),
// asks for it twice without echoing it. The user it creates then signs in over HTTP with that password.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chorusBin, ensureCliBuilt, repositoryRoot, runChorus } from '../support/chorus-cli.js';
import { Browser } from '../support/browser.js';
import { startApp } from '../support/start-app.js';

const password = 'a long enough passphrase';
let dataDir: string;

const settings = (): Record<string, string> => ({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });

/** Whether POST /login takes these credentials (401 otherwise), from a browser on a server over the same DATA_DIR. */
async function signsIn(username: string, secret: string): Promise<boolean> {
  const running = await startApp({ DATA_DIR: dataDir });
  try {
    const browser = new Browser(running.baseUrl);
    expect((await browser.open('/login')).status).toBe(200);
    const answer = await browser.post('/login', { username, password: secret });
    expect([204, 401]).toContain(answer.status);
    return answer.status === 204;
  } finally {
    await running.close();
  }
}

type Terminal = {
  output: () => string;
  waitFor: (text: string) => Promise<void>;
  type: (keys: string) => void;
  exit: Promise<number | null>;
};

/** `chorus <args>` on a pseudo-terminal: what it shows (prompts, any echo, its output) and what is typed at it. */
function onTerminal(args: string[]): Terminal {
  const command = [process.execPath, chorusBin, ...args].map((word) => `'${word}'`).join(' ');
  const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', SEED_DEMO: 'false', ...settings() },
  });
  let shown = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    for (const waiter of waiters.filter((candidate) => shown.includes(candidate.text))) waiter.resolve();
  });
  return {
    output: () => shown,
    waitFor: (text) =>
      shown.includes(text) ? Promise.resolve() : new Promise((resolve) => waiters.push({ text, resolve })),
    type: (keys) => child.stdin.write(keys),
    exit: new Promise((resolve) => child.on('close', (code) => resolve(code))),
  };
}

beforeAll(async () => {
  ensureCliBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-cli-password-'));
  await runChorus(['org:create', '--name', 'Passwords', '--id', 'passwords'], settings());
  await runChorus(['org:plan', 'passwords', '--line', 'classic', '--plan', 'professional'], settings());
}, 120_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('user:create without --password', () => {
  it('takes the first line of standard input when it is not a terminal', async () => {
    const run = await runChorus(
      ['user:create', '--email', 'piped@example.com', '--org', 'passwords', '--role', 'owner'],
      settings(),
      `${password}\nnot this line\n`,
    );

    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/\(owner of passwords\)\n$/);
    expect(await signsIn('piped@example.com', password)).toBe(true);
  }, 60_000);

  it('refuses an empty standard input, naming the ways to give a password, and creates nobody', async () => {
    const run = await runChorus(['user:create', '--email', 'nobody@example.com'], settings(), '');

    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'chorus: VALIDATION_FAILED: --password: no password on standard input (give it on its first line, type it at the prompt on a terminal, or use --password)\n',
    );
    expect(await signsIn('nobody@example.com', '')).toBe(false);
  }, 60_000);

  it('asks twice on a terminal, echoing nothing of what is typed, and the user signs in with it', async () => {
    const terminal = onTerminal([
      'user:create',
      '--email',
      'typed@example.com',
      '--org',
      'passwords',
      '--role',
      'member',
    ]);

    await terminal.waitFor('Password for typed@example.com: ');
    // A typo erased with backspace is not part of the password.
    terminal.type(`${password}x\u007f\r`);
    await terminal.waitFor('The same password again: ');
    terminal.type(`${password}\r`);

    expect(await terminal.exit).toBe(0);
    expect(terminal.output()).toContain('(member of passwords)');
    expect(terminal.output()).not.toContain('passphrase');
    expect(await signsIn('typed@example.com', password)).toBe(true);
  }, 60_000);

  it('refuses two different passwords typed at the prompts', async () => {
    const terminal = onTerminal(['user:create', '--email', 'mistyped@example.com']);

    await terminal.waitFor('Password for mistyped@example.com: ');
    terminal.type(`${password}\r`);
    await terminal.waitFor('The same password again: ');
    terminal.type(`${password}!\r`);

    expect(await terminal.exit).toBe(2);
    expect(terminal.output()).toContain('chorus: VALIDATION_FAILED: --password: the two passwords typed differ');
    expect(await signsIn('mistyped@example.com', password)).toBe(false);
  }, 60_000);

  it('stops on Ctrl-C at the prompt with exit 130, creating nobody', async () => {
    const terminal = onTerminal(['user:create', '--email', 'interrupted@example.com']);

    await terminal.waitFor('Password for interrupted@example.com: ');
    terminal.type(`${password.slice(0, 5)}\u0003`);

    expect(await terminal.exit).toBe(130);
    expect(terminal.output()).not.toContain(password.slice(0, 5));
    expect(await signsIn('interrupted@example.com', password)).toBe(false);
  }, 60_000);
});
