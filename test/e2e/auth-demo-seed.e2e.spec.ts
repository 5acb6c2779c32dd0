// First run (SEED_DEMO): the server creates a demo organization and its owner on an empty store; the
// start-up banner shows, once, how to sign in, and the shown password works. A restart shows no password.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryBus } from '@nestjs/cqrs';
import { DemoSeed, GetOrganizationStateQuery, startUpBanner } from '#api';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';

let app: AuthApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-demo-seed-'));
  app = await startAuthApp({ SEED_DEMO: 'true', PRODUCT_NAME: 'Chorus', DATA_DIR: dataDir });
});
afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
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
    expect(organization.body).toMatchObject({ chorus: true, chorusDetails: { plan: 'enterprise' } });
    expect(organization.body.sites).toHaveLength(2);
  });

  it('starts below every limit with every page usable: a site, a user and both kinds of domain can be added, and single sign-on set', async () => {
    const state = await app.app.get(QueryBus).execute(new GetOrganizationStateQuery('demo', { kind: 'latest' }));
    expect(state.view.canAdd).toEqual({
      users: true,
      contentSections: true,
      qualityAssuranceDomains: true,
      webAnalyticsDomains: true,
    });
    expect(state.view.usage).toMatchObject({ users: 1, contentSections: 2 });
    // The plan's own limits: nothing set for the demo that an add-on or another plan would not raise.
    expect(state.view.limits.effective).toMatchObject({
      users: 1000,
      contentSections: 1000,
      qualityAssuranceDomains: null,
      webAnalyticsDomains: 1000,
    });
    expect(state.view.limits.setByOperator).toEqual({
      users: false,
      contentSections: false,
      qualityAssuranceDomains: false,
      webAnalyticsDomains: false,
    });
    expect(state.view.chorusFeatures).toMatchObject({ qualityAssurance: true, webAnalytics: true });
    expect(state.view.sso.available).toBe(true);
  });

  it('does nothing on a store that already holds events', async () => {
    const before = await app.store.headPosition();
    await app.app.get(DemoSeed).onApplicationBootstrap();
    expect(await app.store.headPosition()).toBe(before);
  });

  it('after a restart on the same store names the demo owner and shows no password', async () => {
    await app.close();
    app = await startAuthApp({ SEED_DEMO: 'true', PRODUCT_NAME: 'Chorus', DATA_DIR: dataDir });

    expect(await app.app.get(DemoSeed).signIn()).toEqual({ kind: 'existing', email: 'owner@demo.chorus.localhost' });
    const banner = await startUpBanner(app.app, app.config);
    expect(banner).toContain('as the demo owner, owner@demo.chorus.localhost');
    expect(banner).not.toContain('password:');
  });
});
