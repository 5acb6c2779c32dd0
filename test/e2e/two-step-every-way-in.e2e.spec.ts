// Every way in meets the second step (docs/api.md, Two-step sign-in): Google (oauth2-mock-server playing
// Google) and an organization's SSO (oauth2-mock-server playing its provider) open a half-open session when the
// person has a factor or an organization of theirs requires one, exactly as a password does. An organization
// may take its own provider's MFA for the second step of sign-ons through it; other organizations' requirements
// still hold. Attack: the mailbox alone (Google links by verified address) or the provider alone must not be
// enough to pass an account's second factor.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import { READ_MODELS, type ReadModels } from '#read-models';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { DnsServer, dnsServerMissing } from '../support/dns-server.js';
import { GoogleMock } from '../support/google-mock.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { IdentityProvider, viaProvider } from '../support/identity-provider.js';

const password = 'correct horse battery staple';
const clientId = 'chorusAcme';
const clientSecret = 'idp-secret-every-way-in';

let google: GoogleMock;
let idp: IdentityProvider;
let dns: DnsServer;
let app: AuthApp;
let api: HttpClient;

const missing = dnsServerMissing();
if (missing !== undefined) throw new Error(missing);

beforeAll(async () => {
  google = await GoogleMock.start();
  idp = await IdentityProvider.start();
  dns = await DnsServer.start(['acme.example']);
  app = await startAuthApp({ ...google.settings, DNS_SERVERS: dns.address, LOG_LEVEL: 'silent' });
  api = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write']) });
}, 60_000);

afterAll(async () => {
  await app.close();
  await google.stop();
  await idp.stop();
  await dns.stop();
});

const codeNow = (secret: string): Promise<string> =>
  generate({ secret, epoch: Math.floor(app.clock.now().getTime() / 1000) });

/**
 * Sets up an authenticator app on a signed-in browser (confirming with the password when the account has one); answers
 * its secret.
 */
async function setUpApp(browser: Browser, confirm: { password?: string } = {}): Promise<string> {
  const started = await browser.post('/account/two-step/authenticator-app');
  expect(started.status).toBe(200);
  const secret = started.body.secret as string;
  const confirmed = await browser.request('PUT', '/account/two-step/authenticator-app', {
    json: { setup: started.body.setup, code: await codeNow(secret), ...confirm },
  });
  expect(confirmed.status).toBe(200);
  return secret;
}

/** Sets the organization's requirement and waits for this node's read model, which sign-ins ask. */
async function requireTwoStep(organizationId: string, required = true): Promise<void> {
  const set = await api.put(`/organizations/${organizationId}/two-step-sign-in`, { required });
  expect(set.status).toBe(200);
  await app.app.get<ReadModels>(READ_MODELS).waitForPosition(BigInt(set.body.position), 5_000);
}

/** A browser that is half open after its sign-in: signed out everywhere but the second step's calls. */
async function expectHalfOpen(browser: Browser, awaiting: 'second-step' | 'enrolment'): Promise<void> {
  expect((await browser.get('/session')).status).toBe(401);
  expect((await browser.open('/app')).location).toBe('/login/verify?redirect=%2Fapp');
  expect((await browser.get('/session/second-step')).body).toMatchObject({ awaiting });
}

describe('Google sign-in', () => {
  let adaId: string;
  let secret: string;

  beforeAll(async () => {
    adaId = await app.createUser({ email: 'ada@engines.example', password });
    await app.createOrganization('Engines', { userId: adaId, email: 'ada@engines.example' });
    secret = await setUpApp(await app.signedIn('ada@engines.example', password), { password });
  });

  it('opens only a half-open session for an account with a factor: the mailbox alone signs no one in', async () => {
    const browser = app.browser();
    const done = await google.signIn(
      browser,
      { sub: 'google-ada', email: 'ada@engines.example', email_verified: true },
      '/auth/go/?redirect=%2Fapp%2Faccount',
    );
    expect(done.location).toBe('/login/verify?redirect=%2Fapp%2Faccount');
    await expectHalfOpen(browser, 'second-step');
    // The second step then opens the full session, a Google one.
    app.clock.advance(31_000);
    expect((await browser.post('/session/second-step/code', { code: await codeNow(secret) })).status).toBe(204);
    expect((await browser.get('/session')).body).toMatchObject({ user: { id: adaId } });
  });

  it('asks a member of an organization that requires two-step sign-in to set up a factor first', async () => {
    const bobId = await app.createUser({ email: 'bob@strict.example', password });
    const strict = await app.createOrganization('Strict', { userId: bobId, email: 'bob@strict.example' });
    await requireTwoStep(strict);
    const browser = app.browser();
    expect(
      (await google.signIn(browser, { sub: 'google-bob', email: 'bob@strict.example', email_verified: true })).location,
    ).toBe('/login/verify?redirect=%2F');
    await expectHalfOpen(browser, 'enrolment');
  });

  it('still opens a full session for an account with no factor in no requiring organization', async () => {
    const carlId = await app.createUser({ email: 'carl@plain.example', password });
    await app.createOrganization('Plain', { userId: carlId, email: 'carl@plain.example' });
    const browser = app.browser();
    expect(
      (await google.signIn(browser, { sub: 'google-carl', email: 'carl@plain.example', email_verified: true }))
        .location,
    ).toBe('/');
    expect((await browser.get('/session')).status).toBe(200);
  });
});

describe('single sign-on', () => {
  let acme: string;
  let oliviaId: string;

  const signOn = async (email: string, start = `/auth/sso/${acme}`) => {
    idp.signsIn(email);
    const browser = app.browser();
    const { answer } = await viaProvider(browser, start);
    return { browser, answer };
  };

  const configure = async (overrides: Record<string, unknown> = {}) => {
    const saved = await api.put(`/organizations/${acme}/sso`, {
      issuer: idp.issuer,
      clientId,
      clientSecret,
      domains: ['acme.example'],
      ...overrides,
    });
    expect(saved.status).toBe(200);
  };

  beforeAll(async () => {
    oliviaId = await app.createUser({ email: 'olivia@owners.example', password });
    acme = await app.createOrganization('Acme', { userId: oliviaId, email: 'olivia@owners.example' });
    expect((await api.post(`/organizations/${acme}/plan`, { line: 'chorus', plan: 'enterprise' })).status).toBe(200);
    await configure();
    const view = await api.get(`/organizations/${acme}`);
    const record = (view.body.sso.settings.domainStates as { record: { name: string; value: string } }[])[0]?.record;
    await dns.serve({ [record?.name ?? '']: [record?.value ?? ''] });
    expect((await api.post(`/organizations/${acme}/sso/domains/acme.example/verify`, {})).body).toMatchObject({
      status: 'verified',
    });
  });

  it('opens only a half-open session for an account with a factor, and the code then completes it', async () => {
    const first = await signOn('nina@acme.example');
    expect(first.answer.location).toBe('/app');
    const secret = await setUpApp(first.browser);
    const { browser, answer } = await signOn('nina@acme.example', `/auth/sso/${acme}?redirect=%2Fapp%2Faccount`);
    expect(answer.location).toBe('/login/verify?redirect=%2Fapp%2Faccount');
    await expectHalfOpen(browser, 'second-step');
    app.clock.advance(31_000);
    expect((await browser.post('/session/second-step/code', { code: await codeNow(secret) })).status).toBe(204);
    expect((await browser.get('/session')).body.user).toMatchObject({ email: 'nina@acme.example' });
  });

  it("asks for a factor to be set up when the organization requires two-step sign-in, unless it trusts its provider's MFA", async () => {
    await requireTwoStep(acme);
    const refused = await signOn('omar@acme.example');
    expect(refused.answer.location).toBe('/login/verify?redirect=%2Fapp');
    await expectHalfOpen(refused.browser, 'enrolment');

    await configure({ trustProviderMfa: true });
    const trusted = await signOn('omar@acme.example');
    expect(trusted.answer.location).toBe('/app');
    expect((await trusted.browser.get('/session')).status).toBe(200);
    // The provider's MFA also stands in for a factor of the account.
    expect((await signOn('nina@acme.example')).answer.location).toBe('/app');
    await requireTwoStep(acme, false);
  });

  it("keeps another organization's requirement: a trusted provider signs no one past it", async () => {
    await configure({ trustProviderMfa: true });
    const { answer } = await signOn('pia@acme.example');
    expect(answer.location).toBe('/app');
    const piaId = (await app.identity.directory.findUserIdByEmail('pia@acme.example')) as string;
    const strict = await app.createOrganization('Strict elsewhere', { userId: piaId, email: 'pia@acme.example' });
    await requireTwoStep(strict);
    const again = await signOn('pia@acme.example');
    expect(again.answer.location).toBe('/login/verify?redirect=%2Fapp');
    await expectHalfOpen(again.browser, 'enrolment');
  });

  it('records the setting in the history in words, and answers it with the settings', async () => {
    await configure({ trustProviderMfa: true });
    expect((await api.get(`/organizations/${acme}`)).body.sso.settings).toMatchObject({ trustProviderMfa: true });
    await configure({ trustProviderMfa: false });
    expect((await api.get(`/organizations/${acme}`)).body.sso.settings).toMatchObject({ trustProviderMfa: false });
  });

  it('resets at once the factors of an account the organization answers for: made by its SSO, or of its verified domain', async () => {
    await configure({ trustProviderMfa: false });
    const owner = await app.signedIn('olivia@owners.example', password);
    const ninaId = (await app.identity.directory.findUserIdByEmail('nina@acme.example')) as string;
    const byOwner = await owner.delete(`/organizations/${acme}/two-step-sign-in/members/${ninaId}`);
    expect(byOwner.body).toEqual({ outcome: 'reset' });
    const nina = await app.identity.users.load(ninaId);
    expect(nina.state.status === 'registered' && nina.state.secondFactors.authenticatorApp).toBeNull();

    // A password account of the verified domain, with a factor of its own, added as a member.
    const veraId = await app.createUser({ email: 'vera@acme.example', password });
    await setUpApp(await app.signedIn('vera@acme.example', password), { password });
    expect(
      (await api.post(`/organizations/${acme}/members`, { email: 'vera@acme.example', role: 'member' })).status,
    ).toBe(201);
    expect((await owner.delete(`/organizations/${acme}/two-step-sign-in/members/${veraId}`)).body).toEqual({
      outcome: 'reset',
    });
    const events = await app.store.readStream(`user-${veraId}`);
    const reset = events.found ? events.events.find((event) => event.type === 'SecondFactorsReset') : undefined;
    expect(reset?.data).toMatchObject({ organizationId: acme, authority: 'account-of-organization' });
  });
});
