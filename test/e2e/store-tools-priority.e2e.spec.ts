// store:backup and store:copy run beside serving nodes and give them the CPU first (docs/operations.md): every
// thread of the tool's process is seen at the lowest priority (nice 19, in Linux's idle scheduling class) while it
// works. The real `chorus` command line, watched from outside through /proc, as `top` would show it.
import { execFile, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openEventStore } from '#event-store';
import { chorusBin, ensureCliBuilt, repositoryRoot } from '../support/chorus-cli.js';

const EVENTS = 20_000;
const root = mkdtempSync(join(tmpdir(), 'chorus-tool-priority-'));
const sourceDir = join(root, 'source');
const onLinux = existsSync('/proc/self/task');

/** Linux's idle scheduling class (`sched_setscheduler`'s SCHED_IDLE), as /proc shows a thread's policy. */
const SCHED_IDLE = 5;

/**
 * Whether each thread of a process is at the lowest priority (nice 19, the idle class), its own (main) thread first,
 * or undefined once it has ended.
 */
function loweredThreads(pid: number): boolean[] | undefined {
  const lowered = (thread: number): boolean => {
    const stat = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8');
    // Fields 19 (nice) and 41 (policy); the command name before them, in parentheses, may hold spaces, so the fields
    // are counted after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[16]) === 19 && Number(fields[38]) === SCHED_IDLE;
  };
  try {
    const others = readdirSync(`/proc/${pid}/task`)
      .map(Number)
      .filter((thread) => thread !== pid);
    return [lowered(pid), ...others.map(lowered)];
  } catch {
    return undefined;
  }
}

type Watched = { code: number | null; seenLowered: number; threadsLeftBehind: number };

/**
 * Runs `chorus <args>` and watches its threads until it exits: how often it was seen with its main thread lowered
 * (nice 19, the idle class) and other threads running, and how many of those times some thread was not lowered.
 */
async function watchedRun(args: string[], dataDir: string): Promise<Watched> {
  const child: ChildProcess = execFile(process.execPath, [chorusBin, ...args], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', SEED_DEMO: 'false', DATA_DIR: dataDir },
  });
  let code: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (exitCode) => {
      code = exitCode;
      resolve();
    }),
  );
  const watched = { seenLowered: 0, threadsLeftBehind: 0 };
  while (code === undefined) {
    const lowered = loweredThreads(child.pid as number);
    // A process that is ending may have only its main thread left: such a sight proves nothing.
    if (lowered !== undefined && lowered.length > 1 && lowered[0] === true) {
      watched.seenLowered += 1;
      if (lowered.includes(false)) watched.threadsLeftBehind += 1;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  await exited;
  return { code, ...watched };
}

const worked = { code: 0, seenLowered: expect.any(Number), threadsLeftBehind: 0 };

beforeAll(async () => {
  ensureCliBuilt();
  // Enough of a log that each tool works for a while after it starts.
  const store = await openEventStore({ dataDir: sourceDir });
  for (let batch = 0; batch < EVENTS / 500; batch += 1) {
    const events = Array.from({ length: 500 }, () => ({
      id: randomUUID(),
      type: 'SomethingHappened',
      data: { text: 'x'.repeat(200) },
      metadata: { actor: 'user:test', correlationId: randomUUID(), causationId: randomUUID() },
    }));
    await store.append(`org-${batch}`, events, 'no_stream');
  }
  await store.close();
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

(onLinux ? describe : describe.skip)('the store tools that run beside serving nodes', () => {
  it('store:backup works with every thread at the lowest CPU priority', async () => {
    const run = await watchedRun(['store:backup', '--to', join(root, 'backups'), '--json'], sourceDir);
    expect(run).toEqual(worked);
    expect(run.seenLowered).toBeGreaterThan(0);
  }, 60_000);

  it('store:copy works with every thread at the lowest CPU priority', async () => {
    const run = await watchedRun(['store:copy', '--from', sourceDir, '--json'], join(root, 'copy'));
    expect(run).toEqual(worked);
    expect(run.seenLowered).toBeGreaterThan(0);
  }, 60_000);
});
