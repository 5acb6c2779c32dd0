// `chorus org:history` and `chorus org:state`, the real binary (bin/chorus.js over dist/) on a
// DATA_DIR holding the scripted history recorded with an injected clock.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { organizationStream } from '#domain';
import { SqliteEventStore, type RecordedEvent } from '#event-store';
import { historyEvent, jsonSafe, organizationStateAt } from '#api';
import {
  commandPath,
  recordScriptedHistory,
  recordedAtOf,
  scriptCatalogue,
  ScriptClock,
} from '../support/scripted-history.js';

const root = resolve(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'chorus.js');
const organizationId = 'audited-cli';
let dataDir: string;
let clock: ScriptClock;
let store: SqliteEventStore;
let events: RecordedEvent[];

type Run = { code: number | null; stdout: string; stderr: string };

const environment = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  NODE_ENV: 'test',
  SEED_DEMO: 'false',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
});

function chorus(args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [bin, ...args], { cwd: root, env: environment() }, (error, stdout, stderr) =>
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    );
  });
}

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

beforeAll(async () => {
  // CI builds first (npm test); a local run without dist/ builds once here.
  if (!existsSync(join(root, 'dist', 'apps', 'cli', 'src', 'commands', 'org-history.command.js'))) {
    try {
      execFileSync(
        process.execPath,
        [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
        { cwd: root, stdio: 'ignore' },
      );
    } catch {
      // Emitted despite type errors elsewhere; the calls below fail clearly if not.
    }
  }
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-audit-cli-'));
  clock = new ScriptClock();
  // The test keeps the store open, as a server would: the command line shares the file with it.
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite'), now: clock.now });
  await recordScriptedHistory(store, clock, organizationId);
  const read = await store.readStream(organizationStream(organizationId));
  events = read.found ? read.events : [];
}, 120_000);

afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('chorus org:history', () => {
  it('--json prints one JSON object per line: every event, oldest first, as the HTTP history shows it', async () => {
    const run = await chorus(['org:history', organizationId, '--json']);

    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual(events.map((event) => asJson(historyEvent(event))));
  });

  it("prints the console's sentences for people, as --format csv does: time, revision, who, and what happened", async () => {
    const run = await chorus(['org:history', organizationId]);
    const csv = (await chorus(['org:history', organizationId, '--format', 'jsonl'])).stdout.trimEnd().split('\n');

    expect(run.code).toBe(0);
    const [header, ...rows] = run.stdout.trimEnd().split('\n');
    expect(header?.split(/\s+/)).toEqual(['time', 'revision', 'by', 'event']);
    expect(rows).toHaveLength(events.length);
    expect(rows[3]).toMatch(new RegExp(`^${recordedAtOf(3).toISOString()} +3 +Command line +Member added: `));
    // Every row ends with the sentence the console and the downloads show for that event; no row shows a type's code
    // name.
    rows.forEach((row, index) =>
      expect(row.endsWith((JSON.parse(csv[index] ?? '{}') as { description: string }).description)).toBe(true),
    );
    expect(rows.some((row) => /\b(MemberAdded|PlanAssigned|OrganizationCreated)\b/.test(row))).toBe(false);
  });

  it('an unknown organization: exit 1, NOT_FOUND on stderr, nothing on stdout', async () => {
    const run = await chorus(['org:history', 'nobody-here']);

    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain('NOT_FOUND');
  });

  it('a malformed id: exit 2', async () => {
    expect((await chorus(['org:history', 'Not An Id'])).code).toBe(2);
  });

  it('--format jsonl writes the console\'s "Download JSON lines": every event in words, oldest first', async () => {
    const run = await chorus(['org:history', organizationId, '--format', 'jsonl']);

    expect(run.code).toBe(0);
    const entries = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map((entry) => entry.revision)).toEqual(events.map((event) => Number(event.revision)));
    expect(Object.keys(entries[0] ?? {})).toEqual([
      'recordedAt',
      'revision',
      'position',
      'type',
      'description',
      'actor',
      'actorName',
      'correlationId',
    ]);
    expect(entries[3]).toMatchObject({
      type: 'MemberAdded',
      actor: 'cli',
      actorName: 'Command line',
      description: expect.stringMatching(/^Member added: /),
    });
  });

  it('--format csv writes the "Download CSV" file: a header, then one record per event, CRLF', async () => {
    const run = await chorus(['org:history', organizationId, '--format', 'csv']);

    expect(run.code).toBe(0);
    const records = run.stdout.split('\r\n');
    expect(records[0]).toBe('\uFEFFrecordedAt,revision,position,type,description,actor,actorName,correlationId');
    expect(records.filter((record) => record !== '')).toHaveLength(events.length + 1);
  });

  it.each([
    [['--format', 'xlsx'], 2],
    [['--format', 'csv', '--json'], 2],
    [['--format', 'csv', '--follow'], 2],
  ])('refuses %j: exit %i, nothing on stdout', async (options, code) => {
    const run = await chorus(['org:history', organizationId, ...options]);

    expect({ code: run.code, stdout: run.stdout }).toEqual({ code, stdout: '' });
  });

  it('--format for an unknown organization: exit 1, NOT_FOUND on stderr, not a byte of a file', async () => {
    const run = await chorus(['org:history', 'nobody-here', '--format', 'csv']);

    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain('NOT_FOUND');
  });

  it('--follow keeps printing events recorded later, until interrupted', async () => {
    const child = spawn(process.execPath, [bin, 'org:history', organizationId, '--json', '--follow'], {
      cwd: root,
      env: environment(),
    });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      for (const event of events)
        expect(JSON.parse((await lines.next()).value as string)).toMatchObject({ id: event.id });

      clock.setTo(recordedAtOf(events.length));
      const decider = commandPath(store, scriptCatalogue());
      const context = { actor: 'cli', correlationId: 'follow-me', causationId: 'follow-me', origin: {} };
      await decider.handle(organizationId, { type: 'PurchaseAddOn', data: { addOn: 'additionalUser' } }, context);
      // Another organization whose id starts the same must not show up.
      await decider.handle(
        `${organizationId}-2`,
        { type: 'CreateOrganization', data: { id: `${organizationId}-2`, name: 'Other' } },
        context,
      );
      await decider.handle(organizationId, { type: 'PurchaseAddOn', data: { addOn: 'feedback' } }, context);

      const first = JSON.parse((await lines.next()).value as string) as {
        type: string;
        revision: number;
        data: unknown;
      };
      const second = JSON.parse((await lines.next()).value as string) as {
        type: string;
        revision: number;
        data: unknown;
      };
      expect([first, second]).toMatchObject([
        { type: 'AddOnPurchased', revision: events.length, data: { addOn: 'additionalUser' } },
        { type: 'AddOnPurchased', revision: events.length + 1, data: { addOn: 'feedback' } },
      ]);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  }, 30_000);
});

describe('chorus org:state', () => {
  it('--as-of-revision N --json prints the state the HTTP API answers for that revision', async () => {
    const run = await chorus(['org:state', organizationId, '--as-of-revision', '5', '--json']);
    const expected = await organizationStateAt(store, scriptCatalogue(), organizationId, {
      kind: 'revision',
      revision: 5n,
    });

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(
      asJson({
        ...expected.view,
        revision: jsonSafe(expected.revision),
        position: jsonSafe(expected.position),
        recordedAt: expected.recordedAt,
      }),
    );
  });

  it('--as-of ISO folds every event recorded at or before that instant', async () => {
    const run = await chorus(['org:state', organizationId, '--as-of', '2021-02-03T04:08:30Z', '--json']);

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      revision: 3,
      recordedAt: recordedAtOf(3).toISOString(),
      members: [{ userId: 'user-owner' }],
    });
  });

  it('prints the state for people by default', async () => {
    const run = await chorus(['org:state', organizationId, '--as-of-revision', '7']);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Audited Ltd (audited-cli) at revision 7');
    expect(run.stdout).toContain('Classic plan:   essential');
    expect(run.stdout).toMatch(/Sites\s+2 of 2 \(configured 2/);
    expect(run.stdout).not.toContain('contentSections');
    expect(run.stdout).toContain('Subscription:   none');
    expect(run.stdout).toContain('admin@audited.example admin, Chorus user [user-admin]');
  });

  it.each([
    [['--as-of-revision', '1', '--as-of', '2021-02-03T04:08:30Z'], 2, 'VALIDATION_FAILED'],
    [['--as-of-revision', 'two'], 2, 'VALIDATION_FAILED'],
    [['--as-of', 'yesterday'], 2, 'VALIDATION_FAILED'],
    [['--as-of', '2021-02-03T04:04:59Z'], 1, 'NOT_FOUND'],
    [['--as-of-revision', '999'], 1, 'NOT_FOUND'],
  ])('%j: exit %i with %s', async (options, code, problem) => {
    const run = await chorus(['org:state', organizationId, ...options]);

    expect(run).toMatchObject({ code, stdout: '' });
    expect(run.stderr).toContain(problem);
  });

  it('both points at once: the refusal names the two options, not the fields behind them', async () => {
    const run = await chorus(['org:state', organizationId, '--as-of-revision', '1', '--as-of', '2021-02-03T04:08:30Z']);

    expect(run.stderr).toBe('chorus: VALIDATION_FAILED: give --as-of-revision or --as-of, not both\n');
  });

  it('a malformed point is refused naming its option', async () => {
    expect((await chorus(['org:state', organizationId, '--as-of', 'yesterday'])).stderr).toMatch(
      /^chorus: VALIDATION_FAILED: --as-of: /,
    );
    expect((await chorus(['org:state', organizationId, '--as-of-revision', 'two'])).stderr).toMatch(
      /^chorus: VALIDATION_FAILED: --as-of-revision: /,
    );
  });

  it('shows the Chorus plan while Chorus is off, and which plan the limits come from', async () => {
    const clockless = commandPath(store, scriptCatalogue());
    const context = { actor: 'cli', correlationId: 'chorus-off', causationId: 'chorus-off', origin: {} };
    const id = `${organizationId}-chorus-off`;
    await clockless.handle(id, { type: 'CreateOrganization', data: { id, name: 'Chorus Off Ltd' } }, context);
    await clockless.handle(id, { type: 'AssignPlan', data: { line: 'classic', plan: 'essential' } }, context);
    await clockless.handle(id, { type: 'AssignPlan', data: { line: 'chorus', plan: 'teams' } }, context);

    const off = await chorus(['org:state', id]);
    await clockless.handle(id, { type: 'EnableChorus', data: { parallelUse: true } }, context);
    const on = await chorus(['org:state', id]);

    expect(off.stdout).toMatch(
      /Classic plan: +essential\n +Chorus plan: +teams\n +Chorus: +off\n +Limits from: +the classic plan essential\n/,
    );
    expect(on.stdout).toMatch(
      /Chorus plan: +teams\n +Chorus: +on, in parallel use\n +Limits from: +the chorus plan teams\n/,
    );
  });

  it('shows the Stripe subscription, and a Chorus plan it pays for in effect', async () => {
    const decider = commandPath(store, scriptCatalogue());
    const context = { actor: 'stripe', correlationId: 'evt_cli', causationId: 'evt_cli', origin: {} };
    const id = `${organizationId}-stripe`;
    await decider.handle(id, { type: 'CreateOrganization', data: { id, name: 'Paying Ltd' } }, context);
    const subscription = {
      provider: 'stripe',
      subscriptionId: 'sub_cli',
      customerId: 'cus_cli',
      status: 'active',
      trialEndsAt: null,
      endsOn: null,
      currentPeriod: { start: '2031-01-01T00:00:00.000Z', end: '2031-02-01T00:00:00.000Z' },
      endedAt: null,
      createdAt: '2031-01-01T00:00:00.000Z',
      plans: { chorus: 'teams' },
      addOns: { additionalContentSection: 1 },
    } as const;
    await decider.handle(id, { type: 'SyncSubscription', data: subscription }, context);

    const run = await chorus(['org:state', id]);

    expect(run.stdout).toContain(
      'Subscription:   Stripe sub_cli (customer cus_cli): active, renews on 1 February 2031',
    );
    expect(run.stdout).toMatch(/Chorus: +on\n +Limits from: +the chorus plan teams\n/);
    expect(run.stdout).toContain('Add-ons:        Additional site × 1');
    expect(run.stdout).toMatch(/Sites\s+0 of 3 \(configured 3, hard unlimited\)/);
  });
});
