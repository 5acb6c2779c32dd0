// Invitation mails survive SIGKILL: adds acknowledged while the mail server refused, or killed during a retry, are
// mailed once after a restart, and a replay mails nothing more. The real server (dist/), smtp-server, SQLite.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEventStore, type RecordedEvent } from '#event-store';
import { invitationStream } from '#domain';
import { ReactionCheckpoints, type ReactionCheckpoint } from '#read-models';
import { ChorusProcesses, ensureBuilt } from '../support/chorus-process.js';
import { SmtpInbox, unfolded, type ReceivedMail } from '../support/smtp-inbox.js';

const root = path.resolve(import.meta.dirname, '../..');
const main = path.join(root, 'dist', 'apps', 'api', 'src', 'main.js');
const members = 24;
/** Longer than the reaction's checkpoint interval (500 ms): a checkpoint that could move past a waiting mail has. */
const CHECKPOINT_SETTLE_MS = 1_500;

let dataDir: string;
let chorus: ChorusProcesses;
let inbox: SmtpInbox;
const started: ChildProcess[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

type Server = { child: ChildProcess; url: string; exit: Promise<NodeJS.Signals | number | null> };

async function startServer(): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: {
      ...chorus.environment(),
      HOST: '127.0.0.1',
      PORT: String(port),
      SMTP_URL: inbox.url,
      PUBLIC_URL: 'https://chorus.example',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exit = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer /health within 60 s: ${stderr}`);
    const healthy = await fetch(`${url}/health`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (healthy) return { child, url, exit };
    await sleep(100);
  }
}

async function eventually(what: string, probe: () => boolean | Promise<boolean>, deadlineMs = 60_000): Promise<void> {
  const giveUpAt = Date.now() + deadlineMs;
  while (!(await probe())) {
    if (Date.now() > giveUpAt) throw new Error(`not within ${deadlineMs} ms: ${what}`);
    await sleep(50);
  }
}

/** The reaction's checkpoint row, read (or written) through a connection of the test's own. */
function invitationCheckpoint<T>(use: (checkpoints: ReactionCheckpoints) => T): T {
  const checkpoints = ReactionCheckpoints.open(dataDir);
  try {
    return use(checkpoints);
  } finally {
    checkpoints.close();
  }
}
const checkpointPosition = (): bigint | undefined =>
  invitationCheckpoint((checkpoints) => checkpoints.read('member-invitations')?.position);

const linkIn = (mail: ReceivedMail): string =>
  /https:\/\/chorus\.example\/invite\/[A-Za-z0-9_-]{64}/.exec(unfolded(mail))?.[0] ?? 'no link';

async function invitationEvents(userIds: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
  const store = await openEventStore({ dataDir });
  try {
    const streams = new Map<string, RecordedEvent[]>();
    for (const userId of userIds) {
      const read = await store.readStream(invitationStream(userId));
      streams.set(userId, read.found ? read.events : []);
    }
    return streams;
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  ensureBuilt();
  dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-crash-invitations-'));
  chorus = new ChorusProcesses(dataDir);
  inbox = await SmtpInbox.start();
}, 120_000);

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await inbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('invitations owed when the server is killed with SIGKILL', () => {
  it('are all mailed after a restart, once each, and a replay records and mails nothing more', async () => {
    const created = chorus.cli(
      'api-key:create',
      '--name',
      'crash',
      '--scopes',
      'organizations:read,organizations:write',
      '--json',
    );
    expect(created.status).toBe(0);
    const headers = {
      authorization: `Bearer ${(JSON.parse(created.stdout) as { key: string }).key}`,
      'content-type': 'application/json',
    };
    let server = await startServer();
    const call = async (method: string, route: string, body?: unknown) => {
      const answer = await fetch(`${server.url}${route}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };
    const organization = await call('POST', '/organizations', { name: 'Crash Test' });
    const organizationId = organization.body['id'] as string;
    expect(
      (await call('POST', `/organizations/${organizationId}/plan`, { line: 'classic', plan: 'professional' })).status,
    ).toBe(200);

    // The mail server refuses for now: the reaction keeps the invitations owed and tries again.
    inbox.refusing = true;
    const emails = Array.from({ length: members }, (_, index) => `member-${index}@crash.example`);
    const added = await Promise.all(
      emails.map((email) => call('POST', `/organizations/${organizationId}/members`, { email, role: 'member' })),
    );
    expect(added.map((answer) => [answer.status, answer.body['invitation']])).toEqual(
      emails.map(() => [201, 'pending']),
    );
    // Some of them recorded InvitationSent before the kill and tried to mail it; none could.
    await sleep(300);
    server.child.kill('SIGKILL');
    expect(await server.exit).toBe('SIGKILL');
    expect(inbox.received).toEqual([]);

    const userIds = added.map((answer) => answer.body['userId'] as string);
    const atKill = await invitationEvents(userIds);
    expect([...atKill.values()].flat().filter((event) => event.type === 'InvitationMailed')).toEqual([]);

    inbox.refusing = false;
    server = await startServer();
    await eventually(
      `an invitation mail to each of the ${members} members`,
      () => new Set(inbox.received.flatMap((mail) => mail.to)).size === members,
    );
    const head = BigInt(added.map((answer) => answer.body['position'] as number).reduce((a, b) => Math.max(a, b)));
    await eventually('the reaction checkpointed past the adds', () => (checkpointPosition() ?? 0n) >= head);
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);

    // Once each, with the link recorded before the kill where there was one.
    expect(inbox.received.map((mail) => mail.to).sort()).toEqual(emails.map((email) => [email]).sort());
    const afterRestart = await invitationEvents(userIds);
    for (const [index, userId] of userIds.entries()) {
      const events = afterRestart.get(userId) ?? [];
      expect(events.map((event) => event.type)).toEqual(['InvitationSent', 'InvitationMailed']);
      expect(events[0]?.metadata).toMatchObject({
        actor: expect.stringMatching(/^api-key:/),
        correlationId: expect.any(String),
      });
      const mail = inbox.received.find((received) => received.to[0] === emails[index]);
      expect(mail).toBeDefined();
      if (mail !== undefined) expect(linkIn(mail)).not.toBe('no link');
    }
    // Those recorded and not mailed before the kill (their sender stopped) went with the link recorded then.
    const recordedBeforeKill = userIds.filter((userId) => (atKill.get(userId) ?? []).length > 0);
    expect(recordedBeforeKill.length).toBeGreaterThan(0);
    for (const userId of recordedBeforeKill)
      expect(afterRestart.get(userId)?.[0]?.id).toBe(atKill.get(userId)?.[0]?.id);

    // A replay: the checkpoint moved back before the adds (a lost checkpoint write), the server started again.
    const mailsBefore = inbox.received.length;
    invitationCheckpoint((checkpoints) => {
      const checkpoint = checkpoints.read('member-invitations') as ReactionCheckpoint;
      checkpoints.save(
        'member-invitations',
        { ...checkpoint, position: BigInt(organization.body['position'] as number) },
        true,
      );
    });
    server = await startServer();
    await eventually('the replay checkpointed past the adds again', () => (checkpointPosition() ?? 0n) >= head);
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    expect(inbox.received.length).toBe(mailsBefore);
    expect(await invitationEvents(userIds)).toEqual(afterRestart);
  }, 180_000);

  it('one mail refused for now while the others go out, killed with SIGKILL during its retries: mailed once after a restart', async () => {
    const created = chorus.cli(
      'api-key:create',
      '--name',
      'crash-retry',
      '--scopes',
      'organizations:read,organizations:write',
      '--json',
    );
    expect(created.status).toBe(0);
    const headers = {
      authorization: `Bearer ${(JSON.parse(created.stdout) as { key: string }).key}`,
      'content-type': 'application/json',
    };
    let server = await startServer();
    const call = async (method: string, route: string, body?: unknown) => {
      const answer = await fetch(`${server.url}${route}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };
    const organization = await call('POST', '/organizations', { name: 'Crash Retry' });
    const organizationId = organization.body['id'] as string;
    expect(
      (await call('POST', `/organizations/${organizationId}/plan`, { line: 'classic', plan: 'professional' })).status,
    ).toBe(200);
    const mailsTo = (address: string) => inbox.received.filter((mail) => mail.to.includes(address)).length;

    const slow = 'slow@retry.example';
    inbox.refusedRecipients.set(slow, 451);
    const others = Array.from({ length: 8 }, (_, index) => `other-${index}@retry.example`);
    for (const email of [slow, ...others])
      expect((await call('POST', `/organizations/${organizationId}/members`, { email, role: 'member' })).status).toBe(
        201,
      );
    await eventually('the others mailed while the slow one waits', () => others.every((email) => mailsTo(email) === 1));
    await eventually('the slow one tried again', () => (inbox.recipientAttempts.get(slow) ?? 0) >= 2);
    // Its retry must not be lost behind a checkpoint that moved on with the others.
    await sleep(CHECKPOINT_SETTLE_MS);
    server.child.kill('SIGKILL');
    expect(await server.exit).toBe('SIGKILL');
    expect(mailsTo(slow)).toBe(0);

    inbox.refusedRecipients.delete(slow);
    server = await startServer();
    await eventually('the slow one mailed after the restart', () => mailsTo(slow) === 1);
    await sleep(CHECKPOINT_SETTLE_MS);
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    expect([slow, ...others].map(mailsTo)).toEqual([slow, ...others].map(() => 1));
  }, 180_000);
});
