// The organization command path on the real SQLite store: the metadata of the command, re-decision after
// each lost race, the conflict after MAX_DECISION_ATTEMPTS, no retry of a refusal, nothing for no change.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlanCatalogue, DomainError, organizationStream, type OrganizationCommand } from '#domain';
import { MAX_DECISION_ATTEMPTS, type CommandContext } from '#application';
import { SqliteEventStore, WrongExpectedRevisionError, type EventStore, type RecordedEvent } from '#event-store';
import { OrganizationStateCache } from './organizations.service.js';
import { Organizations } from './organizations.service.js';

const context: CommandContext = {
  actor: 'api-key:k1',
  correlationId: 'corr-1',
  causationId: 'corr-1',
  origin: { clientIp: '127.0.0.1' },
};
const stream = organizationStream('acme');

let dataDir: string;
let store: SqliteEventStore;
let organizations: Organizations;
let appendAttempts: number;
/** Runs before each append the command path makes (a rival writer, say). */
let beforeAppend: () => Promise<void>;

const addMember = (email: string): OrganizationCommand => ({
  type: 'AddMember',
  data: { userId: email.split('@')[0] as string, email, role: 'member' },
});
const streamEvents = async (): Promise<RecordedEvent[]> => {
  const read = await store.readStream(stream);
  return read.found ? read.events : [];
};

/** Another writer records a member just before our append, `times` times. */
function rivalAddsMembers(times: number): void {
  let rivals = 0;
  beforeAppend = async () => {
    appendAttempts += 1;
    if (rivals >= times) return;
    rivals += 1;
    const userId = `rival-${rivals}`;
    const metadata = { actor: 'user:rival', correlationId: 'rival', causationId: 'rival' };
    await store.append(
      stream,
      [
        {
          id: randomUUID(),
          type: 'MemberAdded',
          data: { userId, email: `${userId}@example.com`, role: 'member', chorusUser: false },
          metadata,
        },
      ],
      'any',
    );
  };
}

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-organizations-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  beforeAppend = async () => {
    appendAttempts += 1;
  };
  // The real store, with a hook before each append.
  const hooked = new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'append')
        return async (...args: Parameters<EventStore['append']>) => (await beforeAppend(), target.append(...args));
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  organizations = new Organizations(hooked, new OrganizationStateCache(), createPlanCatalogue());
  await organizations.handle('acme', { type: 'CreateOrganization', data: { id: 'acme', name: 'Acme' } }, context);
  await organizations.handle('acme', { type: 'AssignPlan', data: { line: 'classic', plan: 'enterprise' } }, context);
  await organizations.handle('acme', { type: 'ConfigureLimits', data: { users: 3 } }, context);
  appendAttempts = 0;
});

afterEach(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('Organizations.handle', () => {
  it('appends the decided events at the expected revision, with the metadata of the command', async () => {
    const result = await organizations.handle('acme', addMember('ada@example.com'), context);

    const recorded = (await streamEvents()).at(-1);
    expect(result).toEqual({ id: 'acme', revision: 3n, position: recorded?.position });
    expect(recorded).toMatchObject({
      type: 'MemberAdded',
      revision: 3n,
      metadata: {
        actor: 'api-key:k1',
        correlationId: 'corr-1',
        causationId: 'corr-1',
        commandType: 'AddMember',
        clientIp: '127.0.0.1',
      },
    });
  });

  it('re-reads and decides again after each lost race, and succeeds while the decision holds', async () => {
    rivalAddsMembers(2);

    const result = await organizations.handle('acme', addMember('ada@example.com'), context);

    expect(appendAttempts).toBe(3);
    expect(result.revision).toBe(5n);
    expect((await streamEvents()).slice(-3).map((event) => (event.data as { email: string }).email)).toEqual([
      'rival-1@example.com',
      'rival-2@example.com',
      'ada@example.com',
    ]);
  });

  it('answers the new decision when a lost race changed it (the limit is now reached)', async () => {
    rivalAddsMembers(3);

    const refusal = organizations.handle('acme', addMember('ada@example.com'), context);

    await expect(refusal).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      details: { resource: 'users', limit: 3, count: 3 },
    });
    expect((await streamEvents()).filter((event) => event.type === 'MemberAdded')).toHaveLength(3);
  });

  it(`gives up with the conflict after ${MAX_DECISION_ATTEMPTS} lost races in a row`, async () => {
    await organizations.handle('acme', { type: 'ConfigureLimits', data: { users: 0 } }, context);
    appendAttempts = 0;
    rivalAddsMembers(Number.POSITIVE_INFINITY);

    await expect(organizations.handle('acme', addMember('ada@example.com'), context)).rejects.toBeInstanceOf(
      WrongExpectedRevisionError,
    );
    expect(appendAttempts).toBe(MAX_DECISION_ATTEMPTS);
  });

  it('does not retry a refusal: nothing is appended', async () => {
    const before = (await streamEvents()).length;

    await expect(
      organizations.handle('acme', { type: 'RemoveMember', data: { userId: 'nobody' } }, context),
    ).rejects.toBeInstanceOf(DomainError);
    expect(appendAttempts).toBe(0);
    expect((await streamEvents()).length).toBe(before);
  });

  it('appends nothing and answers the current revision when the decision is no change', async () => {
    const result = await organizations.handle('acme', { type: 'ConfigureLimits', data: { users: 3 } }, context);

    expect(appendAttempts).toBe(0);
    expect(result).toEqual({ id: 'acme', revision: 2n, position: (await streamEvents()).at(-1)?.position });
  });
});

describe('Organizations.loadAsOf', () => {
  it('answers the cached fold without a read when it holds the revision, and loads when it does not', async () => {
    const reads: string[] = [];
    const counted = new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'readStream')
          return (...args: Parameters<EventStore['readStream']>) => (reads.push(args[0]), target.readStream(...args));
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const reading = new Organizations(counted, new OrganizationStateCache(), createPlanCatalogue());
    const { revision } = await reading.load('acme');
    reads.length = 0;

    const cached = await reading.loadAsOf('acme', revision ?? -1n);
    expect(reads).toEqual([]);
    expect(cached.exists && cached.name).toBe('Acme');

    // Another writer (with a cache of its own) added a member past what this one folded: it reads.
    const added = await organizations.handle('acme', addMember('ada@example.com'), context);
    const loaded = await reading.loadAsOf('acme', added.revision);
    expect(reads).toEqual([stream]);
    expect(loaded.exists && loaded.members.toArray().map((member) => member.email)).toEqual(['ada@example.com']);
  });
});
