// `chorus user:create` (docs/api.md, Command line) on the same DATA_DIR as a running server: the user it
// creates signs in there, as a member of the organization given.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { ChangeOrganizationCommand, CreateOrganizationCommand } from '#api';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { runUserCreate } from '../support/run-user-create.js';

let app: AuthApp;
let organizationId: string;

beforeAll(async () => {
  app = await startAuthApp();
  const correlationId = randomUUID();
  const context = { actor: 'cli', correlationId, causationId: correlationId, origin: {} };
  ({ id: organizationId } = await app.app
    .get(CommandBus)
    .execute(new CreateOrganizationCommand({ name: 'Difference Engines' }, context)));
  await app.app
    .get(CommandBus)
    .execute(
      new ChangeOrganizationCommand(
        organizationId,
        { type: 'AssignPlan', data: { line: 'chorus', plan: 'teams' } },
        context,
      ),
    );
  await app.app
    .get(CommandBus)
    .execute(new ChangeOrganizationCommand(organizationId, { type: 'EnableChorus', data: {} }, context));
});
afterAll(async () => {
  await app.close();
});
afterEach(() => {
  process.exitCode = undefined;
});

/** Runs `chorus <args>` in this process; answers what it printed and its exit code. */
const chorus = (...args: string[]) => runUserCreate(app.dataDir, args);

describe('chorus user:create', () => {
  it('creates a user who signs in by e-mail or username, as a member of the organization', async () => {
    const created = await chorus(
      'user:create',
      '--email',
      'Charles@Example.com',
      '--password',
      'a long enough passphrase',
      '--username',
      'charles',
      '--org',
      organizationId,
      '--role',
      'admin',
      '--json',
    );
    expect(created.stderr).toBe('');
    expect(created.exitCode).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      userId: expect.any(String),
      email: 'charles@example.com',
      organizationId,
      role: 'admin',
    });

    for (const username of ['charles@example.com', 'charles']) {
      const browser = app.browser();
      await browser.open('/login');
      expect((await browser.post('/login', { username, password: 'a long enough passphrase' })).status).toBe(204);
      expect((await browser.get('/session')).body).toMatchObject({
        organizations: [{ id: organizationId, role: 'admin' }],
      });
    }
  });

  it('creates nobody when the organization refuses the member', async () => {
    const refused = await chorus(
      'user:create',
      '--email',
      'not-added@example.com',
      '--password',
      'a long enough passphrase',
      '--org',
      'no-such-org',
    );
    expect(refused.stderr).toContain('NOT_FOUND');
    expect(refused.exitCode).not.toBe(0);
    expect(await app.identity.directory.findUserIdByEmail('not-added@example.com')).toBeUndefined();
  });

  it('refuses a common password, a taken address and --role without --org', async () => {
    const weak = await chorus('user:create', '--email', 'weak@example.com', '--password', 'password1');
    expect(weak.exitCode).toBe(2);
    expect(weak.stderr).toContain('VALIDATION_FAILED');
    await chorus('user:create', '--email', 'taken@example.com', '--password', 'a long enough passphrase');
    const taken = await chorus('user:create', '--email', 'TAKEN@example.com', '--password', 'a long enough passphrase');
    expect(taken.stderr).toContain('DUPLICATE');
    expect(taken.exitCode).not.toBe(0);
    expect(
      (
        await chorus(
          'user:create',
          '--email',
          'r@example.com',
          '--password',
          'a long enough passphrase',
          '--role',
          'admin',
        )
      ).stderr,
    ).toContain('--role needs --org');
  });
});
