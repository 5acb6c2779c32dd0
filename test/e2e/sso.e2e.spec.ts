// Enterprise single sign-on against oauth2-mock-server playing the organization's provider:
// configuration, sign-on, just-in-time provisioning, enforcement, every failure ending at the seed's
// /login?error=sso, the attacks on state, audience, nonce, expiry, signature and e-mail, and a grep of
// every event, answer and log line for the client secret. Domains are verified first, through a real DNS
// server on loopback (test/support/dns-server.ts), and olivia links her existing account once.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { organizationStream, ssoSignOnStream, userStream } from '#domain';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { Browser, type Answer, type CallOptions } from '../support/browser.js';
import { httpClient, type HttpClient, type HttpResponse } from '../support/http-client.js';
import { IdentityProvider, onApp, viaProvider } from '../support/identity-provider.js';
import { DnsServer, dnsServerMissing } from '../support/dns-server.js';
import { SmtpInbox, unfolded, type ReceivedMail } from '../support/smtp-inbox.js';
import { proveSsoDomain } from '../support/sso-domains.js';
import { startApp } from '../support/start-app.js';

const clientSecret = `idp-secret-${randomBytes(16).toString('hex')}`;
const password = 'correct-horse-battery-9';
// Letters and digits only: openid-client form-encodes the client id in its Basic credentials (RFC 6749
// 2.3.1, so '-' becomes %2D) and oauth2-mock-server puts the credentials into aud without decoding them.
const clientId = 'chorusAcme';
const ssoFailed = '/login?error=sso';

let idp: IdentityProvider;
let dns: DnsServer;
let inbox: SmtpInbox;
let app: AuthApp;
let api: HttpClient;
let acme: string;
let oliviaId: string;
/** Every answer of the app in this file, for the secret grep. */
const answers: { headers: Headers; text: string }[] = [];

class RecordingBrowser extends Browser {
  override async request(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const answer = await super.request(method, path, options);
    answers.push(answer);
    return answer;
  }
}

const browser = (): Browser => new RecordingBrowser(app.baseUrl);

function recording(client: HttpClient): HttpClient {
  const keep = async (response: Promise<HttpResponse>): Promise<HttpResponse> => {
    const answer = await response;
    answers.push(answer);
    return answer;
  };
  return {
    request: (method, path, options) => keep(client.request(method, path, options)),
    get: (path, options) => keep(client.get(path, options)),
    post: (path, json, options) => keep(client.post(path, json, options)),
    put: (path, json, options) => keep(client.put(path, json, options)),
    delete: (path, options) => keep(client.delete(path, options)),
  };
}

const settings = (overrides: Record<string, unknown> = {}) => ({
  issuer: idp.issuer,
  clientId,
  clientSecret,
  domains: ['acme.example'],
  ...overrides,
});

async function enterpriseOrganization(name: string, owner: { userId: string; email: string }): Promise<string> {
  const id = await app.createOrganization(name, owner);
  expect((await api.post(`/organizations/${id}/plan`, { line: 'chorus', plan: 'enterprise' })).status).toBe(200);
  return id;
}

async function signOn(
  start: string,
  email: string,
  claims: Record<string, unknown> = {},
  signingOn: Browser = browser(),
) {
  idp.signsIn(email, claims);
  const { answer, callback } = await viaProvider(signingOn, start);
  return { browser: signingOn, answer, callback };
}

const verifyDomain = (organizationId: string, domain: string): Promise<void> =>
  proveSsoDomain(api, dns, organizationId, domain);

async function events(stream: string) {
  const read = await app.store.readStream(stream);
  return read.found ? read.events : [];
}

const lastFailure = async (organizationId: string) => (await events(ssoSignOnStream(organizationId))).at(-1)?.data;

const missing = dnsServerMissing();
if (missing !== undefined) throw new Error(missing);

beforeAll(async () => {
  dns = await DnsServer.start(['acme.example']);
  idp = await IdentityProvider.start();
  inbox = await SmtpInbox.start();
  app = await startAuthApp({ SMTP_URL: inbox.url, DNS_SERVERS: dns.address });
  api = recording(
    httpClient(app.baseUrl, {
      apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write', 'audit:read']),
    }),
  );
  oliviaId = await app.createUser({ email: 'olivia@acme.example', password });
  acme = await enterpriseOrganization('Acme', { userId: oliviaId, email: 'olivia@acme.example' });
});
afterAll(async () => {
  await app.close();
  await idp.stop();
  await inbox.close();
  await dns.stop();
});

describe('PUT /organizations/:id/sso', () => {
  it('refuses an issuer whose discovery fails (422 SSO_DISCOVERY_FAILED) and records nothing', async () => {
    const before = (await events(organizationStream(acme))).length;
    const answer = await api.put(`/organizations/${acme}/sso`, settings({ issuer: 'http://127.0.0.1:9/nothing-here' }));
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: 'SSO_DISCOVERY_FAILED', issuer: 'http://127.0.0.1:9/nothing-here' });
    expect(await events(organizationStream(acme))).toHaveLength(before);
  });

  it('refuses an organization without an enterprise plan (409 ENTERPRISE_PLAN_REQUIRED)', async () => {
    const teams = await app.createOrganization('Teams only', { userId: oliviaId, email: 'olivia@acme.example' });
    const answer = await api.put(`/organizations/${teams}/sso`, settings({ domains: ['teams.example'] }));
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'ENTERPRISE_PLAN_REQUIRED', feature: 'sso' });
  });

  it('is for owners: an admin is refused (403, requires owner); the owner configures it from the console', async () => {
    const adminId = await app.createUser({ email: 'adam@acme.example', password });
    expect(
      (await api.post(`/organizations/${acme}/members`, { email: 'adam@acme.example', role: 'admin' })).status,
    ).toBe(201);
    const admin = await app.signedIn('adam@acme.example', password);
    const refused = await admin.request('PUT', `/organizations/${acme}/sso`, { json: settings() });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', requires: 'owner' });
    expect((await api.delete(`/organizations/${acme}/members/${adminId}`)).status).toBe(200);

    const owner = await app.signedIn('olivia@acme.example', password);
    const configured = await owner.request('PUT', `/organizations/${acme}/sso`, {
      json: settings({ domains: ['ACME.example'] }),
    });
    expect(configured.status).toBe(200);
    expect(configured.body).toEqual({ id: acme, revision: expect.any(Number), position: expect.any(Number) });
    expect(configured.headers.get('chorus-consistency')).toBe('committed');
    const [recorded, pending] = (await events(organizationStream(acme))).slice(-2);
    expect(pending).toMatchObject({
      type: 'SsoDomainPending',
      data: { domain: 'acme.example', token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/) },
    });
    expect(recorded).toMatchObject({
      type: 'SsoConfigured',
      data: { issuer: idp.issuer, clientId, domains: ['acme.example'], enforce: false },
    });
    expect((recorded?.data as { clientSecret: string }).clientSecret).toMatch(/^v1\.derived\./);
    expect(recorded?.metadata).toMatchObject({ actor: `user:${oliviaId}`, commandType: 'ConfigureSso' });
    const view = await api.get(`/organizations/${acme}?minPosition=${String(configured.body.position)}`);
    expect(view.body.sso).toEqual({
      available: true,
      settings: {
        protocol: 'oidc',
        issuer: idp.issuer,
        clientId,
        domains: ['acme.example'],
        enforce: false,
        trustProviderMfa: false,
        domainStates: [expect.objectContaining({ domain: 'acme.example', status: 'pending' })],
      },
    });
    await verifyDomain(acme, 'acme.example');
    // olivia's account was made with a password: she links it to acme's SSO once, signed in.
    idp.signsIn('olivia@acme.example');
    expect((await viaProvider(owner, `/auth/sso/${acme}?intent=link`)).answer.location).toBe('/app');
  });

  it('keeps the secret when a change leaves it out, and records nothing for the same settings', async () => {
    const before = (await events(organizationStream(acme))).length;
    const { clientSecret: _left, ...withoutSecret } = settings();
    expect((await api.put(`/organizations/${acme}/sso`, withoutSecret)).status).toBe(200);
    expect(await events(organizationStream(acme))).toHaveLength(before);
  });

  it('lets a domain sign in through one organization only (409 SSO_DOMAIN_TAKEN), on every node', async () => {
    const other = await enterpriseOrganization('Other', { userId: oliviaId, email: 'olivia@acme.example' });
    const answer = await api.put(
      `/organizations/${other}/sso`,
      settings({ domains: ['other.example', 'acme.example'] }),
    );
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'SSO_DOMAIN_TAKEN', domain: 'acme.example' });
    expect((await events(organizationStream(other))).some((event) => event.type === 'SsoConfigured')).toBe(false);
  });

  it('validates the request: unknown fields, a domain that is no e-mail domain', async () => {
    expect((await api.put(`/organizations/${acme}/sso`, { ...settings(), extra: 1 })).body).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect((await api.put(`/organizations/${acme}/sso`, settings({ domains: ['localhost'] }))).body).toMatchObject({
      code: 'INVALID_HOSTNAME',
    });
  });
});

describe('GET /auth/sso/:orgId and the callback', () => {
  it('signs a member in and lands in the console, with PKCE (S256), state and nonce', async () => {
    const started = await browser().open(`/auth/sso/${acme}`);
    const authorize = new URL(started.location ?? '');
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${idp.issuer}/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: `${app.config.publicUrl}/auth/sso/callback`,
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const stateCookie = started.setCookies.find((cookie) => cookie.name === 'chorus_sso_state');
    expect(stateCookie?.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/', 'max-age': '600' });

    const { browser: signedOn, answer } = await signOn(`/auth/sso/${acme}`, 'Olivia@ACME.example');
    expect(answer.status).toBe(302);
    expect(answer.location).toBe('/app');
    expect((await signedOn.get('/session')).body).toMatchObject({ user: { id: oliviaId } });
    const signedIn = (await events(userStream(oliviaId))).filter((event) => event.type === 'SignedIn').at(-1);
    expect(signedIn?.data).toMatchObject({ method: 'sso' });
    expect(signedIn?.metadata).toMatchObject({
      ssoOrganizationId: acme,
      ssoIssuer: idp.issuer,
      ssoSubject: 'idp-Olivia@ACME.example',
    });
  });

  it('goes to the saved redirect when there was one (a path on this origin only)', async () => {
    expect((await signOn(`/auth/sso/${acme}?redirect=%2Fapp%2Faccount`, 'olivia@acme.example')).answer.location).toBe(
      '/app/account',
    );
    expect((await signOn(`/auth/sso/${acme}?redirect=%2F%2Fevil.example`, 'olivia@acme.example')).answer.location).toBe(
      '/app',
    );
  });

  it('adds a person of the domain who is not a member yet as a member (just in time), audited like any MemberAdded', async () => {
    const { browser: signedOn, answer } = await signOn(`/auth/sso/${acme}`, 'nina@acme.example');
    expect(answer.location).toBe('/app');
    const added = (await events(organizationStream(acme))).find(
      (event) => event.type === 'MemberAdded' && (event.data as { email: string }).email === 'nina@acme.example',
    );
    expect(added?.data).toMatchObject({ role: 'member', chorusUser: false });
    expect(added?.metadata).toMatchObject({
      actor: `sso:${acme}`,
      commandType: 'AddMember',
      ssoSubject: 'idp-nina@acme.example',
      ssoIssuer: idp.issuer,
    });
    const session = await signedOn.get('/session');
    expect(session.body.user).toMatchObject({ email: 'nina@acme.example' });
    expect(session.body.organizations).toEqual([expect.objectContaining({ id: acme, role: 'member' })]);
    // Registered without a password: she cannot sign in with one.
    const onPage = browser();
    await onPage.open('/login');
    expect((await onPage.post('/login', { username: 'nina@acme.example', password })).body).toMatchObject({
      status: 401,
      code: 'INVALID_CREDENTIALS',
    });
  });

  it('adds an existing account of the domain under its own id once its owner linked it (refused before)', async () => {
    const pauloId = await app.createUser({ email: 'paulo@acme.example', password });
    expect((await signOn(`/auth/sso/${acme}`, 'paulo@acme.example')).answer.location).toBe(ssoFailed);
    expect(await lastFailure(acme)).toMatchObject({ reason: 'account-not-linked', email: 'paulo@acme.example' });
    const paulo = await app.signedIn('paulo@acme.example', password);
    expect((await signOn(`/auth/sso/${acme}?intent=link`, 'paulo@acme.example', {}, paulo)).answer.location).toBe(
      '/app',
    );
    const { browser: signedOn } = await signOn(`/auth/sso/${acme}`, 'paulo@acme.example');
    expect((await signedOn.get('/session')).body.user).toMatchObject({ id: pauloId });
  });

  it('refuses a new person when the users limit is reached: /login?error=sso, no member added, the reason audited, the owners told', async () => {
    const view = await api.get(`/organizations/${acme}`);
    expect((await api.put(`/organizations/${acme}/limits`, { users: view.body.usage.users })).status).toBe(200);
    try {
      const before = (await events(organizationStream(acme))).length;
      const { browser: refused, answer } = await signOn(`/auth/sso/${acme}`, 'late@acme.example');
      expect(answer.location).toBe(ssoFailed);
      expect(refused.cookie('chorus_session')).toBeUndefined();
      // Only the owners' once-a-day notice (docs/directory.md, Joining by verified domain): no member.
      expect((await events(organizationStream(acme))).slice(before).map((event) => event.type)).toEqual([
        'AutomaticJoinRefused',
      ]);
      expect(await lastFailure(acme)).toMatchObject({ reason: 'users-limit', email: 'late@acme.example' });
      // A member still signs in.
      expect((await signOn(`/auth/sso/${acme}`, 'olivia@acme.example')).answer.location).toBe('/app');
    } finally {
      await api.put(`/organizations/${acme}/limits`, { users: null });
    }
  });

  it("sends the provider's error to /login?error=sso, the reason in the audit trail and the log, not in the URL", async () => {
    idp.refuseNextAuthorization('access_denied');
    const { answer, callback } = await signOn(`/auth/sso/${acme}`, 'olivia@acme.example');
    expect(new URL(callback).searchParams.get('error')).toBe('access_denied');
    expect(answer.location).toBe(ssoFailed);
    expect(await lastFailure(acme)).toMatchObject({ reason: 'provider-error' });
    expect(app.logs.some((line) => line.reason === 'provider-error' && line.msg === 'SSO sign-on failed')).toBe(true);
  });

  it.each([
    ['an id_token for another client (aud)', { aud: 'some-other-client' }],
    ['a wrong nonce', { nonce: 'not-the-nonce-we-sent' }],
    ['an expired id_token', { exp: Math.floor(Date.now() / 1000) - 600, iat: Math.floor(Date.now() / 1000) - 4200 }],
    ['another issuer', { iss: 'http://127.0.0.1:1/evil' }],
  ])('refuses %s (token-refused)', async (_attack, claims) => {
    const { browser: refused, answer } = await signOn(`/auth/sso/${acme}`, 'olivia@acme.example', claims);
    expect(answer.location).toBe(ssoFailed);
    expect(refused.cookie('chorus_session')).toBeUndefined();
    expect(await lastFailure(acme)).toMatchObject({ reason: 'token-refused' });
  });

  it("refuses an id_token signed by a key that is not in the issuer's JWKS, though it carries the issuer's key id", async () => {
    idp.forgeNextIdToken();
    const { answer } = await signOn(`/auth/sso/${acme}`, 'olivia@acme.example');
    expect(answer.location).toBe(ssoFailed);
    expect(await lastFailure(acme)).toMatchObject({ reason: 'token-refused' });
  });

  it.each([
    ['an unverified e-mail address', 'olivia@acme.example', { email_verified: false }, 'email-unverified'],
    ['email_verified as the string "true"', 'olivia@acme.example', { email_verified: 'true' }, 'email-unverified'],
    ['no e-mail address', 'olivia@acme.example', { email: undefined }, 'email-unverified'],
    ['an address of another domain', 'olivia@gmail.example', {}, 'foreign-domain'],
    ['an address of a subdomain', 'olivia@eu.acme.example', {}, 'foreign-domain'],
  ])('refuses %s', async (_case, email, claims, reason) => {
    const { answer } = await signOn(`/auth/sso/${acme}`, email, claims);
    expect(answer.location).toBe(ssoFailed);
    expect(await lastFailure(acme)).toMatchObject({ reason });
  });

  it("refuses a state replayed, swapped with another sign-on's, or brought by another browser", async () => {
    idp.signsIn('olivia@acme.example');
    // Replayed: the callback that signed in, again in the same browser (its cookie is spent).
    const first = browser();
    const { answer, callback } = await viaProvider(first, `/auth/sso/${acme}`);
    expect(answer.location).toBe('/app');
    expect((await first.open(onApp(callback))).location).toBe(ssoFailed);
    // Another browser with a stolen callback URL (an attacker's login CSRF): no cookie of that sign-on.
    const attacker = browser();
    const stolen = await viaProvider(attacker, `/auth/sso/${acme}`);
    void stolen;
    const victim = browser();
    await victim.open(`/auth/sso/${acme}`);
    const started = await browser().open(`/auth/sso/${acme}`);
    const authorized = await fetch(started.location ?? '', { redirect: 'manual' });
    const stateRefusals = () => app.logs.filter((line) => line.reason === 'state').length;
    const refusedBefore = stateRefusals();
    const swapped = await victim.open(onApp(authorized.headers.get('location') ?? ''));
    expect(swapped.location).toBe(ssoFailed);
    // Refused for its state, before anything is asked of the provider (PKCE would refuse it there too).
    expect(stateRefusals()).toBe(refusedBefore + 1);
    expect(victim.cookie('chorus_session')).toBeUndefined();
    // A state that was never sent, and no state at all.
    const tampered = new URL(callback);
    tampered.searchParams.set('state', 'not-a-state-we-sent');
    const third = browser();
    await third.open(`/auth/sso/${acme}`);
    expect((await third.open(onApp(tampered.href))).location).toBe(ssoFailed);
    expect((await browser().open('/auth/sso/callback?code=made-up')).location).toBe(ssoFailed);
    expect(app.logs.some((line) => line.reason === 'state')).toBe(true);
  });

  it('sends an organization without SSO, and one that does not exist, to /login?error=sso', async () => {
    const plain = await app.createOrganization('No SSO', { userId: oliviaId, email: 'olivia@acme.example' });
    expect((await browser().open(`/auth/sso/${plain}`)).location).toBe(ssoFailed);
    expect((await browser().open('/auth/sso/no-such-organization')).location).toBe(ssoFailed);
    expect((await browser().open('/auth/sso/NOT%20AN%20ID')).location).toBe(ssoFailed);
    expect(await lastFailure(plain)).toMatchObject({ reason: 'not-configured' });
    expect(await events(ssoSignOnStream('no-such-organization'))).toEqual([]);
  });
});

describe('GET /auth/sso?email=', () => {
  it("starts the sign-on of the organization whose SSO domains hold the address's domain", async () => {
    const answer = await browser().open('/auth/sso?email=ann%40Acme.Example&redirect=%2Fapp%2Faccount');
    expect(answer.location).toBe(`/auth/sso/${acme}?redirect=%2Fapp%2Faccount`);
    expect((await signOn('/auth/sso?email=olivia%40acme.example', 'olivia@acme.example')).answer.location).toBe('/app');
  });

  it.each([['ann@unknown.example'], ['not-an-address'], ['']])('sends %j to /login?error=sso', async (email) => {
    expect((await browser().open(`/auth/sso?email=${encodeURIComponent(email)}`)).location).toBe(ssoFailed);
  });
});

describe('enforce', () => {
  beforeAll(async () => {
    expect((await api.put(`/organizations/${acme}/sso`, settings({ enforce: true }))).status).toBe(200);
  });
  afterAll(async () => {
    await api.put(`/organizations/${acme}/sso`, settings({ enforce: false }));
  });

  it('refuses password sign-in for the domain with the usual failure, by address or username; other domains sign in', async () => {
    // Enforcement is for acme's members.
    await app.createUser({ email: 'uma@acme.example', username: 'uma', password });
    expect(
      (await api.post(`/organizations/${acme}/members`, { email: 'uma@acme.example', role: 'member' })).status,
    ).toBe(201);
    await app.createUser({ email: 'zoe@elsewhere.example', password });
    const loginPage = browser();
    await loginPage.open('/login');
    const usual = await loginPage.post('/login', { username: 'zoe@elsewhere.example', password: 'wrong-password-1' });
    expect(usual.body).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    for (const username of ['olivia@acme.example', 'OLIVIA@acme.example', 'uma']) {
      const onPage = browser();
      await onPage.open('/login');
      const refused = await onPage.post('/login', { username, password });
      expect(refused.status).toBe(401);
      expect({ ...refused.body, correlationId: undefined }).toEqual({ ...usual.body, correlationId: undefined });
    }
    expect((await app.signedIn('zoe@elsewhere.example', password)).cookie('chorus_session')).toBeDefined();
    // SSO itself still signs them in.
    expect((await signOn(`/auth/sso/${acme}`, 'olivia@acme.example')).answer.location).toBe('/app');
  });

  it('sends no password reset mail to an address of the domain (the answer is the same)', async () => {
    const onPage = browser();
    await onPage.open('/forgot');
    const enforced = await onPage.post('/forgot', { email: 'olivia@acme.example' });
    const other = await onPage.post('/forgot', { email: 'zoe@elsewhere.example' });
    expect(enforced.status).toBe(202);
    expect(enforced.text).toBe(other.text);
    const deadline = Date.now() + 10_000;
    while (
      !app.logs.some(
        (line) => line.msg === 'password reset not sent: the address signs in through enforced single sign-on',
      ) &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    while (!inbox.received.some((mail) => mail.to.includes('zoe@elsewhere.example')) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(inbox.received.some((mail) => mail.to.includes('zoe@elsewhere.example'))).toBe(true);
    // Olivia owns Acme and hears of other things; no reset link reaches her.
    expect(
      inbox.received.some((mail) => mail.to.includes('olivia@acme.example') && unfolded(mail).includes('/reset/')),
    ).toBe(false);
  });
  it('has an invitee of the domain join through single sign-on: the invitation sets no password', async () => {
    expect(
      (await api.post(`/organizations/${acme}/members`, { email: 'ivy@acme.example', role: 'member' })).status,
    ).toBe(201);
    const deadline = Date.now() + 10_000;
    while (!inbox.received.some((mail) => mail.to.includes('ivy@acme.example')) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const mail = inbox.received.find((received) => received.to.includes('ivy@acme.example'));
    const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(unfolded(mail as ReceivedMail))?.[1] ?? '';
    const page = browser();
    await page.open(`/invite/${token}`);

    expect((await page.get(`/invitations/${token}`)).body).toMatchObject({
      email: 'ivy@acme.example',
      organizationName: 'Acme',
      singleSignOn: `/auth/sso/${acme}?redirect=%2Fapp`,
    });
    const refused = await page.post('/invitations/accept', { token, password });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'SSO_REQUIRED' });
    expect(refused.headers.get('set-cookie') ?? '').not.toContain('chorus_session=');
    // Through the provider, the invitee is the member invited.
    expect((await signOn(`/auth/sso/${acme}`, 'ivy@acme.example')).answer.location).toBe('/app');
  });
});

describe('DELETE /organizations/:id/sso', () => {
  it('turns SSO off (SsoDisabled); sign-on then fails, and the domain may go to another organization', async () => {
    const other = await enterpriseOrganization('Successor', { userId: oliviaId, email: 'olivia@acme.example' });
    expect((await api.delete(`/organizations/${acme}/sso`)).status).toBe(200);
    expect((await events(organizationStream(acme))).at(-1)?.type).toBe('SsoDisabled');
    expect((await browser().open(`/auth/sso/${acme}`)).location).toBe(ssoFailed);
    expect((await browser().open('/auth/sso?email=olivia%40acme.example')).location).toBe(ssoFailed);
    // A minute after acme's claim was recorded (by the store's clock, which the identity clock trails here).
    app.clock.advance(Date.now() - app.clock.now().getTime() + 61_000);
    expect((await api.put(`/organizations/${other}/sso`, settings())).status).toBe(200);
    expect((await browser().open('/auth/sso?email=olivia%40acme.example')).location).toBe(ssoFailed);
    await verifyDomain(other, 'acme.example');
    expect((await browser().open('/auth/sso?email=olivia%40acme.example')).location).toBe(`/auth/sso/${other}`);
    // And back: acme cannot take it while the successor holds it.
    expect((await api.put(`/organizations/${acme}/sso`, settings())).body).toMatchObject({ code: 'SSO_DOMAIN_TAKEN' });
  });
});

describe('the client secret', () => {
  it('is in no event, no answer and no log line of this whole run', async () => {
    const stored = await app.store.readAll();
    expect(stored.some((event) => event.type === 'SsoConfigured')).toBe(true);
    const everything = [
      ...stored.map((event) => JSON.stringify({ data: event.data, metadata: event.metadata })),
      ...answers.map((answer) => `${[...answer.headers].join('\n')}\n${answer.text}`),
      ...app.logs.map((line) => JSON.stringify(line)),
    ];
    expect(everything.length).toBeGreaterThan(100);
    expect(everything.filter((text) => text.includes(clientSecret))).toEqual([]);
    // Nor its base64 or URL-encoded forms.
    for (const encoded of [Buffer.from(clientSecret).toString('base64'), encodeURIComponent(clientSecret)]) {
      expect(everything.filter((text) => text.includes(encoded))).toEqual([]);
    }
  });
});

describe('in production', () => {
  it('refuses an http:// issuer, even on a loopback address (400 VALIDATION_FAILED)', async () => {
    const production = await startApp({
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      PUBLIC_URL: 'https://chorus.example',
      SSO_SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    });
    try {
      const operator = httpClient(production.baseUrl, {
        apiKey: await createApiKey(production.app, ['organizations:write']),
      });
      const created = await operator.post('/organizations', { name: 'Production' });
      await operator.post(`/organizations/${created.body.id}/plan`, { line: 'classic', plan: 'enterprise' });
      const answer = await operator.put(
        `/organizations/${created.body.id}/sso`,
        settings({ domains: ['prod.example'] }),
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ pointer: '#/issuer' }] });
    } finally {
      await production.close();
    }
  });
});
