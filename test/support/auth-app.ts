// The real service for sign-in e2e tests (test/support's startApp) with the identity clock pinned
// to a ManualClock, and shortcuts to create users and organizations as the command line would.
import { CommandBus } from '@nestjs/cqrs';
import { newCommandContext } from '#application';
import { ManualClock, type Identity } from '#identity';
import { READ_MODELS, type ReadModels } from '#read-models';
import { AddMemberCommand, ChangeOrganizationCommand, CreateOrganizationCommand, IDENTITY, AppClock } from '#api';
import { Browser } from './browser.js';
import { startApp, type RunningApp } from './start-app.js';

export type AuthApp = RunningApp & {
  clock: ManualClock;
  identity: Identity;
  browser(): Browser;
  /** A browser that opened the login page and signed in with the form's call (POST /login answered 204). */
  signedIn(username: string, password: string): Promise<Browser>;
  createUser(user: { email: string; password?: string; username?: string }): Promise<string>;
  /**
   * A new organization on a Chorus plan (teams unless named) with the user as its owner; waits for the read model.
   */
  createOrganization(
    name: string,
    owner: { userId: string; email: string },
    plan?: 'teams' | 'enterprise',
  ): Promise<string>;
};

export async function startAuthApp(settings: Record<string, string> = {}): Promise<AuthApp> {
  const running = await startApp(settings);
  const clock = new ManualClock(new Date());
  running.app.get(AppClock).pin(clock);
  const identity = running.app.get<Identity>(IDENTITY);
  const cli = () => newCommandContext('cli');
  return {
    ...running,
    clock,
    identity,
    browser: () => new Browser(running.baseUrl),
    async signedIn(username, password) {
      const browser = new Browser(running.baseUrl);
      await browser.open('/login');
      const answer = await browser.post('/login', { username, password });
      if (answer.status !== 204)
        throw new Error(`POST /login as ${username} answered ${answer.status}: ${answer.text}`);
      return browser;
    },
    async createUser(user) {
      const { userId } = await identity.registration.register(user, cli());
      return userId;
    },
    async createOrganization(name, owner, plan = 'teams') {
      const commands = running.app.get(CommandBus);
      const { id } = await commands.execute(new CreateOrganizationCommand({ name }, cli()));
      await commands.execute(
        new ChangeOrganizationCommand(id, { type: 'AssignPlan', data: { line: 'chorus', plan } }, cli()),
      );
      await commands.execute(new ChangeOrganizationCommand(id, { type: 'EnableChorus', data: {} }, cli()));
      const added = await commands.execute(
        new AddMemberCommand(id, { email: owner.email, role: 'owner', userId: owner.userId }, cli()),
      );
      await running.app.get<ReadModels>(READ_MODELS).waitForPosition(added.position, 5_000);
      return id;
    },
  };
}
