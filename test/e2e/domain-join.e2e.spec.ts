// Joining by verified domain (docs/directory.md): a person who signs in with an address of a domain the organization
// verified and set to `automatic` becomes a member with the domain's role. Each way in meets the guards: the password
// (and only after its second step), Google, single sign-on's own provisioning, a domain not verified, an admin asking,
// the users limit (the owners mailed once a day). Domains are verified through a real DNS server on loopback. And
// single sign-on's enforcement, which Google sign-in meets too.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import { organizationStream } from '#domain';
import { newCommandContext } from '#application';
import { PersonalDataErasure, PersonalDataExport, type PersonalDataCopy } from '#api';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { DnsServer, dnsServerMissing } from '../support/dns-server.js';
import { GoogleMock } from '../support/google-mock.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { IdentityProvider, viaProvider } from '../support/identity-provider.js';
import { SmtpInbox, unfolded, type ReceivedMail } from '../support/smtp-inbox.js';
import { proveSsoDomain } from '../support/sso-domains.js';

const password = 'correct-horse-battery-9';
let dns: DnsServer;
let idp: IdentityProvider;
let google: GoogleMock;
let inbox: SmtpInbox;
let app: AuthApp;
let api: HttpClient;
let acme: string;

const roleIn = async (organizationId: string, email: string): Promise<string | undefined> =>
  ((await api.get(`/organizations/${organizationId}`)).body.members as { email: string; role: string }[]).find(
    (member) => member.email === email,
  )?.role;

async function events(organizationId: string) {
  const read = await app.store.readStream(organizationStream(organizationId));
  return read.found ? read.events : [];
}

async function passwordSignIn(email: string): Promise<Browser> {
  const browser = app.browser();
  await browser.open('/login');
  expect((await browser.post('/login', { username: email, password })).status).toBe(204);
  return browser;
}

const setJoin = (domain: string, body: Record<string, unknown>) =>
  api.put(`/organizations/${acme}/sso/domains/${domain}/join`, body);

const subjectOf = (mail: ReceivedMail): string => /^Subject: (.*)$/m.exec(unfolded(mail))?.[1] ?? '';

/** Mails arrive from the owner-mails reaction, after the sign-in's answer. */
async function mailsAbout(subject: string, count: number): Promise<ReceivedMail[]> {
  for (
    let waited = 0;
    waited < 10_000 && inbox.received.filter((mail) => subjectOf(mail) === subject).length < count;
    waited += 50
  ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return inbox.received.filter((mail) => subjectOf(mail) === subject);
}

async function mailsTo(address: string, subject: string, count = 1): Promise<ReceivedMail[]> {
  const to = () => inbox.received.filter((mail) => mail.to.includes(address) && subjectOf(mail) === subject);
  for (let waited = 0; waited < 10_000 && to().length < count; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return to();
}

const missing = dnsServerMissing();
if (missing !== undefined) throw new Error(missing);

beforeAll(async () => {
  dns = await DnsServer.start(['acme.example', 'eu.acme.example', 'initech.example']);
  idp = await IdentityProvider.start();
  google = await GoogleMock.start();
  inbox = await SmtpInbox.start();
  app = await startAuthApp({ ...google.settings, SMTP_URL: inbox.url, DNS_SERVERS: dns.address });
  api = httpClient(app.baseUrl, {
    apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write', 'audit:read']),
  });
  const oliviaId = await app.createUser({ email: 'olivia@acme.example', password });
  acme = await app.createOrganization('Acme', { userId: oliviaId, email: 'olivia@acme.example' });
  expect((await api.post(`/organizations/${acme}/plan`, { line: 'chorus', plan: 'enterprise' })).status).toBe(200);
  const sso = {
    issuer: idp.issuer,
    clientId: 'chorusAcme',
    clientSecret: 'idp-secret-join',
    domains: ['acme.example', 'eu.acme.example'],
  };
  expect((await api.put(`/organizations/${acme}/sso`, sso)).status).toBe(200);
  await proveSsoDomain(api, dns, acme, 'acme.example');
}, 120_000);

afterAll(async () => {
  await app?.close();
  await google?.stop();
  await idp?.stop();
  await inbox?.close();
  await dns?.stop();
});

describe('the setting', () => {
  it('is by invitation until an owner says otherwise: a person of the domain who signs in joins nothing', async () => {
    await app.createUser({ email: 'pat@acme.example', password });
    const browser = await passwordSignIn('pat@acme.example');
    expect((await browser.get('/session')).body.organizations).toEqual([]);
    expect(await roleIn(acme, 'pat@acme.example')).toBeUndefined();
  });

  it('is the owners’: an admin is refused, a domain not verified and owner as the role are refused', async () => {
    await app.createUser({ email: 'adam@acme.example', password });
    expect(
      (await api.post(`/organizations/${acme}/members`, { email: 'adam@acme.example', role: 'admin' })).status,
    ).toBe(201);
    const adam = await passwordSignIn('adam@acme.example');
    expect(
      (
        await adam.request('PUT', `/organizations/${acme}/sso/domains/acme.example/join`, {
          json: { join: 'automatic' },
        })
      ).status,
    ).toBe(403);
    const unverified = await setJoin('eu.acme.example', { join: 'automatic' });
    expect(unverified.status).toBe(400);
    expect(unverified.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await setJoin('acme.example', { join: 'automatic', role: 'owner' })).status).toBe(400);
    expect((await api.get(`/organizations/${acme}`)).body.sso.settings.domainStates).toEqual(
      expect.arrayContaining([expect.objectContaining({ domain: 'acme.example', joinRole: null })]),
    );
  });

  it('once automatic, makes a person who signs in with a password a member with its role, recorded as joined by the domain', async () => {
    expect((await setJoin('acme.example', { join: 'automatic', role: 'auditor' })).status).toBe(200);
    expect((await api.get(`/organizations/${acme}`)).body.sso.settings.domainStates).toEqual(
      expect.arrayContaining([expect.objectContaining({ domain: 'acme.example', joinRole: 'auditor' })]),
    );

    const browser = await passwordSignIn('pat@acme.example');

    expect((await browser.get('/session')).body.organizations).toEqual([{ id: acme, name: 'Acme', role: 'auditor' }]);
    const added = (await events(acme)).filter((event) => event.type === 'MemberAdded').at(-1);
    expect(added).toMatchObject({
      data: { email: 'pat@acme.example', role: 'auditor' },
      metadata: { actor: 'join:acme.example' },
    });
    // No invitation: the person is already signed in.
    expect(added?.metadata.invitation).toBeUndefined();
  });

  it('never reaches another domain’s people', async () => {
    await app.createUser({ email: 'mallory@globex.example', password });
    expect((await (await passwordSignIn('mallory@globex.example')).get('/session')).body.organizations).toEqual([]);
  });
});

describe('every way in', () => {
  it('joins a person with a second factor only once the second step is passed', async () => {
    const quinnId = await app.createUser({ email: 'quinn@acme.example', password });
    const first = await passwordSignIn('quinn@acme.example');
    // The first sign-in joined already (no factor yet): removed, quinn sets a factor up and signs in again.
    expect(await roleIn(acme, 'quinn@acme.example')).toBe('auditor');
    const started = await first.post('/account/two-step/authenticator-app');
    const codeNow = (): Promise<string> =>
      generate({ secret: started.body.secret as string, epoch: Math.floor(app.clock.now().getTime() / 1000) });
    expect(
      (
        await first.request('PUT', '/account/two-step/authenticator-app', {
          json: { setup: started.body.setup, code: await codeNow(), password },
        })
      ).status,
    ).toBe(200);
    expect((await api.delete(`/organizations/${acme}/members/${quinnId}`)).status).toBeLessThan(300);
    app.clock.advance(30_000);

    const second = await passwordSignIn('quinn@acme.example');
    expect(await roleIn(acme, 'quinn@acme.example')).toBeUndefined();
    expect((await second.post('/session/second-step/code', { code: await codeNow() })).status).toBe(204);

    expect(await roleIn(acme, 'quinn@acme.example')).toBe('auditor');
  });

  it('lets a person of the domain with no membership yet sign in with Google, and joins them', async () => {
    const rayId = await app.createUser({ email: 'ray@acme.example' });
    const browser = app.browser();
    google.userInfo = { sub: 'google-ray', email: 'ray@acme.example', email_verified: true };
    const started = await browser.open('/auth/go/');
    const consent = await fetch(started.location ?? '', { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    const landed = await browser.open(`${back.pathname}${back.search}`);

    expect(landed.status).toBe(302);
    expect(landed.location).not.toContain('error=account');
    expect((await browser.get('/session')).body).toMatchObject({
      user: { id: rayId },
      organizations: [{ id: acme, role: 'auditor' }],
    });
  });

  it('gives single sign-on’s own provisioning the domain’s role', async () => {
    idp.signsIn('sso-sam@acme.example');
    const { answer } = await viaProvider(app.browser(), `/auth/sso/${acme}`);
    expect(answer.location).toBe('/app');
    expect(await roleIn(acme, 'sso-sam@acme.example')).toBe('auditor');
  });
});

describe('an organization that requires two-step sign-in', () => {
  let initech: string;
  const codeFor = (secret: string): Promise<string> =>
    generate({ secret, epoch: Math.floor(app.clock.now().getTime() / 1000) });

  beforeAll(async () => {
    const ivanId = await app.createUser({ email: 'ivan@initech.example', password });
    initech = await app.createOrganization('Initech', { userId: ivanId, email: 'ivan@initech.example' });
    expect((await api.post(`/organizations/${initech}/plan`, { line: 'chorus', plan: 'enterprise' })).status).toBe(200);
    const sso = {
      issuer: idp.issuer,
      clientId: 'chorusInitech',
      clientSecret: 'idp-secret-initech',
      domains: ['initech.example'],
    };
    expect((await api.put(`/organizations/${initech}/sso`, sso)).status).toBe(200);
    await proveSsoDomain(api, dns, initech, 'initech.example');
    expect(
      (await api.put(`/organizations/${initech}/sso/domains/initech.example/join`, { join: 'automatic' })).status,
    ).toBe(200);
    expect((await api.put(`/organizations/${initech}/two-step-sign-in`, { required: true })).status).toBe(200);
  });

  it('has a person about to join it by their password set up a second factor first, and joins them only then', async () => {
    await app.createUser({ email: 'vic@initech.example', password });

    const browser = await passwordSignIn('vic@initech.example');

    // Half open: the requirement of the organization joined is asked as a member's would be.
    expect((await browser.get('/session')).status).toBe(401);
    expect((await browser.get('/session/second-step')).body).toMatchObject({
      awaiting: 'enrolment',
      requiredBy: ['Initech'],
    });
    expect(await roleIn(initech, 'vic@initech.example')).toBeUndefined();
    const started = await browser.post('/session/second-step/authenticator-app');
    const code = await codeFor(started.body.secret as string);
    expect(
      (
        await browser.request('PUT', '/session/second-step/authenticator-app', {
          json: { setup: started.body.setup, code },
        })
      ).status,
    ).toBe(200);
    expect((await browser.get('/session')).body.organizations).toEqual([
      { id: initech, name: 'Initech', role: 'member' },
    ]);
  });

  it('asks the same of a person about to join it through Google', async () => {
    await app.createUser({ email: 'wes@initech.example' });
    const browser = app.browser();
    google.userInfo = { sub: 'google-wes', email: 'wes@initech.example', email_verified: true };
    const started = await browser.open('/auth/go/');
    const consent = await fetch(started.location ?? '', { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');

    expect((await browser.open(`${back.pathname}${back.search}`)).location).toBe('/login/verify?redirect=%2F');
    expect((await browser.get('/session/second-step')).body).toMatchObject({
      awaiting: 'enrolment',
      requiredBy: ['Initech'],
    });
    expect(await roleIn(initech, 'wes@initech.example')).toBeUndefined();
  });
});

describe('an organization that enforces its single sign-on', () => {
  const acmeSso = () => ({ issuer: idp.issuer, clientId: 'chorusAcme', domains: ['acme.example', 'eu.acme.example'] });
  async function whileEnforcing(run: () => Promise<void>): Promise<void> {
    expect((await api.put(`/organizations/${acme}/sso`, { ...acmeSso(), enforce: true })).status).toBe(200);
    try {
      await run();
    } finally {
      await api.put(`/organizations/${acme}/sso`, { ...acmeSso(), enforce: false });
    }
  }
  const joinedByDomain = async (email: string) =>
    (await events(acme)).filter(
      (event) =>
        event.type === 'MemberAdded' &&
        event.metadata.actor === 'join:acme.example' &&
        (event.data as { email?: string }).email === email,
    );

  it('takes its domain’s people in through its provider only: a password sign-in of someone not yet a member joins nothing', async () => {
    await app.createUser({ email: 'nina@acme.example', password });
    await whileEnforcing(async () => {
      // Not a member: the password is still hers (the organization decides for its own people), but it is no way into
      // Acme.
      const browser = await passwordSignIn('nina@acme.example');
      expect((await browser.get('/session')).body.organizations).toEqual([]);
      expect(await roleIn(acme, 'nina@acme.example')).toBeUndefined();
      expect(await joinedByDomain('nina@acme.example')).toEqual([]);

      // Her account linked through the provider, the provider's word takes her in, with the domain's role.
      idp.signsIn('nina@acme.example');
      expect((await viaProvider(browser, `/auth/sso/${acme}?intent=link`)).answer.location).toBe('/app');
      expect(await roleIn(acme, 'nina@acme.example')).toBe('auditor');
    });
  });

  it('sends someone not yet a member who chooses Google to its provider, joining nothing', async () => {
    await app.createUser({ email: 'gus@acme.example' });
    await whileEnforcing(async () => {
      const browser = app.browser();
      google.userInfo = { sub: 'google-gus', email: 'gus@acme.example', email_verified: true };
      const started = await browser.open('/auth/go/?redirect=%2Fapp%2Fsites');
      const back = new URL((await fetch(started.location ?? '', { redirect: 'manual' })).headers.get('location') ?? '');

      expect((await browser.open(`${back.pathname}${back.search}`)).location).toBe(
        `/auth/sso/${acme}?redirect=%2Fapp%2Fsites`,
      );
      expect((await browser.get('/session')).status).toBe(401);
      expect(await roleIn(acme, 'gus@acme.example')).toBeUndefined();
    });
  });

  it('sends its people who choose Google to its provider instead: Google alone would go around the provider’s policies', async () => {
    const acmeSso = { issuer: idp.issuer, clientId: 'chorusAcme', domains: ['acme.example', 'eu.acme.example'] };
    expect((await api.put(`/organizations/${acme}/sso`, { ...acmeSso, enforce: true })).status).toBe(200);
    try {
      const browser = app.browser();
      google.userInfo = { sub: 'google-olivia', email: 'olivia@acme.example', email_verified: true };
      const started = await browser.open('/auth/go/?redirect=%2Fapp%2Faccount');
      const consent = await fetch(started.location ?? '', { redirect: 'manual' });
      const back = new URL(consent.headers.get('location') ?? '');

      const landed = await browser.open(`${back.pathname}${back.search}`);

      expect(landed.location).toBe(`/auth/sso/${acme}?redirect=%2Fapp%2Faccount`);
      expect((await browser.get('/session')).status).toBe(401);
      // A person of another domain still signs in with Google.
      await app.createUser({ email: 'gail@globex.example' });
      const other = app.browser();
      google.userInfo = { sub: 'google-gail', email: 'gail@globex.example', email_verified: true };
      const otherStart = await other.open('/auth/go/');
      const otherBack = new URL(
        (await fetch(otherStart.location ?? '', { redirect: 'manual' })).headers.get('location') ?? '',
      );
      expect((await other.open(`${otherBack.pathname}${otherBack.search}`)).location).toBe('/login?error=account');
    } finally {
      await api.put(`/organizations/${acme}/sso`, { ...acmeSso, enforce: false });
    }
  });
});

describe('the company’s directory', () => {
  it('keeps a person it deactivated out when they come back through Google', async () => {
    const token = (await api.post(`/organizations/${acme}/scim/tokens`, { name: 'Okta' })).body.token as string;
    const scim = (method: string, path: string, body?: unknown) =>
      httpClient(app.baseUrl).request(method, `/scim/v2${path}`, {
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/scim+json',
          ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
        },
        ...(body === undefined ? {} : { raw: JSON.stringify(body) }),
      });
    const dinaId = await app.createUser({ email: 'dina@acme.example' });
    const provisioned = await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'dina@acme.example',
      active: true,
    });
    expect(provisioned.status).toBe(201);
    expect(await roleIn(acme, 'dina@acme.example')).toBeDefined();
    const deactivate = {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: false } }],
    };
    expect((await scim('PATCH', `/Users/${provisioned.body.id as string}`, deactivate)).status).toBe(200);
    expect(await roleIn(acme, 'dina@acme.example')).toBeUndefined();

    const browser = app.browser();
    google.userInfo = { sub: 'google-dina', email: 'dina@acme.example', email_verified: true };
    const started = await browser.open('/auth/go/');
    const back = new URL((await fetch(started.location ?? '', { redirect: 'manual' })).headers.get('location') ?? '');

    // No organization to sign in to: the seed's "You don't seem to have access to any organization."
    expect((await browser.open(`${back.pathname}${back.search}`)).location).toBe('/login?error=account');
    expect(await roleIn(acme, 'dina@acme.example')).toBeUndefined();
    expect(
      (await events(acme)).filter(
        (event) => event.type === 'MemberAdded' && (event.data as { userId?: string }).userId === dinaId,
      ),
    ).toHaveLength(1);

    // Her own copy (Art. 15) holds what the directory says of her, though she is no member now, and her membership's
    // end.
    const copy = await app.app.get(PersonalDataExport).of(dinaId);
    expect(copy?.directoryRecords).toEqual([
      {
        organizationId: acme,
        record: expect.objectContaining({ userName: 'dina@acme.example', active: false }),
        groups: [],
      },
    ]);
  });
});

describe('the users limit', () => {
  it('leaves the person signed in but not a member, and mails the owners once a day', async () => {
    const count = ((await api.get(`/organizations/${acme}`)).body.members as unknown[]).length;
    expect((await api.put(`/organizations/${acme}/limits`, { users: count })).status).toBe(200);
    await app.createUser({ email: 'rex@acme.example', password });
    await app.createUser({ email: 'sue@acme.example', password });

    const rex = await passwordSignIn('rex@acme.example');
    await passwordSignIn('sue@acme.example');

    expect((await rex.get('/session')).body.organizations).toEqual([]);
    expect(await roleIn(acme, 'sue@acme.example')).toBeUndefined();
    const refusals = (await events(acme)).filter((event) => event.type === 'AutomaticJoinRefused');
    expect(refusals).toHaveLength(1);
    const [mail, ...more] = await mailsAbout('Someone of acme.example could not join Acme', 1);
    expect(more).toEqual([]);
    expect(mail?.to).toContain('olivia@acme.example');
    expect(mail?.raw).not.toContain('rex@acme.example');

    app.clock.advance(24 * 3_600_000);
    await passwordSignIn('sue@acme.example');
    expect((await events(acme)).filter((event) => event.type === 'AutomaticJoinRefused')).toHaveLength(2);
    expect(await mailsAbout('Someone of acme.example could not join Acme', 2)).toHaveLength(2);
  });

  it('tells each person why, in words, once a day: the sign-in screens keep the seed’s words, so the reason comes by mail', async () => {
    const subject = 'You could not join Acme yet';
    // From the test before: rex refused once, sue on two days (the owners' mail is one a day for all of them).
    expect(await mailsTo('rex@acme.example', subject)).toHaveLength(1);
    expect(await mailsTo('sue@acme.example', subject, 2)).toHaveLength(2);
    await app.createUser({ email: 'tia@acme.example', password });

    await passwordSignIn('tia@acme.example');
    await passwordSignIn('tia@acme.example');

    const [mail] = await mailsTo('tia@acme.example', subject);
    const text = unfolded(mail as ReceivedMail);
    expect(text).toContain(
      'Acme has no room for another member just now: its users limit is reached. So you did not join it.',
    );
    expect(text).toContain('Its owners have been told. Once they make room, sign in again and you join Acme.');
    // The organization's size is the owners' business.
    expect(text).not.toMatch(/\d+ (members|users)/);
    // Twice the same day: one mail.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await mailsTo('tia@acme.example', subject)).toHaveLength(1);

    app.clock.advance(24 * 3_600_000);
    const tia = await passwordSignIn('tia@acme.example');
    expect(await mailsTo('tia@acme.example', subject, 2)).toHaveLength(2);

    // Her own copy names both refusals, by day.
    const copy = await tia.get('/account/export');
    expect((copy.body as PersonalDataCopy).joinRefusals).toEqual([
      { organizationId: acme, domain: 'acme.example', on: expect.any(String) },
      { organizationId: acme, domain: 'acme.example', on: expect.any(String) },
    ]);
  });

  it('mails no one a notice owed to a person erased before it went out: their address is gone with their key', async () => {
    const zoeId = await app.createUser({ email: 'zoe@acme.example', password });
    const yanId = await app.createUser({ email: 'yan@acme.example', password });
    await app.app.get(PersonalDataErasure).erase(zoeId, newCommandContext('cli'));
    // Owed as a refused sign-in owes it, in the order the reaction reads: zoe's first (erased by now), then yan's.
    const on = app.clock.now().toISOString().slice(0, 10);
    for (const userId of [zoeId, yanId]) {
      const data = { organizationId: acme, domain: 'acme.example', on, userId };
      await app.store.append(
        `join-refusal-notice-${acme}-${userId}`,
        [{ id: randomUUID(), type: 'JoinRefusalNoticeOwed', data, metadata: newCommandContext('cli') }],
        'no_stream',
      );
    }

    expect(await mailsTo('yan@acme.example', 'You could not join Acme yet')).toHaveLength(1);
    expect(inbox.received.filter((mail) => mail.to.includes('zoe@acme.example'))).toEqual([]);
  });

  it('keeps out a person single sign-on would create, as the sign-on’s failure, and tells the owners and the person', async () => {
    app.clock.advance(24 * 3_600_000);
    const refusalsBefore = (await events(acme)).filter((event) => event.type === 'AutomaticJoinRefused').length;
    idp.signsIn('sso-uma@acme.example');

    const { answer } = await viaProvider(app.browser(), `/auth/sso/${acme}`);

    expect(answer.location).toBe('/login?error=sso');
    expect(await roleIn(acme, 'sso-uma@acme.example')).toBeUndefined();
    expect((await events(acme)).filter((event) => event.type === 'AutomaticJoinRefused')).toHaveLength(
      refusalsBefore + 1,
    );
    expect(await mailsTo('sso-uma@acme.example', 'You could not join Acme yet')).toHaveLength(1);
    // Nobody was created, so the notice's stream is named by a keyed hash of the address (its data seals it).
    const notices = (await app.store.readAll()).filter((event) => event.type === 'JoinRefusalNoticeOwed');
    const uma = notices.at(-1);
    expect(uma?.streamId).not.toContain('uma');
    expect(uma?.data).toMatchObject({ organizationId: acme, domain: 'acme.example', email: 'sso-uma@acme.example' });
    expect(uma?.data).not.toHaveProperty('userId');
  });
});
