// SAML 2.0 single sign-on per organization, on two nodes sharing one store behind one PUBLIC_URL: its configuration
// from metadata (a URL or pasted), the service provider's metadata, a sign-on started on one node and answered on the
// other, and the attacks on a SAML service provider: unsigned, another key, XML signature wrapping, a comment in the
// NameID, another SP's audience, the wrong recipient or destination, replay (across nodes, at once), expiry and skew,
// another organization's response or request, and a sign-on the provider started. Every failure ends at the seed's
// /login?error=sso with its reason in the organization's failure record; the way in meets the second step.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { organizationStream, samlRequestStream, ssoSignOnStream } from '#domain';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Answer, Browser } from '../support/browser.js';
import { DnsServer, dnsServerMissing } from '../support/dns-server.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { makeSamlKeys, SamlIdp, type SamlResponseOptions } from '../support/saml-idp.js';
import { proveSsoDomain } from '../support/sso-domains.js';

const password = 'correct-horse-battery-9';
const ssoFailed = '/login?error=sso';
// https, as in production: the request's cookie that binds it to its browser is SameSite=None, so Secure.
const publicUrl = 'https://chorus.example';
const sharedSecret = 'saml-e2e-session-secret-0123456789abcdef';

let dataDir: string;
let dns: DnsServer;
let idp: SamlIdp;
let globexIdp: SamlIdp;
let nodeA: AuthApp;
let nodeB: AuthApp;
let api: HttpClient;
let acme: string;
let globex: string;

const sp = (organizationId: string) => ({
  audience: `${publicUrl}/auth/saml/${organizationId}/metadata`,
  recipient: `${publicUrl}/auth/saml/${organizationId}/acs`,
});
const acsOf = (organizationId: string) => `/auth/saml/${organizationId}/acs`;

async function events(stream: string) {
  const read = await nodeA.store.readStream(stream);
  return read.found ? read.events : [];
}

type Failure = { reason: string; detail: string };
const lastFailure = async (organizationId: string) =>
  (await events(ssoSignOnStream(organizationId))).at(-1)?.data as Failure | undefined;

/** Starts on a node as a browser would, and answers as the provider: the response for that very request. */
async function started(
  node: AuthApp,
  organizationId: string,
  path = `/auth/sso/${organizationId}`,
  browser = node.browser(),
) {
  const start = await browser.open(path);
  expect(start.status).toBe(302);
  const redirect = SamlIdp.parseRedirect(start.location ?? '');
  return { browser, redirect, requestId: redirect.request.id, start };
}

/**
 * The identity provider's page POSTs from the browser given (its cookies: one PUBLIC_URL in front of both nodes), else
 * a fresh one.
 */
async function post(node: AuthApp, organizationId: string, samlResponse: string, from?: Browser): Promise<Answer> {
  const browser = node.browser();
  for (const [name, value] of from?.cookies ?? []) browser.cookies.set(name, value);
  const answer = await browser.request('POST', acsOf(organizationId), {
    form: { SAMLResponse: samlResponse, RelayState: '/' },
    xsrf: false,
  });
  for (const [name, value] of browser.cookies) from?.cookies.set(name, value);
  return answer;
}

async function signOn(
  email: string,
  options: Partial<SamlResponseOptions> = {},
  organizationId = acme,
  provider = idp,
) {
  const { browser, requestId } = await started(nodeA, organizationId);
  const response = provider.response({ ...sp(organizationId), inResponseTo: requestId, nameId: email, ...options });
  return { browser, answer: await post(nodeB, organizationId, response, browser), requestId, response };
}

async function expectRefused(answer: Answer, reason: string, organizationId = acme) {
  expect(answer.status).toBe(303);
  expect(answer.location).toBe(ssoFailed);
  expect(answer.setCookies.some((cookie) => cookie.name.endsWith('chorus_session') && cookie.value !== '')).toBe(false);
  expect(await lastFailure(organizationId)).toMatchObject({ reason });
  // Each hour keeps its first failures in full (the rest counted): the next one is another hour's.
  for (const node of [nodeA, nodeB]) node.clock.advance(3_600_000);
}

async function enterpriseOrganization(
  name: string,
  owner: { userId: string; email: string },
  domain: string,
  provider: SamlIdp,
): Promise<string> {
  const id = await nodeA.createOrganization(name, owner);
  expect((await api.post(`/organizations/${id}/plan`, { line: 'chorus', plan: 'enterprise' })).status).toBe(200);
  expect(
    (
      await api.put(`/organizations/${id}/sso`, {
        protocol: 'saml',
        metadataUrl: `${provider.url}/metadata`,
        domains: [domain],
      })
    ).status,
  ).toBe(200);
  return id;
}

const verifyDomain = (organizationId: string, domain: string): Promise<void> =>
  proveSsoDomain(api, dns, organizationId, domain);

const missing = dnsServerMissing();
if (missing !== undefined) throw new Error(missing);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-saml-'));
  dns = await DnsServer.start(['acme.example', 'globex.example']);
  idp = await SamlIdp.start();
  globexIdp = await SamlIdp.start();
  const shared = { DATA_DIR: dataDir, SESSION_SECRET: sharedSecret, DNS_SERVERS: dns.address, PUBLIC_URL: publicUrl };
  nodeA = await startAuthApp({ ...shared, PROJECTIONS: 'inline' });
  nodeB = await startAuthApp({ ...shared, PROJECTIONS: 'off' });
  api = httpClient(nodeA.baseUrl, {
    apiKey: await createApiKey(nodeA.app, ['organizations:read', 'organizations:write', 'audit:read']),
  });
  const oliviaId = await nodeA.createUser({ email: 'olivia@acme.example', password });
  acme = await enterpriseOrganization('Acme', { userId: oliviaId, email: 'olivia@acme.example' }, 'acme.example', idp);
  await verifyDomain(acme, 'acme.example');
  const gusId = await nodeA.createUser({ email: 'gus@globex.example', password });
  globex = await enterpriseOrganization(
    'Globex',
    { userId: gusId, email: 'gus@globex.example' },
    'globex.example',
    globexIdp,
  );
  await verifyDomain(globex, 'globex.example');
}, 120_000);

afterAll(async () => {
  for (const node of [nodeB, nodeA]) await node?.close();
  await idp?.close();
  await globexIdp?.close();
  await dns?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('PUT /organizations/:id/sso with protocol saml', () => {
  it('reads the metadata at its URL and records the provider; the view shows it, certificates by digest and expiry', async () => {
    const [configured] = (await events(organizationStream(acme))).filter((event) => event.type === 'SamlSsoConfigured');
    expect(configured?.data).toMatchObject({
      idpEntityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      metadataUrl: `${idp.url}/metadata`,
      certificates: [
        {
          certificate: idp.keys.certificateBase64,
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          notAfter: expect.any(String),
        },
      ],
      domains: ['acme.example'],
      enforce: false,
      allowIdpInitiated: false,
    });
    expect(idp.metadataRequests).toBeGreaterThan(0);
    const settings = (await api.get(`/organizations/${acme}`)).body.sso.settings;
    expect(settings).toMatchObject({
      protocol: 'saml',
      idpEntityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      allowIdpInitiated: false,
    });
    expect(settings.certificates).toEqual([
      { sha256: expect.stringMatching(/^[0-9a-f]{64}$/), notAfter: expect.any(String) },
    ]);
  });

  it('takes pasted metadata, and keeps the saved provider when a change gives none', async () => {
    const before = (await events(organizationStream(acme))).length;
    expect(
      (
        await api.put(`/organizations/${acme}/sso`, {
          protocol: 'saml',
          metadataXml: idp.metadataXml(),
          domains: ['acme.example'],
        })
      ).status,
    ).toBe(200);
    const changed = await api.put(`/organizations/${acme}/sso`, {
      protocol: 'saml',
      domains: ['acme.example'],
      allowIdpInitiated: true,
    });
    expect(changed.status).toBe(200);
    const latest = (await events(organizationStream(acme)))
      .slice(before)
      .filter((event) => event.type === 'SamlSsoConfigured');
    expect(
      latest.map((event) => (event.data as { allowIdpInitiated: boolean; metadataUrl: unknown }).allowIdpInitiated),
    ).toEqual([false, true]);
    expect(latest[1]?.data).toMatchObject({ idpEntityId: idp.entityId, ssoUrl: idp.ssoUrl });
    expect(
      (
        await api.put(`/organizations/${acme}/sso`, {
          protocol: 'saml',
          metadataUrl: `${idp.url}/metadata`,
          domains: ['acme.example'],
        })
      ).status,
    ).toBe(200);
  });

  it('refuses metadata it cannot use (422 SSO_METADATA_INVALID) and both forms at once (400), recording nothing', async () => {
    const before = (await events(organizationStream(acme))).length;
    const put = (body: Record<string, unknown>) =>
      api.put(`/organizations/${acme}/sso`, { protocol: 'saml', domains: ['acme.example'], ...body });
    const noCertificate = idp.metadataXml().replace(/<md:KeyDescriptor[\s\S]*?<\/md:KeyDescriptor>/, '');
    expect((await put({ metadataXml: noCertificate })).body).toMatchObject({
      code: 'SSO_METADATA_INVALID',
      detail: 'The identity provider names no signing certificate.',
    });
    expect((await put({ metadataXml: '<md:EntityDescriptor' })).body).toMatchObject({
      code: 'SSO_METADATA_INVALID',
      detail: 'The metadata is not well-formed XML.',
    });
    const entities = '<!DOCTYPE x [<!ENTITY a "aaaa">]>' + idp.metadataXml().replace(/^<\?xml[^>]*>/, '');
    expect((await put({ metadataXml: entities })).body).toMatchObject({ code: 'SSO_METADATA_INVALID' });
    expect((await put({ metadataUrl: `${idp.url}/nothing-here` })).status).toBe(422);
    const both = await put({ metadataUrl: `${idp.url}/metadata`, metadataXml: idp.metadataXml() });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await events(organizationStream(acme))).toHaveLength(before);
  });
});

describe('the service provider', () => {
  it('serves its metadata at its entity id, naming the ACS with the HTTP-POST binding', async () => {
    const answer = await nodeB.browser().get(`/auth/saml/${acme}/metadata`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    expect(answer.text).toContain(`entityID="${sp(acme).audience}"`);
    expect(answer.text).toContain(`Location="${sp(acme).recipient}"`);
    expect(answer.text).toContain('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
  });

  it('sends the browser to the provider with an AuthnRequest (HTTP-Redirect) and its RelayState, also from /auth/sso?email=', async () => {
    const { redirect } = await started(nodeA, acme, `/auth/sso/${acme}?redirect=%2Fapp%2Forgs`);
    expect(`${redirect.url.origin}${redirect.url.pathname}`).toBe(idp.ssoUrl);
    expect(redirect.request).toMatchObject({
      issuer: sp(acme).audience,
      destination: idp.ssoUrl,
      acsUrl: sp(acme).recipient,
      id: expect.stringMatching(/^_[0-9a-f]{40}$/),
    });
    expect(redirect.relayState).toBe('/app/orgs');
    expect((await events(samlRequestStream(redirect.request.id)))[0]).toMatchObject({
      type: 'SamlRequestStarted',
      data: { organizationId: acme, redirect: '/app/orgs' },
    });
    const byEmail = await nodeB.browser().open('/auth/sso?email=ann%40acme.example');
    expect(byEmail.location).toBe(`/auth/sso/${acme}`);
  });
});

describe('POST /auth/saml/:orgId/acs', () => {
  it('signs a person of the domain in on the other node, as a new member made just in time, and lands where asked (303)', async () => {
    const { browser, requestId } = await started(nodeA, acme, `/auth/sso/${acme}?redirect=%2Fapp%2Forgs`);
    const answer = await post(
      nodeB,
      acme,
      idp.response({ ...sp(acme), inResponseTo: requestId, nameId: 'ann@acme.example' }),
      browser,
    );
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/app/orgs');
    const session = await browser.get('/session');
    expect(session.status).toBe(200);
    expect(JSON.stringify(session.body)).toContain('ann@acme.example');
    const added = (await events(organizationStream(acme))).find(
      (event) => event.type === 'MemberAdded' && (event.data as { email?: string }).email !== 'olivia@acme.example',
    );
    expect(added?.metadata).toMatchObject({
      actor: `sso:${acme}`,
      ssoIssuer: idp.entityId,
      ssoSubject: 'ann@acme.example',
    });
    expect((await events(samlRequestStream(requestId))).map((event) => event.type)).toEqual([
      'SamlRequestStarted',
      'SamlRequestAnswered',
    ]);
  });

  it('takes the address from an email attribute when the NameID is not an address', async () => {
    const { answer } = await signOn('00u1abcd', {
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      attributes: { email: 'attr@acme.example' },
    });
    expect(answer.location).toBe('/app');
  });

  it('accepts a signed Response as well as a signed Assertion, and refuses neither (unsigned)', async () => {
    expect((await signOn('ann@acme.example', { sign: 'response' })).answer.location).toBe('/app');
    await expectRefused((await signOn('ann@acme.example', { sign: 'none' })).answer, 'response-refused');
  });

  it('refuses a response signed by another key', async () => {
    const other = await makeSamlKeys('not-the-provider');
    await expectRefused((await signOn('ann@acme.example', { signingKeys: other })).answer, 'response-refused');
  });

  it.each(['sibling', 'wrapped', 'extensions', 'object'] as const)(
    'refuses XML signature wrapping (%s): the unsigned copy never signs anyone in',
    async (variant) => {
      const { answer, browser } = await signOn('ann@acme.example', {
        attack: { kind: 'wrapping', nameId: 'olivia@acme.example', variant },
      });
      await expectRefused(answer, 'response-refused');
      expect((await browser.get('/session')).status).toBe(401);
    },
  );

  it('reads the whole NameID when a comment splits it: the signed address is not the victim’s', async () => {
    const { answer } = await signOn('olivia@acme.example.evil.test', {
      attack: { kind: 'comment-in-name-id', insertAfter: 'olivia@acme.example' },
    });
    await expectRefused(answer, 'foreign-domain');
    expect((await lastFailure(acme))?.detail).toContain('olivia@acme.example.evil.test');
  });

  it('refuses a NameID changed after signing', async () => {
    await expectRefused(
      (await signOn('ann@acme.example', { attack: { kind: 'tamper-name-id', nameId: 'olivia@acme.example' } })).answer,
      'response-refused',
    );
  });

  it("refuses another service provider's audience, another recipient and another destination", async () => {
    await expectRefused(
      (await signOn('ann@acme.example', { audience: sp(globex).audience })).answer,
      'response-refused',
    );
    await expectRefused(
      (await signOn('ann@acme.example', { recipient: sp(globex).recipient })).answer,
      'response-refused',
    );
    await expectRefused(
      (await signOn('ann@acme.example', { destination: `${publicUrl}/somewhere-else` })).answer,
      'response-refused',
    );
  });

  it('refuses an expired assertion, and one not yet valid beyond the 60 s skew (within it, accepts)', async () => {
    const now = Date.now();
    await expectRefused(
      (
        await signOn('ann@acme.example', {
          now: new Date(now - 600_000),
          notBefore: new Date(now - 600_000),
          notOnOrAfter: new Date(now - 120_000),
        })
      ).answer,
      'response-refused',
    );
    await expectRefused(
      (await signOn('ann@acme.example', { notBefore: new Date(now + 120_000) })).answer,
      'response-refused',
    );
    expect((await signOn('ann@acme.example', { notBefore: new Date(now + 30_000) })).answer.location).toBe('/app');
  });

  it('never accepts the same response twice, even posted to both nodes at once', async () => {
    const { requestId, browser } = await started(nodeA, acme);
    const response = idp.response({ ...sp(acme), inResponseTo: requestId, nameId: 'ann@acme.example' });
    const answers = await Promise.all([post(nodeA, acme, response, browser), post(nodeB, acme, response, browser)]);
    expect(answers.map((answer) => answer.location).sort()).toEqual(['/app', ssoFailed]);
    await expectRefused(await post(nodeA, acme, response, browser), 'response-refused');
  });

  it('binds the request to the browser that started it (SameSite=None): posted by another browser, it is refused', async () => {
    const { requestId, browser, start } = await started(nodeA, acme);
    expect(start.setCookies.find((cookie) => cookie.name === '__Host-chorus_saml_request')?.attributes).toMatchObject({
      samesite: 'None',
      secure: true,
      httponly: true,
      path: '/',
    });
    // Mallory's own response, carried into Ann's browser: Ann would be signed in as Mallory.
    const response = idp.response({ ...sp(acme), inResponseTo: requestId, nameId: 'mallory@acme.example' });
    expect((await post(nodeB, acme, response)).location).toBe(ssoFailed);
    expect(await lastFailure(acme)).toMatchObject({
      reason: 'response-refused',
      detail: expect.stringContaining('another browser'),
    });
    // Refused, it spent nothing: the browser that started it still signs in.
    expect((await post(nodeB, acme, response, browser)).location).toBe('/app');
    for (const node of [nodeA, nodeB]) node.clock.advance(3_600_000);
  });

  it("refuses a response for another organization: its provider's key, or our provider's answer to its request", async () => {
    const { requestId } = await started(nodeA, globex);
    await expectRefused(
      await post(nodeB, acme, globexIdp.response({ ...sp(acme), inResponseTo: requestId, nameId: 'ann@acme.example' })),
      'response-refused',
    );
    const other = await started(nodeA, globex);
    await expectRefused(
      await post(nodeB, acme, idp.response({ ...sp(acme), inResponseTo: other.requestId, nameId: 'ann@acme.example' })),
      'response-refused',
    );
    await expectRefused(
      await post(
        nodeB,
        acme,
        idp.response({ ...sp(acme), inResponseTo: '_' + 'a'.repeat(40), nameId: 'ann@acme.example' }),
      ),
      'response-refused',
    );
  });

  it('refuses a sign-on the provider started unless the organization allows it; allowed, it lands at /app, once per assertion', async () => {
    const unasked = () => idp.response({ ...sp(acme), nameId: 'ann@acme.example' });
    await expectRefused(await post(nodeB, acme, unasked()), 'idp-initiated');
    expect(
      (
        await api.put(`/organizations/${acme}/sso`, {
          protocol: 'saml',
          domains: ['acme.example'],
          allowIdpInitiated: true,
        })
      ).status,
    ).toBe(200);
    const response = unasked();
    expect((await post(nodeB, acme, response)).location).toBe('/app');
    await expectRefused(await post(nodeA, acme, response), 'replay');
    expect(
      (
        await api.put(`/organizations/${acme}/sso`, {
          protocol: 'saml',
          domains: ['acme.example'],
          allowIdpInitiated: false,
        })
      ).status,
    ).toBe(200);
  });

  it('keeps an existing account the organization did not create out until it is linked, then signs it in', async () => {
    await expectRefused((await signOn('olivia@acme.example')).answer, 'account-not-linked');
    const owner = await nodeA.signedIn('olivia@acme.example', password);
    const { requestId } = await started(nodeA, acme, `/auth/sso/${acme}?intent=link`, owner);
    expect(
      (
        await post(
          nodeB,
          acme,
          idp.response({ ...sp(acme), inResponseTo: requestId, nameId: 'olivia@acme.example' }),
          owner,
        )
      ).location,
    ).toBe('/app');
    expect((await signOn('olivia@acme.example')).answer.location).toBe('/app');
  });

  it('asks for the second step when the organization requires it', async () => {
    expect((await api.put(`/organizations/${acme}/two-step-sign-in`, { required: true })).status).toBe(200);
    const { answer, browser } = await signOn('ben@acme.example');
    expect(answer.status).toBe(303);
    expect(answer.location).toMatch(/^\/login\/verify\?redirect=/);
    expect((await browser.get('/session')).status).toBe(401);
    expect((await api.put(`/organizations/${acme}/two-step-sign-in`, { required: false })).status).toBe(200);
  });

  it('refuses a body that is not a SAML response, and an organization without SAML', async () => {
    await expectRefused(
      await nodeB.browser().request('POST', acsOf(acme), { form: { RelayState: '/' } }),
      'response-refused',
    );
    await expectRefused(await post(nodeB, acme, Buffer.from('<not-saml/>').toString('base64')), 'response-refused');
    const plain = await nodeA.createOrganization('Plain', { userId: 'nobody', email: 'nobody@plain.example' });
    const answer = await post(nodeB, plain, idp.response({ ...sp(plain), nameId: 'ann@acme.example' }));
    expect(answer.location).toBe(ssoFailed);
  });
});

// The guards OpenID Connect's sign-on meets, met by SAML's: the admission after the provider's word is one
// (sso-admission.ts), and these keep a later change to the SAML path from going around it.
describe('the guards after the provider’s word', () => {
  const scim = async (method: string, path: string, token: string, body?: unknown) =>
    httpClient(nodeA.baseUrl).request(method, `/scim/v2${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/scim+json',
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      ...(body === undefined ? {} : { raw: JSON.stringify(body) }),
    });
  const memberEmails = async () =>
    ((await api.get(`/organizations/${acme}`)).body.members as { email: string }[]).map((member) => member.email);

  it('refuses a person the organization’s directory deactivated or deleted (deprovisioned), even one with no account yet', async () => {
    const token = (await api.post(`/organizations/${acme}/scim/tokens`, { name: 'Okta' })).body.token as string;
    const user = 'urn:ietf:params:scim:schemas:core:2.0:User';
    const deactivated = await scim('POST', '/Users', token, {
      schemas: [user],
      userName: 'dee@acme.example',
      active: true,
    });
    expect(deactivated.status).toBe(201);
    const patch = {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: false } }],
    };
    expect((await scim('PATCH', `/Users/${deactivated.body.id as string}`, token, patch)).status).toBe(200);
    const deleted = await scim('POST', '/Users', token, {
      schemas: [user],
      userName: 'del@acme.example',
      active: true,
    });
    expect((await scim('DELETE', `/Users/${deleted.body.id as string}`, token)).status).toBe(204);

    await expectRefused((await signOn('dee@acme.example')).answer, 'deprovisioned');
    await expectRefused((await signOn('del@acme.example')).answer, 'deprovisioned');
    expect(await memberEmails()).not.toEqual(expect.arrayContaining(['dee@acme.example']));
    expect(await memberEmails()).not.toEqual(expect.arrayContaining(['del@acme.example']));
  });

  it('refuses a new person over the users limit, adding no member', async () => {
    const view = await api.get(`/organizations/${acme}`);
    expect((await api.put(`/organizations/${acme}/limits`, { users: view.body.usage.users })).status).toBe(200);
    try {
      await expectRefused((await signOn('late@acme.example')).answer, 'users-limit');
      expect(await memberEmails()).not.toContain('late@acme.example');
    } finally {
      await api.put(`/organizations/${acme}/limits`, { users: null });
    }
  });

  it('refuses an address of a domain the organization lists but has not verified', async () => {
    expect(
      (await api.put(`/organizations/${acme}/sso`, { protocol: 'saml', domains: ['acme.example', 'eu.acme.example'] }))
        .status,
    ).toBe(200);
    try {
      await expectRefused((await signOn('eve@eu.acme.example')).answer, 'foreign-domain');
      expect(await memberEmails()).not.toContain('eve@eu.acme.example');
    } finally {
      await api.put(`/organizations/${acme}/sso`, { protocol: 'saml', domains: ['acme.example'] });
    }
  });
});
