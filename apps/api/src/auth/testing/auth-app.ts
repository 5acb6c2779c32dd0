// The real service for sign-in e2e tests (test/support's startApp) with the identity clock pinned
// to a ManualClock, and shortcuts to create users and organizations as the command line would.
import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { ManualClock, type Identity } from '#identity';
import { READ_MODELS, type ReadModels } from '#read-models';
import { startApp, type RunningApp } from '../../../../../test/support/start-app.js';
import type { CommandContext } from '../../organizations/command-context.js';
import { AddMemberCommand } from '../../organizations/commands/add-member.command.js';
import { AssignPlanCommand } from '../../organizations/commands/assign-plan.command.js';
import { CreateOrganizationCommand } from '../../organizations/commands/create-organization.command.js';
import { EnableChorusCommand } from '../../organizations/commands/enable-chorus.command.js';
import { IDENTITY, IdentityClock } from '../identity.provider.js';
import { Browser } from './browser.js';

export type AuthApp = RunningApp & {
  clock: ManualClock;
  identity: Identity;
  browser(): Browser;
  /** A browser that opened the login page and signed in with the form's call (POST /login answered 204). */
  signedIn(username: string, password: string): Promise<Browser>;
  createUser(user: { email: string; password?: string; username?: string }): Promise<string>;
  /** A new organization on the Chorus teams plan with the user as its owner; waits for the read model. */
  createOrganization(name: string, owner: { userId: string; email: string }): Promise<string>;
};

export async function startAuthApp(settings: Record<string, string> = {}): Promise<AuthApp> {
  const running = await startApp(settings);
  const clock = new ManualClock(new Date());
  running.app.get(IdentityClock).pin(clock);
  const identity = running.app.get<Identity>(IDENTITY);
  const cli = (): CommandContext => {
    const correlationId = randomUUID();
    return { actor: 'cli', correlationId, causationId: correlationId, origin: {} };
  };
  return {
    ...running,
    clock,
    identity,
    browser: () => new Browser(running.baseUrl),
    async signedIn(username, password) {
      const browser = new Browser(running.baseUrl);
      await browser.open('/login');
      const answer = await browser.post('/login', { username, password });
      if (answer.status !== 204) throw new Error(`POST /login as ${username} answered ${answer.status}: ${answer.text}`);
      return browser;
    },
    async createUser(user) {
      const { userId } = await identity.registration.register(user, { actor: 'cli', correlationId: randomUUID() });
      return userId;
    },
    async createOrganization(name, owner) {
      const commands = running.app.get(CommandBus);
      const { id } = await commands.execute(new CreateOrganizationCommand({ name }, cli()));
      await commands.execute(new AssignPlanCommand(id, { line: 'chorus', plan: 'teams' }, cli()));
      await commands.execute(new EnableChorusCommand(id, {}, cli()));
      const added = await commands.execute(new AddMemberCommand(id, { email: owner.email, role: 'owner', userId: owner.userId }, cli()));
      await running.app.get<ReadModels>(READ_MODELS).waitForPosition(added.position, 5_000);
      return id;
    },
  };
}
