// First run (SEED_DEMO): the server creates a demo organization and its owner on an empty store and
// prints, once, how to sign in; the printed password works.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DemoSeed } from '#api';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';

let app: AuthApp;
const printed: string[] = [];

beforeAll(async () => {
  const log = jest.spyOn(console, 'log').mockImplementation((...lines: unknown[]) => {
    printed.push(lines.join(' '));
  });
  try {
    app = await startAuthApp({ SEED_DEMO: 'true', PRODUCT_NAME: 'Chorus' });
  } finally {
    log.mockRestore();
  }
});
afterAll(async () => {
  await app.close();
});

describe('the demo seed', () => {
  it('prints the sign-in URL, the owner and a generated password, which signs in as the owner of the demo organization', async () => {
    const output = printed.join('\n');
    expect(output).toContain(`${app.config.publicUrl}/login`);
    expect(output).toContain('owner@demo.chorus.localhost');
    const password = /password: (\S+)/.exec(output)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(16);

    const browser = app.browser();
    await browser.open('/login');
    expect((await browser.post('/login', { username: 'owner@demo.chorus.localhost', password })).status).toBe(204);
    const session = await browser.get('/session');
    expect(session.body).toMatchObject({ organizations: [{ id: 'demo', name: 'Demo Organization', role: 'owner' }] });
    const organization = await browser.get('/organizations/demo');
    expect(organization.status).toBe(200);
    expect(organization.body).toMatchObject({ chorus: true, chorusDetails: { plan: 'teams' } });
    expect(organization.body.sites).toHaveLength(2);
  });

  it('does nothing on a store that already holds events, so the password is printed only once', async () => {
    const before = await app.store.headPosition();
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await app.app.get(DemoSeed).onApplicationBootstrap();
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
    expect(await app.store.headPosition()).toBe(before);
  });
});
