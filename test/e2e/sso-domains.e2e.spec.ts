// The SSO account-takeover attack, end to end: the owner of an enterprise organization (`evil`) lists
// another organization's domain, a public mail domain and its own, with a provider the attacker runs
// (oauth2-mock-server), which asserts whatever address it likes. Domains prove control through a TXT record
// served by a real DNS server on loopback (dnsmasq, test/support/dns-server.ts): until then they do nothing.
// An existing account is signed into only when this organization's SSO created it or its owner linked it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { organizationStream, ssoSignOnStream } from '#domain';
import { ssoDomainStreamPrefix } from '#api';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { DnsServer, dnsServerMissing } from '../support/dns-server.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { IdentityProvider, viaProvider } from '../support/identity-provider.js';
import { SmtpInbox } from '../support/smtp-inbox.js';

const missing = dnsServerMissing();
if (missing !== undefined) console.warn(missing);
const describeWithDns = missing === undefined ? describe : describe.skip;

const password = 'correct-horse-battery-9';
const clientId = 'chorusEvil';
const clientSecret = `evil-secret-${randomBytes(8).toString('hex')}`;
const ssoFailed = '/login?error=sso';
const graceHours = 1;

let dns: DnsServer;
let attackerIdp: IdentityProvider;
let inbox: SmtpInbox;
let app: AuthApp;
let api: HttpClient;
let evil: string;
let mallory: Browser;

type DomainState = {
  domain: string;
  status: string;
  since: string | null;
  record: { name: string; type: string; value: string } | null;
};

const settings = (domains: string[], enforce = false) => ({
  issuer: attackerIdp.issuer,
  clientId,
  clientSecret,
  domains,
  enforce,
});

async function domainStates(organizationId: string): Promise<DomainState[]> {
  const answer = await api.get(`/organizations/${organizationId}`);
  return (answer.body.sso.settings?.domainStates ?? []) as DomainState[];
}

const tokenOf = async (domain: string): Promise<string> =>
  (await domainStates(evil)).find((state) => state.domain === domain)?.record?.value ?? '';

async function signOn(start: string, email: string, on: Browser = app.browser()) {
  attackerIdp.signsIn(email);
  const { answer } = await viaProvider(on, start);
  return { answer, browser: on };
}

async function events(stream: string) {
  const read = await app.store.readStream(stream);
  return read.found ? read.events : [];
}

async function lastFailure(organizationId: string) {
  const read = await app.store.readStream(ssoSignOnStream(organizationId));
  return read.found ? read.events.at(-1)?.data : undefined;
}

/** "Check now", by evil's owner, or by an operator (an API key) once her password no longer signs her in. */
const checkNow = (domain: string, as: Pick<HttpClient, 'post'> = mallory) =>
  as.post(`/organizations/${evil}/sso/domains/${domain}/verify`, {});

async function resetMailTo(address: string): Promise<boolean> {
  const page = app.browser();
  await page.open('/forgot');
  expect((await page.post('/forgot', { email: address })).status).toBe(202);
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline) {
    if (inbox.received.some((mail) => mail.to.includes(address))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

beforeAll(async () => {
  if (missing !== undefined) return;
  dns = await DnsServer.start(['demo.example', 'evil.example', 'later.example']);
  attackerIdp = await IdentityProvider.start();
  inbox = await SmtpInbox.start();
  app = await startAuthApp({
    SMTP_URL: inbox.url,
    DNS_SERVERS: dns.address,
    SSO_DOMAIN_GRACE_HOURS: String(graceHours),
    SSO_DOMAIN_CHECK_SECONDS: '1',
  });
  api = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write']) });
  const doraId = await app.createUser({ email: 'dora@demo.example', password });
  await app.createOrganization('Demo', { userId: doraId, email: 'dora@demo.example' });
  const malloryId = await app.createUser({ email: 'mallory@evil.example', password });
  evil = await app.createOrganization('Evil', { userId: malloryId, email: 'mallory@evil.example' });
  expect((await api.post(`/organizations/${evil}/plan`, { line: 'chorus', plan: 'enterprise' })).status).toBe(200);
  mallory = await app.signedIn('mallory@evil.example', password);
}, 60_000);

afterAll(async () => {
  if (missing !== undefined) return;
  await app.close();
  await attackerIdp.stop();
  await inbox.close();
  await dns.stop();
});

describeWithDns('an organization claiming domains it does not control', () => {
  it('refuses a public mail domain (400 SSO_DOMAIN_PUBLIC) and records nothing', async () => {
    const answer = await mallory.request('PUT', `/organizations/${evil}/sso`, {
      json: settings(['evil.example', 'GMail.com']),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'SSO_DOMAIN_PUBLIC', domain: 'gmail.com' });
    const read = await app.store.readStream(organizationStream(evil));
    expect(read.found && read.events.some((event) => event.type.startsWith('Sso'))).toBe(false);
  });

  it("saves another organization's domain as pending, with a token, and it signs no one in", async () => {
    const saved = await mallory.request('PUT', `/organizations/${evil}/sso`, {
      json: settings(['demo.example', 'evil.example'], true),
    });
    expect(saved.status).toBe(200);
    const states = await domainStates(evil);
    expect(states).toEqual([
      {
        domain: 'demo.example',
        status: 'pending',
        since: expect.any(String),
        recordMissingSince: null,
        record: {
          name: '_chorus-verification.demo.example',
          type: 'TXT',
          value: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
        },
        joinRole: null,
      },
      {
        domain: 'evil.example',
        status: 'pending',
        since: expect.any(String),
        recordMissingSince: null,
        record: expect.objectContaining({ type: 'TXT' }),
        joinRole: null,
      },
    ]);
    expect(states[0]?.record?.value).not.toBe(states[1]?.record?.value);
    // demo's DNS holds no record of evil's: checking changes nothing.
    expect((await checkNow('demo.example')).body).toEqual({
      domain: 'demo.example',
      lookup: 'absent',
      status: 'pending',
    });
    // Neither demo's owner nor a newcomer of the domain is signed in, and nobody is registered.
    for (const email of ['dora@demo.example', 'newbie@demo.example']) {
      const { answer, browser } = await signOn(`/auth/sso/${evil}`, email);
      expect(answer.location).toBe(ssoFailed);
      expect(browser.cookie('chorus_session')).toBeUndefined();
      expect(await lastFailure(evil)).toMatchObject({ reason: 'foreign-domain', email });
    }
    expect(await app.identity.directory.findUserIdByEmail('newbie@demo.example')).toBeUndefined();
    // No routing by address, and no claim that would keep demo from its own domain.
    expect((await app.browser().open('/auth/sso?email=anyone%40demo.example')).location).toBe(ssoFailed);
    expect((await app.store.readStream(`${ssoDomainStreamPrefix}demo.example`)).found).toBe(false);
  });

  it('leaves password sign-in and reset mail of a pending domain alone, though evil enforces SSO', async () => {
    expect((await app.signedIn('dora@demo.example', password)).cookie('chorus_session')).toBeDefined();
    expect(await resetMailTo('dora@demo.example')).toBe(true);
  });
});

describeWithDns('a domain the organization does verify', () => {
  let victorId: string;

  beforeAll(async () => {
    victorId = await app.createUser({ email: 'victor@evil.example', password });
    await app.createUser({ email: 'zed@evil.example', password });
  });

  it('is verified once its TXT record holds the token, and takes the domain’s claim', async () => {
    await dns.serve({ '_chorus-verification.evil.example': ['some-other-value', await tokenOf('evil.example')] });
    expect((await checkNow('evil.example')).body).toEqual({
      domain: 'evil.example',
      lookup: 'found',
      status: 'verified',
    });
    const claim = await app.store.readStream(`${ssoDomainStreamPrefix}evil.example`);
    expect(claim.found && claim.events.at(-1)?.data).toMatchObject({ domain: 'evil.example', organizationId: evil });
    expect((await app.browser().open('/auth/sso?email=ann%40evil.example')).location).toBe(`/auth/sso/${evil}`);
  });

  it("refuses someone else's existing account of that domain (account-not-linked), and signs in one its SSO created", async () => {
    const refused = await signOn(`/auth/sso/${evil}`, 'victor@evil.example');
    expect(refused.answer.location).toBe(ssoFailed);
    expect(refused.browser.cookie('chorus_session')).toBeUndefined();
    expect(await lastFailure(evil)).toMatchObject({ reason: 'account-not-linked', email: 'victor@evil.example' });
    // A newcomer is registered by evil's SSO, and signs in through it again later.
    expect((await signOn(`/auth/sso/${evil}`, 'nina@evil.example')).answer.location).toBe('/app');
    expect((await signOn(`/auth/sso/${evil}`, 'nina@evil.example')).answer.location).toBe('/app');
  });

  it('signs the account in once its owner linked it while signed in, the provider asserting the same address', async () => {
    const victor = await app.signedIn('victor@evil.example', password);
    // The provider asserting another address does not link the signed-in account.
    expect((await signOn(`/auth/sso/${evil}?intent=link`, 'nina@evil.example', victor)).answer.location).toBe(
      ssoFailed,
    );
    expect(await lastFailure(evil)).toMatchObject({ reason: 'link-refused' });
    // Without a session there is nothing to link.
    expect((await app.browser().open(`/auth/sso/${evil}?intent=link`)).location).toBe(ssoFailed);
    expect((await signOn(`/auth/sso/${evil}?intent=link`, 'victor@evil.example', victor)).answer.location).toBe('/app');
    const linked = (await events(`user-${victorId}`)).find((event) => event.type === 'SsoAccountLinked');
    expect(linked?.data).toMatchObject({ organizationId: evil, email: 'victor@evil.example' });
    expect((await signOn(`/auth/sso/${evil}`, 'victor@evil.example')).answer.location).toBe('/app');
  });

  it("enforces SSO on the organization's members of the domain only: a non-member keeps password and reset mail", async () => {
    const loginPage = app.browser();
    await loginPage.open('/login');
    // victor is a member now (the link added him): refused as a wrong password would be.
    expect((await loginPage.post('/login', { username: 'victor@evil.example', password })).body).toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
    expect(await resetMailTo('victor@evil.example')).toBe(false);
    expect((await app.signedIn('zed@evil.example', password)).cookie('chorus_session')).toBeDefined();
    expect(await resetMailTo('zed@evil.example')).toBe(true);
  });

  it('stays verified while its record is missing for less than the grace period, then is unverified and signs no one in', async () => {
    await dns.serve({});
    expect((await checkNow('evil.example')).body).toEqual({
      domain: 'evil.example',
      lookup: 'absent',
      status: 'verified',
    });
    const state = (await domainStates(evil)).find((candidate) => candidate.domain === 'evil.example');
    expect(state).toMatchObject({ status: 'verified', recordMissingSince: expect.any(String) });
    expect((await signOn(`/auth/sso/${evil}`, 'nina@evil.example')).answer.location).toBe('/app');
    app.clock.advance(graceHours * 3_600_000 + 1_000);
    // Her session has gone idle meanwhile, and evil enforces SSO on its members: an operator asks.
    expect((await checkNow('evil.example', api)).body).toEqual({
      domain: 'evil.example',
      lookup: 'absent',
      status: 'unverified',
    });
    expect((await signOn(`/auth/sso/${evil}`, 'nina@evil.example')).answer.location).toBe(ssoFailed);
    expect((await app.browser().open('/auth/sso?email=nina%40evil.example')).location).toBe(ssoFailed);
    const types = (await events(organizationStream(evil))).map((event) => event.type);
    expect(types.filter((type) => type.startsWith('SsoDomain')).slice(-3)).toEqual([
      'SsoDomainVerified',
      'SsoDomainRecordMissing',
      'SsoDomainUnverified',
    ]);
  });

  it('is checked by the timer too: a published record verifies a pending domain without anyone asking', async () => {
    expect(
      (await api.put(`/organizations/${evil}/sso`, settings(['evil.example', 'later.example'], true))).status,
    ).toBe(200);
    await dns.serve({ '_chorus-verification.later.example': [await tokenOf('later.example')] });
    const deadline = Date.now() + 15_000;
    let status = 'pending';
    while (status !== 'verified' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await domainStates(evil)).find((state) => state.domain === 'later.example')?.status ?? '';
    }
    expect(status).toBe('verified');
  }, 30_000);
});
