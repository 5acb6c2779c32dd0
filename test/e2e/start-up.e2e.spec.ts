// The built server as `npm start` runs it (node dist/apps/api/src/main.js, its own process): what it
// prints on a first start and on a restart, and how it refuses a port that is taken.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const main = join(root, 'dist', 'apps', 'api', 'src', 'main.js');
const boxEnd = /^└─+┘$/m;

type Server = {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
};

let dataDir: string;
let port: number;
const servers: Server[] = [];

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** `node dist/apps/api/src/main.js` in a directory of its own (no .env of the repository is read). */
function startServer(settings: Record<string, string>): Server {
  const child = spawn(process.execPath, [main], {
    cwd: tmpdir(),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      ...settings,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const server = { child, stdout: () => stdout, stderr: () => stderr, exited };
  servers.push(server);
  return server;
}

/** Waits until the banner's last line is out, and a moment more in case anything followed it. */
async function banner(server: Server): Promise<{ box: string; before: string; after: string }> {
  const deadline = Date.now() + 30_000;
  while (!boxEnd.test(server.stdout())) {
    if (server.child.exitCode !== null)
      throw new Error(`the server exited ${server.child.exitCode}: ${server.stderr()}${server.stdout()}`);
    if (Date.now() > deadline) throw new Error(`no start-up banner within 30 s; output so far:\n${server.stdout()}`);
    await new Promise((done) => setTimeout(done, 50));
  }
  await new Promise((done) => setTimeout(done, 500));
  const output = server.stdout();
  const start = output.indexOf('┌');
  const end = output.search(boxEnd);
  const close = output.indexOf('\n', end);
  return {
    box: output.slice(start, close === -1 ? undefined : close),
    before: output.slice(0, start),
    after: close === -1 ? '' : output.slice(close + 1),
  };
}

async function stop(server: Server): Promise<number | null> {
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
  return server.exited;
}

/** Signs in as a browser would (the page's XSRF cookie echoed in the header); answers POST /login's status. */
async function signIn(baseUrl: string, username: string, password: string): Promise<number> {
  const page = await fetch(`${baseUrl}/login`, { headers: { accept: 'text/html' } });
  const cookies = page.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '');
  const xsrf = cookies.find((cookie) => cookie.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
  const login = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: cookies.join('; '),
      'x-xsrf-token': decodeURIComponent(xsrf),
    },
    body: JSON.stringify({ username, password }),
  });
  return login.status;
}

beforeAll(async () => {
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first (npm test does)`);
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-start-up-'));
  port = await freePort();
});

afterAll(async () => {
  await Promise.all(servers.map(stop));
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('npm start', () => {
  let first: Server;
  const baseUrl = () => `http://localhost:${port}`;

  it('on an empty store prints, last and in a box, the URL and the demo sign-in, whose password works; no route mapping', async () => {
    first = startServer({ DATA_DIR: dataDir });
    const { box, before, after } = await banner(first);

    expect(after).toBe('');
    expect(box.split('\n')[1]).toMatch(new RegExp(`^│ Chorus is running at ${baseUrl()} +│$`));
    expect(box).toContain(`${baseUrl()}/login with`);
    expect(box).toMatch(/e-mail: +owner@demo\.chorus\.localhost/);
    const password = /password: +(\S+)/.exec(box)?.[1] ?? '';
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    // Nest's start-up lines (modules, routes, "successfully started") are at debug level.
    expect(before).not.toContain('Mapped {');
    expect(before).not.toContain('dependencies initialized');
    expect(before.trim().split('\n').length).toBeLessThan(15);
    // Without BACKUP_DIR, one line says what that costs.
    expect(before.split('\n').filter((line) => line.includes('BACKUP_DIR is not set'))).toEqual([
      expect.stringContaining('a restored backup would bring back the people erased after it'),
    ]);

    expect(await signIn(`http://127.0.0.1:${port}`, 'owner@demo.chorus.localhost', password)).toBe(204);
    // The requests went to their own file: the box, with its one-time password, is still the last thing on screen.
    expect(box).toContain(`Requests are logged to ${join(dataDir, 'logs', 'requests.log')} (REQUEST_LOG)`);
    await new Promise((done) => setTimeout(done, 300));
    expect(
      first
        .stdout()
        .slice(first.stdout().indexOf(box) + box.length)
        .trim(),
    ).toBe('');
    const requests = readFileSync(join(dataDir, 'logs', 'requests.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; path: string });
    expect(requests).toContainEqual(expect.objectContaining({ msg: 'request completed', path: '/login' }));
  }, 60_000);

  it('refuses a port that is taken in one line naming PORT, without a stack trace, with exit code 1, before touching the store', async () => {
    const otherDataDir = mkdtempSync(join(tmpdir(), 'chorus-start-up-busy-'));
    try {
      const second = startServer({ DATA_DIR: otherDataDir });

      expect(await second.exited).toBe(1);
      expect(second.stderr()).toBe(
        `PORT ${port} is already in use on 127.0.0.1: stop the program using it, or start with another PORT (e.g. PORT=${port + 1}).\n`,
      );
      expect(second.stdout()).toBe('');
      expect(readdirSync(otherDataDir)).toEqual([]);
    } finally {
      rmSync(otherDataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses to start on a DATA_DIR whose restore has not finished, naming the command that finishes it', async () => {
    const restoring = mkdtempSync(join(tmpdir(), 'chorus-start-up-restoring-'));
    try {
      writeFileSync(join(restoring, 'restore-in-progress.json'), '{}');
      const server = startServer({ DATA_DIR: restoring });

      expect(await server.exited).toBe(1);
      expect(server.stderr()).toContain(
        'a restore into this store has not finished; run the same `chorus store:restore` again',
      );
      expect(readdirSync(restoring)).toEqual(['restore-in-progress.json']);
    } finally {
      rmSync(restoring, { recursive: true, force: true });
    }
  }, 60_000);

  it('on a restart names the demo owner, /forgot and the outbox instead of a password; LOG_LEVEL=debug shows the routes', async () => {
    expect(await stop(first)).toBe(0);

    const again = startServer({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'debug',
      REQUEST_LOG: 'stdout',
      BACKUP_DIR: join(dataDir, 'backups'),
    });
    const { box, before, after } = await banner(again);
    expect(before).not.toContain('BACKUP_DIR is not set');

    expect(after).toBe('');
    expect(box).toContain(`Sign in at ${baseUrl()}/login`);
    expect(box).toContain('as the demo owner, owner@demo.chorus.localhost');
    expect(box).toContain(`Forgot the password? Ask for a link at ${baseUrl()}/forgot`);
    expect(box).toContain(`SMTP_URL is not set: the mail is written to ${join(dataDir, 'outbox')}`);
    expect(box).not.toContain('password:');
    const routeLines = before
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: string; msg: string })
      .filter(({ msg }) => msg.startsWith('Mapped {'));
    expect(routeLines).toContainEqual(expect.objectContaining({ level: 'debug', msg: 'Mapped {/login, POST} route' }));
    // REQUEST_LOG=stdout: each request's line follows, with the others.
    expect(box).not.toContain('REQUEST_LOG');
    await fetch(`http://127.0.0.1:${port}/health/live`);
    await new Promise((done) => setTimeout(done, 300));
    expect(again.stdout()).toMatch(/"path":"\/health\/live".*"msg":"request completed"/);
  }, 60_000);
});
