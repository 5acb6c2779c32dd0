// POST /forgot and /reset (docs/api.md, Sign-in) with the mail delivered to a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { resetTokenIn, SmtpInbox, unfolded } from '../support/smtp-inbox.js';

const oldPassword = 'correct horse battery staple';
let inbox: SmtpInbox;
let app: AuthApp;

beforeAll(async () => {
  inbox = await SmtpInbox.start();
  app = await startAuthApp({ SMTP_URL: inbox.url, PUBLIC_URL: 'https://chorus.example' });
});
afterAll(async () => {
  await app.close();
  await inbox.close();
});

/** A browser on a page of the SPA, so it holds the XSRF token the forms send. */
async function onPage(path = '/forgot'): Promise<Browser> {
  const browser = app.browser();
  await browser.open(path);
  return browser;
}

async function signIn(email: string, password: string): Promise<Browser> {
  const browser = await onPage('/login');
  expect((await browser.post('/login', { username: email, password })).status).toBe(204);
  return browser;
}

async function requestLink(email: string): Promise<string> {
  const mail = inbox.next();
  expect((await (await onPage()).post('/forgot', { email })).status).toBe(202);
  return resetTokenIn(await mail);
}

describe('POST /forgot', () => {
  it('answers 202 with the same body for a known and an unknown address; only the known one gets mail', async () => {
    await app.createUser({ email: 'ada@example.com', password: oldPassword });
    const mail = inbox.next();
    const unknown = await (await onPage()).post('/forgot', { email: 'nobody@example.com' });
    const known = await (await onPage()).post('/forgot', { email: 'ADA@example.com' });
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    const { correlationId: _first, ...unknownBody } = unknown.body as Record<string, unknown>;
    const { correlationId: _second, ...knownBody } = known.body as Record<string, unknown>;
    expect(knownBody).toEqual(unknownBody);
    const received = await mail;
    expect(received.to).toEqual(['ada@example.com']);
    expect(unfolded(received)).toMatch(/https:\/\/chorus\.example\/reset\/[A-Za-z0-9_-]{64}/);
    expect(inbox.received.filter((message) => message.to.includes('nobody@example.com'))).toEqual([]);
  });

  it('answers an address that is not an e-mail address the same way', async () => {
    const answer = await (await onPage()).post('/forgot', { email: 'not an address' });
    expect(answer.status).toBe(202);
  });
});

describe('POST /reset', () => {
  it('sets the new password with the link from the mail, once; the link then no longer works', async () => {
    await app.createUser({ email: 'grace@example.com', password: oldPassword });
    const token = await requestLink('grace@example.com');
    const page = await onPage(`/reset/${token}`);
    expect((await page.post('/reset', { token, password: 'a brand new passphrase' })).status).toBe(204);
    await signIn('grace@example.com', 'a brand new passphrase');
    const again = await page.post('/reset', { token, password: 'yet another passphrase' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('refuses a link after an hour, and a made-up token', async () => {
    await app.createUser({ email: 'hopper@example.com', password: oldPassword });
    const token = await requestLink('hopper@example.com');
    app.clock.advance(60 * 60_000);
    const page = await onPage(`/reset/${token}`);
    expect((await page.post('/reset', { token, password: 'a brand new passphrase' })).body).toMatchObject({
      status: 400,
      code: 'INVALID_TOKEN',
    });
    expect(
      (await page.post('/reset', { token: 'A'.repeat(64), password: 'a brand new passphrase' })).body,
    ).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('refuses a weak password with 400 VALIDATION_FAILED and the policy message, keeping the link usable', async () => {
    await app.createUser({ email: 'lovelace@example.com', password: oldPassword });
    const token = await requestLink('lovelace@example.com');
    const page = await onPage(`/reset/${token}`);
    const weak = await page.post('/reset', { token, password: 'password1' });
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      detail: 'This password is one of the most common (breached) passwords; choose another.',
      errors: [{ pointer: '#/password', detail: expect.any(String) }],
    });
    expect((await page.post('/reset', { token, password: 'a brand new passphrase' })).status).toBe(204);
  });

  it('ends every other session of the user', async () => {
    await app.createUser({ email: 'babbage@example.com', password: oldPassword });
    const laptop = await signIn('babbage@example.com', oldPassword);
    const phone = await signIn('babbage@example.com', oldPassword);
    const token = await requestLink('babbage@example.com');
    expect(
      (await (await onPage(`/reset/${token}`)).post('/reset', { token, password: 'a brand new passphrase' })).status,
    ).toBe(204);
    expect((await laptop.get('/session')).status).toBe(401);
    expect((await phone.get('/session')).status).toBe(401);
  });

  it('lifts a sign-in lock: the owner of a locked account can always reset', async () => {
    await app.createUser({ email: 'locked@example.com', password: oldPassword });
    for (let attempt = 0; attempt < 10; attempt += 1)
      await (await onPage('/login')).post('/login', { username: 'locked@example.com', password: 'guess' });
    expect(
      (await (await onPage('/login')).post('/login', { username: 'locked@example.com', password: oldPassword })).status,
    ).toBe(429);
    const token = await requestLink('locked@example.com');
    expect(
      (await (await onPage(`/reset/${token}`)).post('/reset', { token, password: 'a brand new passphrase' })).status,
    ).toBe(204);
    await signIn('locked@example.com', 'a brand new passphrase');
  });
});

describe('POST /reset/validity', () => {
  it('answers whether the link works, without using it: true until the reset, false after', async () => {
    await app.createUser({ email: 'liskov@example.com', password: oldPassword });
    const token = await requestLink('liskov@example.com');
    const page = await onPage(`/reset/${token}`);
    const head = await app.store.headPosition();

    const valid = await page.post('/reset/validity', { token });
    expect(valid.status).toBe(200);
    expect(valid.body).toEqual({ valid: true });
    expect(valid.headers.get('cache-control')).toBe('no-store');
    expect((await page.post('/reset/validity', { token })).body).toEqual({ valid: true });
    expect(await app.store.headPosition()).toBe(head);

    expect((await page.post('/reset', { token, password: 'a brand new passphrase' })).status).toBe(204);
    expect((await page.post('/reset/validity', { token })).body).toEqual({ valid: false });
  });

  it('answers the same for an expired link, a guessed secret of a real user, an unknown user and a malformed token', async () => {
    await app.createUser({ email: 'dijkstra@example.com', password: oldPassword });
    const token = await requestLink('dijkstra@example.com');
    app.clock.advance(60 * 60_000);
    const guessedSecret = `${token.slice(0, 22)}${'A'.repeat(42)}`;
    const unknownUser = `${'B'.repeat(22)}${token.slice(22)}`;
    const page = await onPage(`/reset/${token}`);

    const answers = [];
    for (const guess of [token, guessedSecret, unknownUser, 'A'.repeat(64), 'not a token', '']) {
      const answer = await page.post('/reset/validity', { token: guess });
      answers.push({
        status: answer.status,
        body: answer.body as unknown,
        contentType: answer.headers.get('content-type'),
      });
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(new Set([JSON.stringify(answers[0])]));
    expect(answers[0]).toEqual({ status: 200, body: { valid: false }, contentType: 'application/json; charset=utf-8' });
  });

  it.each([
    ['no token', {}],
    ['a token that is not a string', { token: 42 }],
    ['a token over 200 characters', { token: 'A'.repeat(201) }],
    ['an unknown field', { token: 'A'.repeat(64), password: 'x' }],
  ])('refuses %s with 400 VALIDATION_FAILED as problem+json', async (_, body) => {
    const answer = await (await onPage('/reset/x')).post('/reset/validity', body);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
  });

  it('like every POST, asks a signed-in browser for its XSRF token', async () => {
    await app.createUser({ email: 'hoare@example.com', password: oldPassword });
    const browser = await signIn('hoare@example.com', oldPassword);
    const answer = await browser.post('/reset/validity', { token: 'A'.repeat(64) }, { xsrf: false });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'XSRF_INVALID' });
  });
});

describe('reset requests from one address', () => {
  it('are refused with 429 RATE_LIMITED after ten in 15 minutes, known address or not', async () => {
    app.clock.advance(60 * 60_000);
    let last = 0;
    for (let request = 0; request < 11; request += 1)
      last = (await (await onPage()).post('/forgot', { email: `someone${request}@example.com` })).status;
    expect(last).toBe(429);
  });
});
