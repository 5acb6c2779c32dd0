// `chorus org:members` reads one page at a time, following `next`, with the HTTP route's rules for its options; and
// `chorus org:state` prints only the first members, pointing at org:members for the rest. In this process, on a
// temporary DATA_DIR, with the context a command-line call opens (no build, no child process).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Command } from 'commander';
import { loadConfig } from '#config';
import type { OrganizationCommand } from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import { Organizations } from '#api';
import { createCliContext, type CliContext } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { runInProcess, type CliRun } from '../../../../test/support/run-user-create.js';
import { registerOrgMembersCommand } from './org-members.command.js';
import { MEMBERS_SHOWN, registerOrgStateCommand } from './org-state.command.js';

let dataDir: string;
let context: CliContext;

/** `args` start with the command name, as typed after `chorus`. */
function chorus(...args: string[]): Promise<CliRun> {
  const program = new Command('chorus').exitOverride();
  registerOrgMembersCommand(program, async () => context);
  registerOrgStateCommand(program, async () => context);
  return runInProcess(program, args);
}

async function record(organizationId: string, commands: OrganizationCommand[]): Promise<void> {
  const organizations = context.app.get(Organizations);
  for (const command of commands) await organizations.handle(organizationId, command, context.commandContext('test'));
}

const created = (id: string, name: string): OrganizationCommand[] => [
  { type: 'CreateOrganization', data: { id, name } },
  { type: 'AssignPlan', data: { line: 'classic', plan: 'essential' } },
];

const member = (userId: string, email: string, role: 'owner' | 'member' = 'member'): OrganizationCommand => ({
  type: 'AddMember',
  data: { userId, email, role, ...(userId === 'u3' ? { chorusUser: true } : {}) },
});

type Page = {
  organizationId: string;
  members: { userId: string; email: string; role: string; chorusUser: boolean; invited: boolean }[];
  total: number;
  next: string | null;
  position: number;
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-org-members-'));
  context = await createCliContext(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  await record('acme', [
    ...created('acme', 'Acme'),
    member('u1', 'ann@acme.example', 'owner'),
    member('u2', 'bob@globex.example'),
    member('u3', 'cy@acme.example'),
    member('u4', 'dee@globex.example'),
    member('u5', 'eve@acme.example'),
    member('u6', 'fay@acme.example'),
    member('u7', 'gus@globex.example'),
  ]);
}, 60_000);

afterAll(async () => {
  await context?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('chorus org:members', () => {
  it('reads the members a page at a time, in the order they joined, following next to the last page', async () => {
    const pages: Page[] = [];
    let after: string[] = [];
    for (let call = 0; call < 3; call += 1) {
      const run = await chorus('org:members', 'acme', '--limit', '3', ...after, '--json');
      expect(run).toMatchObject({ exitCode: 0, stderr: '' });
      const page = JSON.parse(run.stdout) as Page;
      pages.push(page);
      after = page.next === null ? [] : ['--after', page.next];
    }

    expect(pages.map((page) => page.members.map((listed) => listed.userId))).toEqual([
      ['u1', 'u2', 'u3'],
      ['u4', 'u5', 'u6'],
      ['u7'],
    ]);
    expect(pages.map((page) => [page.organizationId, page.total])).toEqual([
      ['acme', 7],
      ['acme', 7],
      ['acme', 7],
    ]);
    expect(pages.map((page) => page.next === null)).toEqual([false, false, true]);
    expect(pages[0]?.members[2]).toEqual({
      userId: 'u3',
      email: 'cy@acme.example',
      role: 'member',
      chorusUser: true,
      invited: true,
    });
    expect(typeof pages[0]?.position).toBe('number');
  });

  it('prints a line per member for people, and the command that reads the next page', async () => {
    const first = await chorus('org:members', 'acme', '--limit', '3');
    const lines = first.stdout.trimEnd().split('\n');
    const next = (JSON.parse((await chorus('org:members', 'acme', '--limit', '3', '--json')).stdout) as Page).next;

    expect(first.exitCode).toBe(0);
    expect(lines.slice(0, 3)).toEqual([
      'ann@acme.example    owner, invited  [u1]',
      'bob@globex.example  member, invited  [u2]',
      'cy@acme.example     member, Chorus user, invited  [u3]',
    ]);
    expect(lines[3]).toBe(`3 of 7 members; next page: chorus org:members acme --limit 3 --after ${next}`);
    expect((await chorus('org:members', 'acme')).stdout).toMatch(/\n7 of 7 members; no more pages\.\n$/);
  });

  it('keeps the members whose address holds --q, whatever its case, and keeps the search in the next page', async () => {
    const found = JSON.parse(
      (await chorus('org:members', 'acme', '--q', 'GLOBEX', '--limit', '2', '--json')).stdout,
    ) as Page;
    const rest = JSON.parse(
      (await chorus('org:members', 'acme', '--q', 'GLOBEX', '--limit', '2', '--after', found.next ?? '', '--json'))
        .stdout,
    ) as Page;
    const text = await chorus('org:members', 'acme', '--q', 'GLOBEX', '--limit', '2');

    expect(found.members.map((listed) => listed.email)).toEqual(['bob@globex.example', 'dee@globex.example']);
    expect(found.total).toBe(3);
    expect(rest).toMatchObject({ members: [{ email: 'gus@globex.example' }], total: 3, next: null });
    expect(text.stdout).toContain(
      `2 of 3 members whose address contains "GLOBEX"; next page: chorus org:members acme --q GLOBEX --limit 2 --after ${found.next}`,
    );
    expect(await chorus('org:members', 'acme', '--q', 'initech')).toEqual({
      exitCode: 0,
      stdout: 'No member\'s address contains "initech".\n',
      stderr: '',
    });
  });

  it.each([
    [['--limit', '0'], '--limit: must be from 1 to 200'],
    [['--limit', '201'], '--limit: must be from 1 to 200'],
    [['--limit', 'ten'], '--limit: must be a whole number from 1 to 200'],
    [['--after', 'xyz'], '--after: must be the `next` of an earlier page'],
    [['--q', '  '], '--q: must not be empty'],
  ])('%j: VALIDATION_FAILED (exit 2), nothing printed, nothing recorded', async (options, detail) => {
    const store = context.app.get<EventStore>(EVENT_STORE);
    const head = await store.headPosition();

    const run = await chorus('org:members', 'acme', ...options);

    expect(run).toEqual({
      exitCode: ExitCode.invalidInput,
      stdout: '',
      stderr: `chorus: VALIDATION_FAILED: ${detail}\n`,
    });
    expect(await store.headPosition()).toBe(head);
  });

  it('an unknown organization is NOT_FOUND (exit 1), a malformed id VALIDATION_FAILED (exit 2)', async () => {
    expect(await chorus('org:members', 'initech')).toEqual({
      exitCode: ExitCode.refused,
      stdout: '',
      stderr: 'chorus: NOT_FOUND: There is no organization initech.\n',
    });
    expect(JSON.parse((await chorus('org:members', 'initech', '--json')).stderr)).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect((await chorus('org:members', 'Not An Id')).exitCode).toBe(ExitCode.invalidInput);
  });
});

describe('chorus org:state', () => {
  const many = MEMBERS_SHOWN + 3;

  beforeAll(async () => {
    await record('crowd', [
      ...created('crowd', 'Crowd'),
      ...Array.from({ length: many }, (_, index) =>
        member(`c${index + 1}`, `p${index + 1}@crowd.example`, index === 0 ? 'owner' : 'member'),
      ),
    ]);
  }, 60_000);

  it(`prints the first ${MEMBERS_SHOWN} members in order, then how many more and where to read them`, async () => {
    const run = await chorus('org:state', 'crowd');
    const lines = run.stdout.split('\n');
    const heading = lines.indexOf(`  Members (${many}):`);

    expect(run.exitCode).toBe(0);
    expect(heading).toBeGreaterThan(0);
    expect(lines.slice(heading + 1, heading + MEMBERS_SHOWN + 3)).toEqual([
      '    p1@crowd.example owner [c1]',
      ...Array.from(
        { length: MEMBERS_SHOWN - 1 },
        (_, index) => `    p${index + 2}@crowd.example member [c${index + 2}]`,
      ),
      '    … and 3 more: chorus org:members crowd lists them page by page',
      '  Sites (0):',
    ]);
  });

  it('at an earlier point, sends to --json for the rest, which has every member', async () => {
    // Revision 0 creates, 1 assigns the plan, then one member each: the last revision has them all.
    const latest = String(1 + many);
    const text = await chorus('org:state', 'crowd', '--as-of-revision', latest);
    const json = JSON.parse((await chorus('org:state', 'crowd', '--as-of-revision', latest, '--json')).stdout) as {
      members: { userId: string }[];
    };
    const fewer = await chorus('org:state', 'crowd', '--as-of-revision', String(1 + MEMBERS_SHOWN));

    expect(text.stdout).toContain(
      `\n    p${MEMBERS_SHOWN}@crowd.example member [c${MEMBERS_SHOWN}]\n    … and 3 more (--json has them all)\n`,
    );
    expect(json.members.map((listed) => listed.userId)).toEqual(
      Array.from({ length: many }, (_, index) => `c${index + 1}`),
    );
    expect(fewer.stdout).toContain(`  Members (${MEMBERS_SHOWN}):`);
    expect(fewer.stdout).not.toContain('… and');
  });
});
