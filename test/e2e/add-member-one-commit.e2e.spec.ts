// Adding a member of a new address is one command: its id's reservation and MemberAdded are one append, one
// commit of the store, and the person's key was made ahead (no commit of the key store of its own).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommandBus } from '@nestjs/cqrs';
import { newCommandContext } from '#application';
import { AddMemberCommand, ChangeOrganizationCommand, CreateOrganizationCommand } from '#api';
import { startApp, type RunningApp } from '../support/start-app.js';

let running: RunningApp;
let commands: CommandBus;
const context = newCommandContext('cli', { cliCommand: 'test' });
const add = (email: string) =>
  commands.execute(new AddMemberCommand('acme', { email, role: 'member', invite: false }, context));

beforeAll(async () => {
  running = await startApp();
  commands = running.app.get(CommandBus);
  await commands.execute(new CreateOrganizationCommand({ id: 'acme', name: 'Acme' }, context));
  await commands.execute(
    new ChangeOrganizationCommand(
      'acme',
      { type: 'AssignPlan', data: { line: 'classic', plan: 'enterprise' } },
      context,
    ),
  );
});
afterAll(async () => {
  await running.close();
});

describe('adding a member of a new address', () => {
  it('is one commit of the store, reservation and membership together', async () => {
    await add('warm-up@example.com');
    const before = running.store.commitStats?.();

    const added = await add('ada@example.com');

    expect(running.store.commitStats?.()).toEqual({
      commits: (before?.commits ?? Number.NaN) + 1,
      writes: (before?.writes ?? Number.NaN) + 1,
    });
    const appended = (await running.store.readAll({ fromPosition: 0n })).filter(
      (event) => (event.data as { userId?: string }).userId === added.userId,
    );
    expect(appended.map((event) => [event.streamId.split('-')[0], event.type])).toEqual([
      ['identity', 'IdentifierReserved'],
      ['organization', 'MemberAdded'],
    ]);
    expect(appended[1]?.position).toBe((appended[0]?.position ?? 0n) + 1n);
  });

  it('is one commit also for an address that has an id already: the membership alone', async () => {
    const before = running.store.commitStats?.();

    await add('ada@example.com').catch(() => undefined);
    await commands.execute(
      new ChangeOrganizationCommand(
        'acme',
        { type: 'RemoveMember', data: { userId: (await add('bob@example.com')).userId } },
        context,
      ),
    );
    const again = await add('bob@example.com');

    expect(again.userId).toBeDefined();
    // bob's first add (reservation and membership), his removal, his second add (membership alone).
    expect(running.store.commitStats?.()?.commits).toBe((before?.commits ?? Number.NaN) + 3);
  });
});
