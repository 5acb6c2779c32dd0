import { beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createPlanCatalogue, DomainError, organizationStream, type OrganizationCommand } from '#domain';
import { WrongExpectedRevisionError } from '#event-store';
import type { CommandContext } from './command-context.js';
import { MAX_DECISION_ATTEMPTS, OrganizationDecider } from './organization-decider.service.js';
import { OrganizationRepository } from './organization-repository.js';
import { OrganizationStateCache } from './organization-state-cache.js';
import { InMemoryEventStore } from './testing/in-memory-event-store.js';

const context: CommandContext = { actor: 'api-key:k1', correlationId: 'corr-1', causationId: 'corr-1', origin: { clientIp: '127.0.0.1' } };
const stream = organizationStream('acme');

let store: InMemoryEventStore;
let decider: OrganizationDecider;
let appendAttempts: number;

const addMember = (email: string): OrganizationCommand => ({ type: 'AddMember', data: { userId: email.split('@')[0] as string, email, role: 'member' } });

/** Another writer records a member just before our append, `times` times. */
function rivalAddsMembers(times: number): void {
  let rivals = 0;
  store.beforeAppend = () => {
    appendAttempts += 1;
    if (rivals >= times) return;
    rivals += 1;
    const userId = `rival-${rivals}`;
    const metadata = { actor: 'user:rival', correlationId: 'rival', causationId: 'rival' };
    store.appendNow(stream, [{ id: randomUUID(), type: 'MemberAdded', data: { userId, email: `${userId}@example.com`, role: 'member', chorusUser: false }, metadata }], 'any');
  };
}

beforeEach(async () => {
  store = new InMemoryEventStore();
  decider = new OrganizationDecider(new OrganizationRepository(store, new OrganizationStateCache()), createPlanCatalogue());
  await decider.handle('acme', { type: 'CreateOrganization', data: { id: 'acme', name: 'Acme' } }, context);
  await decider.handle('acme', { type: 'AssignPlan', data: { line: 'classic', plan: 'enterprise' } }, context);
  await decider.handle('acme', { type: 'ConfigureLimits', data: { users: 3 } }, context);
  appendAttempts = 0;
});

describe('OrganizationDecider', () => {
  it('appends the decided events at the expected revision, with the metadata of the command', async () => {
    const result = await decider.handle('acme', addMember('ada@example.com'), context);

    const recorded = store.streams.get(stream)?.at(-1);
    expect(result).toEqual({ id: 'acme', revision: 3n, position: recorded?.position });
    expect(recorded).toMatchObject({
      type: 'MemberAdded',
      revision: 3n,
      metadata: { actor: 'api-key:k1', correlationId: 'corr-1', causationId: 'corr-1', commandType: 'AddMember', clientIp: '127.0.0.1' },
    });
  });

  it('re-reads and decides again after each lost race, and succeeds while the decision holds', async () => {
    rivalAddsMembers(2);

    const result = await decider.handle('acme', addMember('ada@example.com'), context);

    expect(appendAttempts).toBe(3);
    expect(result.revision).toBe(5n);
    expect(store.streams.get(stream)?.slice(-3).map((event) => (event.data as { email: string }).email)).toEqual([
      'rival-1@example.com',
      'rival-2@example.com',
      'ada@example.com',
    ]);
  });

  it('answers the new decision when a lost race changed it (the limit is now reached)', async () => {
    rivalAddsMembers(3);

    const refusal = decider.handle('acme', addMember('ada@example.com'), context);

    await expect(refusal).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED', details: { resource: 'users', limit: 3, count: 3 } });
    expect(store.streams.get(stream)?.filter((event) => event.type === 'MemberAdded')).toHaveLength(3);
  });

  it(`gives up with the conflict after ${MAX_DECISION_ATTEMPTS} lost races in a row`, async () => {
    await decider.handle('acme', { type: 'ConfigureLimits', data: { users: 0 } }, context);
    appendAttempts = 0;
    rivalAddsMembers(Number.POSITIVE_INFINITY);

    await expect(decider.handle('acme', addMember('ada@example.com'), context)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(appendAttempts).toBe(MAX_DECISION_ATTEMPTS);
  });

  it('does not retry a refusal: nothing is appended', async () => {
    const before = store.streams.get(stream)?.length;

    await expect(decider.handle('acme', { type: 'RemoveMember', data: { userId: 'nobody' } }, context)).rejects.toBeInstanceOf(DomainError);
    expect(appendAttempts).toBe(0);
    expect(store.streams.get(stream)?.length).toBe(before);
  });

  it('appends nothing and answers the current revision when the decision is no change', async () => {
    const result = await decider.handle('acme', { type: 'ConfigureLimits', data: { users: 3 } }, context);

    expect(appendAttempts).toBe(0);
    expect(result).toEqual({ id: 'acme', revision: 2n, position: store.streams.get(stream)?.at(-1)?.position });
  });
});
