// First run (SEED_DEMO): the server creates a demo organization and its owner on an empty store; the
// start-up banner shows, once, how to sign in, and the shown password works.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommandBus } from '@nestjs/cqrs';
import { startAuthApp, type AuthApp } from '../../apps/api/src/auth/testing/auth-app.js';
import { DemoSeed } from '../../apps/api/src/demo/demo-seed.service.js';
import { PINO } from '../../apps/api/src/logging/pino.js';
import { startUpBanner } from '../../apps/api/src/start-up/start-up-banner.js';

let app: AuthApp;

beforeAll(async () => {
  app = await startAuthApp({ SEED_DEMO: 'true', PRODUCT_NAME: 'Chorus' });
});
afterAll(async () => {
  await app.close();
});

describe('the demo seed', () => {
  it('gives the banner the sign-in URL, the owner and a generated password, which signs in as the owner of the demo organization', async () => {
    const banner = await startUpBanner(app.app, app.config);
    expect(banner).toContain(`${app.config.publicUrl}/login`);
    expect(banner).toContain('owner@demo.chorus.localhost');
    const password = /password: +(\S+)/.exec(banner)?.[1] ?? '';
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

  it('does nothing on a store that already holds events, and then names the demo owner without a password', async () => {
    const before = await app.store.headPosition();
    // A second start on the same store.
    const seed = new DemoSeed(app.config, 'server', app.store, app.identity, app.app.get(CommandBus), app.app.get(PINO));

    await seed.onApplicationBootstrap();

    expect(await app.store.headPosition()).toBe(before);
    expect(await seed.signIn()).toEqual({ kind: 'existing', email: 'owner@demo.chorus.localhost' });
  });
});
