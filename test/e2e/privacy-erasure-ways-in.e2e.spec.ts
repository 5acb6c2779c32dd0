// Erasure meets every way in (docs/privacy.md): once a person is erased, nothing that was theirs lets anyone back in
// as them. Google (oauth2-mock-server playing Google) finds no account by their subject or their address; a reset link
// mailed before is void and no new one is mailed; a sign-in waiting for its second step cannot finish; their
// organization's single sign-on (oauth2-mock-server playing its provider; SAML shares the same admission) makes a new
// person of the same address. The erased id never signs in again: its stream ends with PersonalDataErased.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import { newCommandContext } from '#application';
import { userStream } from '#domain';
import { PersonalDataErasure } from '#api';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { DnsServer, dnsServerMissing } from '../support/dns-server.js';
import { GoogleMock } from '../support/google-mock.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { IdentityProvider, viaProvider } from '../support/identity-provider.js';
import { resetTokenIn, SmtpInbox } from '../support/smtp-inbox.js';
import { proveSsoDomain } from '../support/sso-domains.js';

const password = 'correct horse battery staple';
const clientId = 'chorusAcme';

let google: GoogleMock;
let idp: IdentityProvider;
let dns: DnsServer;
let inbox: SmtpInbox;
let app: AuthApp;
let api: HttpClient;
let engines: string;

const missing = dnsServerMissing();
if (missing !== undefined) throw new Error(missing);

beforeAll(async () => {
  google = await GoogleMock.start();
  idp = await IdentityProvider.start();
  dns = await DnsServer.start(['acme.example']);
  inbox = await SmtpInbox.start();
  app = await startAuthApp({
    ...google.settings,
    SMTP_URL: inbox.url,
    DNS_SERVERS: dns.address,
    PUBLIC_URL: 'https://chorus.example',
    LOG_LEVEL: 'silent',
  });
  api = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write']) });
  const ownerId = await app.createUser({ email: 'olivia@engines.example', password });
  engines = await app.createOrganization('Engines', { userId: ownerId, email: 'olivia@engines.example' });
}, 60_000);

afterAll(async () => {
  await app.close();
  await google.stop();
  await idp.stop();
  await inbox.close();
  await dns.stop();
});

/** A registered person who is a member of Engines. */
async function member(email: string): Promise<string> {
  const userId = await app.createUser({ email, password });
  expect((await api.post(`/organizations/${engines}/members`, { email, role: 'member' })).status).toBe(201);
  return userId;
}

/** As `chorus user:erase` does it. */
const erase = (userId: string) => app.app.get(PersonalDataErasure).erase(userId, newCommandContext('cli'));

/** The erased id's own stream: nothing was written to it after the erasure. */
async function lastEventOf(userId: string): Promise<string | undefined> {
  const read = await app.store.readStream(userStream(userId));
  return read.found ? read.events.at(-1)?.type : undefined;
}

const codeNow = (secret: string): Promise<string> =>
  generate({ secret, epoch: Math.floor(app.clock.now().getTime() / 1000) });

describe('Google', () => {
  it('finds no one by the erased person’s subject or address; invited again, the address signs in as the new person', async () => {
    const adaId = await member('ada@engines.example');
    const adaAtGoogle = { sub: 'google-ada-erased', email: 'ada@engines.example', email_verified: true };
    expect((await google.signIn(app.browser(), adaAtGoogle)).location).toBe('/');

    const ada = await app.signedIn('ada@engines.example', password);
    expect((await ada.delete('/account', { json: { password } })).status).toBe(204);

    const after = app.browser();
    expect((await google.signIn(after, adaAtGoogle)).location).toBe('/login?error=account');
    expect(after.cookie('chorus_session')).toBeUndefined();
    expect(await lastEventOf(adaId)).toBe('PersonalDataErased');

    expect(
      (await api.post(`/organizations/${engines}/members`, { email: 'ada@engines.example', role: 'member' })).status,
    ).toBe(201);
    const again = app.browser();
    expect((await google.signIn(again, adaAtGoogle)).location).toBe('/');
    const session = (await again.get('/session')).body as { user: { id: string; email: string } };
    expect(session.user.email).toBe('ada@engines.example');
    expect(session.user.id).not.toBe(adaId);
    expect(await lastEventOf(adaId)).toBe('PersonalDataErased');
  });
});

describe('password reset', () => {
  it('voids a link mailed before the erasure, and mails the address no new one', async () => {
    const graceId = await member('grace@engines.example');
    const page = app.browser();
    await page.open('/forgot');
    expect((await page.post('/forgot', { email: 'grace@engines.example' })).status).toBe(202);
    const token = resetTokenIn(await inbox.mailTo('grace@engines.example', '/reset/'));
    expect((await page.post('/reset/validity', { token })).body).toEqual({ valid: true });

    await erase(graceId);

    expect((await page.post('/reset/validity', { token })).body).toEqual({ valid: false });
    const used = await page.post('/reset', { token, password: 'a brand new passphrase' });
    expect(used.body).toMatchObject({ status: 400, code: 'INVALID_TOKEN' });

    // Asked again: the answer is the usual one, and the request the route makes after answering, awaited here so that
    // a mail it sent would have arrived, mails nobody.
    const asked = inbox.received.length;
    expect((await page.post('/forgot', { email: 'grace@engines.example' })).status).toBe(202);
    await app.identity.passwordReset.request('grace@engines.example', newCommandContext('anonymous'));
    expect(inbox.received.slice(asked).filter((mail) => mail.to.includes('grace@engines.example'))).toEqual([]);
    for (const tried of [password, 'a brand new passphrase'])
      expect((await page.post('/login', { username: 'grace@engines.example', password: tried })).status).toBe(401);
    expect(await lastEventOf(graceId)).toBe('PersonalDataErased');
  });
});

describe('the second step', () => {
  it('cannot be finished for a sign-in that was waiting for it when its person was erased', async () => {
    const halId = await member('hal@engines.example');
    const signedIn = await app.signedIn('hal@engines.example', password);
    const started = await signedIn.post('/account/two-step/authenticator-app');
    const secret = started.body.secret as string;
    const setUp = { setup: started.body.setup, code: await codeNow(secret), password };
    expect((await signedIn.request('PUT', '/account/two-step/authenticator-app', { json: setUp })).status).toBe(200);

    const waiting = app.browser();
    await waiting.open('/login');
    expect((await waiting.post('/login', { username: 'hal@engines.example', password })).status).toBe(204);
    expect((await waiting.get('/session/second-step')).body).toMatchObject({ awaiting: 'second-step' });

    await erase(halId);

    app.clock.advance(31_000);
    const finished = await waiting.post('/session/second-step/code', { code: await codeNow(secret) });
    expect(finished.status).toBe(401);
    expect((await waiting.get('/session')).status).toBe(401);
    expect((await signedIn.get('/session')).status).toBe(401);
    expect(await lastEventOf(halId)).toBe('PersonalDataErased');
  });
});

describe('single sign-on', () => {
  let acme: string;

  beforeAll(async () => {
    const ownerId = await app.createUser({ email: 'owner@owners.example', password });
    acme = await app.createOrganization('Acme', { userId: ownerId, email: 'owner@owners.example' });
    expect((await api.post(`/organizations/${acme}/plan`, { line: 'chorus', plan: 'enterprise' })).status).toBe(200);
    const saved = await api.put(`/organizations/${acme}/sso`, {
      issuer: idp.issuer,
      clientId,
      clientSecret: 'idp-secret-erasure',
      domains: ['acme.example'],
    });
    expect(saved.status).toBe(200);
    await proveSsoDomain(api, dns, acme, 'acme.example');
  });

  const signOn = async (email: string) => {
    idp.signsIn(email);
    const browser = app.browser();
    const { answer } = await viaProvider(browser, `/auth/sso/${acme}`);
    return { browser, answer };
  };

  const memberIds = async (): Promise<string[]> =>
    ((await api.get(`/organizations/${acme}`)).body as { members: { userId: string }[] }).members.map(
      (member) => member.userId,
    );

  it('makes a new person of the same address and subject: the erased one is not signed in, linked or a member again', async () => {
    const first = await signOn('nina@acme.example');
    expect(first.answer.location).toBe('/app');
    const ninaId = ((await first.browser.get('/session')).body as { user: { id: string } }).user.id;
    expect(await memberIds()).toContain(ninaId);

    await erase(ninaId);
    expect((await first.browser.get('/session')).status).toBe(401);

    const again = await signOn('nina@acme.example');
    expect(again.answer.location).toBe('/app');
    const newId = ((await again.browser.get('/session')).body as { user: { id: string } }).user.id;
    expect(newId).not.toBe(ninaId);
    const members = await memberIds();
    expect(members).toContain(newId);
    expect(members).not.toContain(ninaId);
    expect(await lastEventOf(ninaId)).toBe('PersonalDataErased');
  });
});
