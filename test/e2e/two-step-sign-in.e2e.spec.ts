// Two-step sign-in over HTTP (docs/api.md, Two-step sign-in): an authenticator app set up on the account, the
// half-open session after the password, codes used once, recovery codes, guesses counted before their check,
// an organization's requirement, and an owner's reset. Codes are computed with otplib, as an app would.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import { CommandBus } from '@nestjs/cqrs';
import { READ_MODELS, type ReadModels } from '#read-models';
import { AddMemberCommand } from '#api';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { httpClient } from '../support/http-client.js';
import type { Browser } from '../support/browser.js';
import { resetTokenIn, SmtpInbox, unfolded } from '../support/smtp-inbox.js';

const password = 'correct horse battery staple';
let app: AuthApp;
let inbox: SmtpInbox;

beforeAll(async () => {
  inbox = await SmtpInbox.start();
  app = await startAuthApp({ SMTP_URL: inbox.url, PUBLIC_URL: 'https://chorus.example', LOG_LEVEL: 'silent' });
}, 60_000);

afterAll(async () => {
  await app.close();
  await inbox.close();
});

/** The code the app shows now (the identity clock is the test's). */
const codeNow = (secret: string): Promise<string> =>
  generate({ secret, epoch: Math.floor(app.clock.now().getTime() / 1000) });

async function newUser(name: string): Promise<{ userId: string; email: string }> {
  const email = `${name}-${randomUUID().slice(0, 8)}@two-step.example`;
  return { userId: await app.createUser({ email, password }), email };
}

/** Sets up an authenticator app on a signed-in browser; answers its secret and the recovery codes. */
async function setUpApp(browser: Browser): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await browser.post('/account/two-step/authenticator-app');
  expect(started.status).toBe(200);
  const code = await codeNow(started.body.secret);
  const confirmed = await browser.request('PUT', '/account/two-step/authenticator-app', {
    json: { setup: started.body.setup, code, password },
  });
  expect(confirmed.status).toBe(200);
  return { secret: started.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
}

async function halfOpen(email: string): Promise<Browser> {
  const browser = app.browser();
  await browser.open('/login');
  expect((await browser.post('/login', { username: email, password })).status).toBe(204);
  return browser;
}

async function userEvents(userId: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const page = await app.store.readStream(`user-${userId}`, { maxCount: 10_000 });
  return page.found ? page.events.map(({ type, data }) => ({ type, data: data as Record<string, unknown> })) : [];
}

describe('an authenticator app', () => {
  let user: { userId: string; email: string };
  let secret: string;
  let recoveryCodes: string[];

  beforeAll(async () => {
    user = await newUser('ada');
    const signedIn = await app.signedIn(user.email, password);
    const started = await signedIn.post('/account/two-step/authenticator-app');
    expect(started.body).toMatchObject({
      secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
      uri: expect.stringContaining('otpauth://totp/'),
      qrCode: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
    });
    const wrong = await signedIn.request('PUT', '/account/two-step/authenticator-app', {
      json: { setup: started.body.setup, code: '000000' },
    });
    expect(wrong.body).toMatchObject({ status: 400, code: 'INVALID_CODE' });
    ({ secret, recoveryCodes } = await (async () => {
      const code = await codeNow(started.body.secret);
      const confirmed = await signedIn.request('PUT', '/account/two-step/authenticator-app', {
        json: { setup: started.body.setup, code, password },
      });
      return { secret: started.body.secret as string, recoveryCodes: confirmed.body.recoveryCodes as string[] };
    })());
    expect(recoveryCodes).toHaveLength(10);
    const summary = await signedIn.get('/account/two-step');
    expect(summary.body).toMatchObject({
      authenticatorApp: { enrolledAt: expect.any(String) },
      passkeys: [],
      recoveryCodes: { remaining: 10 },
      requiredBy: [],
    });
  });

  it('leaves the session after the password half open: every page and call answers as signed out but the second step', async () => {
    const browser = await halfOpen(user.email);
    expect((await browser.get('/session')).status).toBe(401);
    expect((await browser.get('/account/two-step')).status).toBe(401);
    const console_ = await browser.open('/app/account');
    expect(console_.status).toBe(302);
    expect(console_.location).toBe('/login/verify?redirect=%2Fapp%2Faccount');
    expect((await browser.open('/')).location).toBe('/login/verify?redirect=%2F');
    const status = await browser.get('/session/second-step');
    expect(status.body).toEqual({
      awaiting: 'second-step',
      email: user.email,
      methods: { authenticatorApp: true, passkeys: 0, recoveryCodes: 10 },
      requiredBy: [],
    });
    // A half-open session sets nothing up: knowing the password must not be enough to add a factor.
    expect((await browser.post('/session/second-step/authenticator-app')).status).toBe(403);
  });

  it('a right code opens a full session under a new cookie; the same code again is refused', async () => {
    const browser = await halfOpen(user.email);
    const halfCookie = browser.cookie('__Host-chorus_session');
    const code = await codeNow(secret);
    const passed = await browser.post('/session/second-step/code', { code: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(passed.status).toBe(204);
    expect(browser.cookie('__Host-chorus_session')).not.toBe(halfCookie);
    expect((await browser.get('/session')).body.user.email).toBe(user.email);
    expect((await browser.get('/session/second-step')).status).toBe(401);

    const replay = await halfOpen(user.email);
    expect((await replay.post('/session/second-step/code', { code })).body).toMatchObject({
      status: 400,
      code: 'CODE_ALREADY_USED',
    });
    expect((await replay.get('/session')).status).toBe(401);
    // The next step's code works.
    app.clock.advance(30_000);
    expect((await replay.post('/session/second-step/code', { code: await codeNow(secret) })).status).toBe(204);
  });

  it('a recovery code works once, is recorded, and the user is mailed', async () => {
    const browser = await halfOpen(user.email);
    const code = recoveryCodes[0] as string;
    expect((await browser.post('/session/second-step/code', { code: code.toLowerCase() })).status).toBe(204);
    await inbox.mailTo(user.email, '9 recovery codes are left');
    const again = await halfOpen(user.email);
    expect((await again.post('/session/second-step/code', { code })).body).toMatchObject({
      status: 400,
      code: 'INVALID_CODE',
    });
    const events = await userEvents(user.userId);
    expect(
      events.filter((event) => event.type === 'SecondStepPassed' && event.data.method === 'recovery-code'),
    ).toHaveLength(1);
    expect(events.some((event) => event.type === 'SecondStepFailed' && event.data.method === 'recovery-code')).toBe(
      true,
    );
  });

  it('a password reset leaves the factors: the next sign-in still asks for the second step', async () => {
    const forgot = app.browser();
    await forgot.open('/forgot');
    expect((await forgot.post('/forgot', { email: user.email })).status).toBe(202);
    const token = resetTokenIn(await inbox.mailTo(user.email, '/reset/'));
    const browser = app.browser();
    await browser.open(`/reset/${token}`);
    expect((await browser.post('/reset', { token, password })).status).toBe(204);
    const after = await halfOpen(user.email);
    expect((await after.get('/session/second-step')).body.methods.authenticatorApp).toBe(true);
    expect((await after.get('/session')).status).toBe(401);
  });
});

describe('changing factors (each change confirmed in its request, and mailed)', () => {
  let user: { userId: string; email: string };
  let signedIn: Browser;
  let secret: string;
  let recoveryCodes: string[];

  beforeAll(async () => {
    user = await newUser('changer');
    signedIn = await app.signedIn(user.email, password);
    ({ secret, recoveryCodes } = await setUpApp(signedIn));
  });

  it('refuses a change with the session alone, or a wrong password, and changes nothing', async () => {
    const started = await signedIn.post('/account/two-step/authenticator-app');
    expect(started.status).toBe(200);
    expect((await signedIn.post('/account/two-step/recovery-codes')).body).toMatchObject({
      status: 403,
      code: 'REAUTHENTICATION_REQUIRED',
    });
    expect((await signedIn.delete('/account/two-step/authenticator-app')).body).toMatchObject({
      status: 403,
      code: 'REAUTHENTICATION_REQUIRED',
    });
    expect(
      (
        await signedIn.request('DELETE', '/account/two-step/authenticator-app', {
          json: { password: 'wrong password' },
        })
      ).body,
    ).toMatchObject({
      status: 400,
      code: 'WRONG_PASSWORD',
    });
    expect(
      (await signedIn.request('DELETE', '/account/two-step/authenticator-app', { json: { code: '000000' } })).body,
    ).toMatchObject({ status: 400 });
    expect((await signedIn.get('/account/two-step')).body).toMatchObject({
      confirmWith: 'password',
      authenticatorApp: { enrolledAt: expect.any(String) },
      recoveryCodes: { remaining: 10 },
    });
  });

  it('takes the password, or a code once: the same code again is refused; every change is mailed', async () => {
    const regenerated = await signedIn.request('POST', '/account/two-step/recovery-codes', { json: { password } });
    expect(regenerated.status).toBe(200);
    await inbox.mailTo(user.email, 'new recovery codes were made');
    app.clock.advance(31_000);
    const code = await codeNow(secret);
    expect((await signedIn.request('POST', '/account/two-step/recovery-codes', { json: { code } })).status).toBe(200);
    expect((await signedIn.request('POST', '/account/two-step/recovery-codes', { json: { code } })).body).toMatchObject(
      { status: 400, code: 'CODE_ALREADY_USED' },
    );
    // The old recovery codes were replaced: one of them confirms nothing.
    expect(
      (await signedIn.request('POST', '/account/two-step/recovery-codes', { json: { code: recoveryCodes[0] } })).body,
    ).toMatchObject({ status: 400, code: 'INVALID_CODE' });
    const events = await userEvents(user.userId);
    expect(events.filter((event) => event.type === 'FactorChangeConfirmed').map((event) => event.data.method)).toEqual([
      'password',
      'password',
      'authenticator-app',
    ]);
  });

  it('confirms a first factor by a recent sign-in for an account with no password, and not after five minutes', async () => {
    const email = `passwordless-${randomUUID().slice(0, 8)}@two-step.example`;
    const userId = await app.createUser({ email });
    const session = await app.identity.sessions.open(userId, 'sso', {
      actor: `user:${userId}`,
      correlationId: randomUUID(),
      causationId: randomUUID(),
      origin: {},
    });
    const browser = app.browser();
    browser.cookies.set('__Host-chorus_session', session.cookieValue);
    await browser.open('/app/account');
    expect((await browser.get('/account/two-step')).body).toMatchObject({ confirmWith: 'recent-sign-in' });
    app.clock.advance(5 * 60_000 + 1_000);
    const late = await browser.post('/account/two-step/authenticator-app');
    const refused = await browser.request('PUT', '/account/two-step/authenticator-app', {
      json: { setup: late.body.setup, code: await codeNow(late.body.secret) },
    });
    expect(refused.body).toMatchObject({ status: 403, code: 'REAUTHENTICATION_REQUIRED' });
    const fresh = await app.identity.sessions.open(userId, 'sso', {
      actor: `user:${userId}`,
      correlationId: randomUUID(),
      causationId: randomUUID(),
      origin: {},
    });
    browser.cookies.set('__Host-chorus_session', fresh.cookieValue);
    await browser.open('/app/account');
    const started = await browser.post('/account/two-step/authenticator-app');
    const confirmed = await browser.request('PUT', '/account/two-step/authenticator-app', {
      json: { setup: started.body.setup, code: await codeNow(started.body.secret) },
    });
    expect(confirmed.status).toBe(200);
    await inbox.mailTo(email, 'an authenticator app was set up');
  });
});

describe('guesses at the second step', () => {
  it('60 wrong codes at once: at most 10 are checked, the rest are refused before any check', async () => {
    const user = await newUser('guessed');
    const { secret } = await setUpApp(await app.signedIn(user.email, password));
    const browsers = await Promise.all(Array.from({ length: 6 }, () => halfOpen(user.email)));
    const right = await codeNow(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        (browsers[index % 6] as Browser).post('/session/second-step/code', { code: wrong }),
      ),
    );
    expect(answers.every((answer) => answer.status === 400 || answer.status === 429)).toBe(true);
    const failed = (await userEvents(user.userId)).filter((event) => event.type === 'SecondStepFailed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThanOrEqual(10);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(failed.length);
    // Locked now: even the right code is refused until the lock passes.
    expect((await (browsers[0] as Browser).post('/session/second-step/code', { code: right })).status).toBe(429);
  });
});

describe("an organization's requirement", () => {
  let owner: { userId: string; email: string };
  let member: { userId: string; email: string };
  let organizationId: string;
  let ownerBrowser: Browser;

  beforeAll(async () => {
    owner = await newUser('owner');
    member = await newUser('member');
    organizationId = await app.createOrganization(`Careful ${randomUUID().slice(0, 6)}`, owner);
    const added = await app.app
      .get(CommandBus)
      .execute(
        new AddMemberCommand(
          organizationId,
          { email: member.email, role: 'member', userId: member.userId },
          { actor: 'cli', correlationId: randomUUID(), causationId: randomUUID(), origin: {} },
        ),
      );
    await app.app.get<ReadModels>(READ_MODELS).waitForPosition(added.position, 5_000);
    ownerBrowser = await app.signedIn(owner.email, password);
  });

  it('only an owner sets it; a member without a factor then sets one up right after the password, and only then is signed in', async () => {
    const memberBrowser = await app.signedIn(member.email, password);
    expect(
      (
        await memberBrowser.request('PUT', `/organizations/${organizationId}/two-step-sign-in`, {
          json: { required: true },
        })
      ).status,
    ).toBe(403);
    const set = await ownerBrowser.request('PUT', `/organizations/${organizationId}/two-step-sign-in`, {
      json: { required: true },
    });
    expect(set.status).toBe(200);
    await app.app.get<ReadModels>(READ_MODELS).waitForPosition(BigInt(set.body.position), 5_000);
    expect((await ownerBrowser.get(`/organizations/${organizationId}`)).body.twoStepSignIn).toEqual({ required: true });

    const browser = await halfOpen(member.email);
    expect((await browser.get('/session')).status).toBe(401);
    const status = await browser.get('/session/second-step');
    expect(status.body).toMatchObject({ awaiting: 'enrolment', methods: { authenticatorApp: false, passkeys: 0 } });
    expect(status.body.requiredBy).toHaveLength(1);
    // Nothing to prove yet: codes are refused, setting up is the way.
    expect((await browser.post('/session/second-step/code', { code: '123456' })).status).toBe(403);
    const started = await browser.post('/session/second-step/authenticator-app');
    const confirmed = await browser.request('PUT', '/session/second-step/authenticator-app', {
      json: { setup: started.body.setup, code: await codeNow(started.body.secret) },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect((await browser.get('/session')).body.user.email).toBe(member.email);

    // The last factor stays while the organization requires it.
    expect((await browser.delete('/account/two-step/authenticator-app')).body).toMatchObject({
      status: 409,
      code: 'TWO_STEP_REQUIRED',
    });
    const listed = await ownerBrowser.get(`/organizations/${organizationId}/two-step-sign-in`);
    expect(listed.body.members).toEqual(
      expect.arrayContaining([expect.objectContaining({ userId: member.userId, secondFactor: true })]),
    );
    // The count covers everyone, whichever page is read; a page is read as the members' own pages are.
    const without = (listed.body.members as { secondFactor: boolean }[]).filter((one) => !one.secondFactor).length;
    expect(listed.body).toMatchObject({ total: listed.body.members.length, next: null, withoutSecondFactor: without });
    const found = await ownerBrowser.get(
      `/organizations/${organizationId}/two-step-sign-in?limit=1&q=${encodeURIComponent(member.email.toUpperCase())}`,
    );
    expect(found.body).toEqual({
      required: true,
      members: [{ userId: member.userId, email: member.email, role: 'member', secondFactor: true }],
      total: 1,
      next: null,
      withoutSecondFactor: without,
    });
    const first = await ownerBrowser.get(`/organizations/${organizationId}/two-step-sign-in?limit=1`);
    expect(first.body).toMatchObject({ total: listed.body.members.length, withoutSecondFactor: without });
    expect(first.body.members).toEqual([listed.body.members[0]]);
    const second = await ownerBrowser.get(
      `/organizations/${organizationId}/two-step-sign-in?limit=1&after=${first.body.next}`,
    );
    expect(second.body.members).toEqual([listed.body.members[1]]);
    for (const bad of ['limit=0', 'after=eA', 'q=', 'page=2'])
      expect((await ownerBrowser.get(`/organizations/${organizationId}/two-step-sign-in?${bad}`)).status).toBe(400);
  });

  it('someone invited who chooses a password sets a factor up before anything else', async () => {
    const email = `newcomer-${randomUUID().slice(0, 6)}@two-step.example`;
    expect(
      (await ownerBrowser.post(`/organizations/${organizationId}/members`, { email, role: 'member' })).status,
    ).toBe(201);
    const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(unfolded(await inbox.mailTo(email, '/invite/')))?.[1] as string;
    const browser = app.browser();
    await browser.open(`/invite/${token}`);
    expect((await browser.post('/invitations/accept', { token, password })).status).toBe(204);
    expect((await browser.get('/session')).status).toBe(401);
    expect((await browser.open('/app')).location).toBe('/login/verify?redirect=%2Fapp');
    expect((await browser.get('/session/second-step')).body).toMatchObject({ awaiting: 'enrolment', email });
  });

  it("an owner asks to reset a member's factors: the member agrees by the mailed link with their password; no one reaches someone outside", async () => {
    const stranger = await newUser('stranger');
    const { secret: strangersSecret } = await setUpApp(await app.signedIn(stranger.email, password));
    const refused = await ownerBrowser.delete(
      `/organizations/${organizationId}/two-step-sign-in/members/${stranger.userId}`,
    );
    expect(refused.status).toBe(404);
    expect((await userEvents(stranger.userId)).some((event) => event.type === 'SecondFactorsReset')).toBe(false);
    const untouched = (await userEvents(member.userId)).filter((event) => event.type === 'SecondFactorsReset');

    // The owner of another organization, fully signed in: not over this one's members, nor through their own.
    const strangersOwn = await app.createOrganization(`Elsewhere ${randomUUID().slice(0, 6)}`, stranger);
    const strangerBrowser = await halfOpen(stranger.email);
    expect(
      (await strangerBrowser.post('/session/second-step/code', { code: await codeNow(strangersSecret) })).status,
    ).toBe(204);
    expect(
      (await strangerBrowser.delete(`/organizations/${organizationId}/two-step-sign-in/members/${member.userId}`))
        .status,
    ).toBe(403);
    expect(
      (await strangerBrowser.delete(`/organizations/${strangersOwn}/two-step-sign-in/members/${member.userId}`)).status,
    ).toBe(404);

    expect((await userEvents(member.userId)).filter((event) => event.type === 'SecondFactorsReset')).toEqual(untouched);
    // An owner cannot reset their own factors here: the Account page asks for the password or a code.
    expect(
      (await ownerBrowser.delete(`/organizations/${organizationId}/two-step-sign-in/members/${owner.userId}`)).body,
    ).toMatchObject({ status: 403, code: 'FORBIDDEN' });

    // The organization does not answer for the member's account (no SSO of its made it, no verified domain): only
    // asked.
    const asked = await ownerBrowser.delete(
      `/organizations/${organizationId}/two-step-sign-in/members/${member.userId}`,
    );
    expect(asked.body).toEqual({ outcome: 'confirmation-mailed' });
    expect((await userEvents(member.userId)).some((event) => event.type === 'SecondFactorsResetRequested')).toBe(true);
    expect((await userEvents(member.userId)).filter((event) => event.type === 'SecondFactorsReset')).toEqual(untouched);
    const token = /\/two-step-reset\/([A-Za-z0-9_-]+)/.exec(
      unfolded(await inbox.mailTo(member.email, '/two-step-reset/')),
    )?.[1] as string;
    const agreeing = app.browser();
    expect((await agreeing.open(`/two-step-reset/${token}`)).status).toBe(200);
    expect((await agreeing.post('/two-step-reset/validity', { token })).body).toEqual({
      valid: true,
      organizationName: expect.stringMatching(/^Careful /),
      passwordRequired: true,
    });
    expect((await agreeing.post('/two-step-reset', { token, password: 'not the password' })).body).toMatchObject({
      status: 400,
      code: 'WRONG_PASSWORD',
    });
    expect((await agreeing.post('/two-step-reset', { token })).body).toMatchObject({
      status: 400,
      code: 'WRONG_PASSWORD',
    });
    expect((await userEvents(member.userId)).filter((event) => event.type === 'SecondFactorsReset')).toEqual(untouched);
    expect((await agreeing.post('/two-step-reset', { token, password })).status).toBe(204);
    await inbox.mailTo(member.email, 'as you confirmed, the second factors');
    const reset = (await userEvents(member.userId)).find((event) => event.type === 'SecondFactorsReset');
    expect(reset?.data).toMatchObject({ organizationId, authority: 'confirmed-by-person' });
    expect((await agreeing.post('/two-step-reset', { token, password })).body).toMatchObject({
      status: 400,
      code: 'INVALID_TOKEN',
    });
    expect((await agreeing.post('/two-step-reset/validity', { token })).body).toEqual({ valid: false });
    const next = await halfOpen(member.email);
    expect((await next.get('/session/second-step')).body.awaiting).toBe('enrolment');
  });

  it("lets no owner strip a stranger's factors by adding them to their own organization, nor a key of that organization", async () => {
    const victim = await newUser('victim');
    const { secret: victimsSecret } = await setUpApp(await app.signedIn(victim.email, password));
    const attacker = await newUser('attacker');
    const attackers = await app.createOrganization(`Attackers ${randomUUID().slice(0, 6)}`, attacker);
    const attackerBrowser = await app.signedIn(attacker.email, password);
    const added = await attackerBrowser.post(`/organizations/${attackers}/members`, {
      email: victim.email,
      role: 'member',
    });
    expect(added.status).toBe(201);
    const key = await createApiKey(app.app, ['organizations:read', 'organizations:write'], 'attacker', attackers);
    const byKey = await httpClient(app.baseUrl, { apiKey: key }).delete(
      `/organizations/${attackers}/two-step-sign-in/members/${victim.userId}`,
    );
    const bySession = await attackerBrowser.delete(
      `/organizations/${attackers}/two-step-sign-in/members/${victim.userId}`,
    );
    expect([byKey.body, bySession.body]).toEqual([
      { outcome: 'confirmation-mailed' },
      { outcome: 'confirmation-mailed' },
    ]);
    // The factors stay: the password alone still does not sign the victim in.
    expect((await userEvents(victim.userId)).some((event) => event.type === 'SecondFactorsReset')).toBe(false);
    const signingIn = await halfOpen(victim.email);
    expect((await signingIn.get('/session')).status).toBe(401);
    expect((await signingIn.post('/session/second-step/code', { code: await codeNow(victimsSecret) })).status).toBe(
      204,
    );
  });

  it("lists the members' two-step sign-in for the organization's auditors, in words, and nobody else's", async () => {
    const history = await ownerBrowser.get(`/organizations/${organizationId}/history/sign-in-security`);
    expect(history.status).toBe(200);
    const lines = (history.body.entries as { description: string; member: { email: string }; actorName: string }[]).map(
      ({ description, member: { email }, actorName }) => `${email}: ${description} (${actorName})`,
    );
    expect(lines).toEqual([
      `${member.email}: Two-step sign-in reset at an owner’s request, confirmed by the person: every second factor removed (${member.email})`,
      `${member.email}: An owner asked to reset two-step sign-in: nothing changes unless the person confirms the mailed link (${owner.email})`,
      `${member.email}: Signed in after setting up two-step sign-in (${member.email})`,
      `${member.email}: Recovery codes made: ten new codes, any earlier ones no longer work (${member.email})`,
      `${member.email}: Authenticator app set up (${member.email})`,
    ]);
    // The stranger set an app up too, but is no member here; someone signed in who is no member may not read it.
    expect(lines.some((line) => line.includes('stranger'))).toBe(false);
    const outsider = await newUser('outsider');
    const outsiders = await app.signedIn(outsider.email, password);
    expect((await outsiders.get('/session')).status).toBe(200);
    expect((await outsiders.get(`/organizations/${organizationId}/history/sign-in-security`)).body).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    const paged = await ownerBrowser.get(`/organizations/${organizationId}/history/sign-in-security?limit=3`);
    expect(paged.body.entries).toHaveLength(3);
    const rest = await ownerBrowser.get(
      `/organizations/${organizationId}/history/sign-in-security?limit=3&before=${paged.body.next}`,
    );
    expect(rest.body.next).toBeNull();
    expect((rest.body.entries as { description: string }[]).map(({ description }) => description)).toEqual([
      'Recovery codes made: ten new codes, any earlier ones no longer work',
      'Authenticator app set up',
    ]);
  });
});
