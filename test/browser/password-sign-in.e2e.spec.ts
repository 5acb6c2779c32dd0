// Password sign-in in real Chromium against the real server: the login screen's texts, redirects,
// the failure message and recovery, the query's error messages, the migration notice, the XSRF header.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Request } from 'playwright-core';
import { repositoryRoot, startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { launchChromium, type TestBrowser } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { errorMessages, loginTexts } from './support/seed-texts.js';
import { loginScreen, pathOf, sessionOf, textOnceShown, visibleText, visit } from './support/sign-in-screens.js';

const product = 'Acme Voice';
const ada = { email: 'ada@example.com', username: 'ada', password: 'violet-harbor-4821' };

let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;

const started = () => {
  if (server === undefined || browser === undefined)
    throw new Error('The server or the browser did not start (see beforeAll)');
  return { server, browser };
};

async function openLogin(path: string) {
  const { server, browser } = started();
  const { context, page } = await browser.newPage();
  await visit(page, `${server.baseUrl}${path}`);
  const screen = loginScreen(page);
  // The SPA has rendered once its heading is there.
  await screen.heading.waitFor();
  return { context, page, screen, baseUrl: server.baseUrl };
}

beforeAll(async () => {
  browser = await launchChromium();
  // A product name other than the default shows that the server writes its configuration into the page.
  server = await startChorusServer({ PRODUCT_NAME: product });
  // A member of an organization: without a redirect, the login lands in its console (docs/console.md, Routes).
  await server.createUser({ ...ada, organizationId: await server.createOrganization('Acme', 'acme'), role: 'member' });
  mkdirSync(join(repositoryRoot, '.ci', 'artifacts', 'screenshots'), { recursive: true });
}, 90_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server);
}, 30_000);

describe('the login screen', () => {
  it("shows the seed's texts, with the product name the server configured", async () => {
    const { page, screen } = await openLogin('/login');

    expect(await visibleText(screen.heading)).toBe(loginTexts.heading(product));
    expect(await visibleText(page.getByText(loginTexts.subHeading, { exact: true }))).toBe(loginTexts.subHeading);
    expect(await screen.username.getAttribute('type')).toBe('email');
    expect(await screen.password.getAttribute('type')).toBe('password');
    expect(await screen.forgotLink.getAttribute('href')).toBe('/forgot');
    expect(await visibleText(screen.logIn)).toBe(loginTexts.logIn);
    expect(await page.getByText(loginTexts.divider.trim(), { exact: true }).textContent()).toBe(loginTexts.divider);
    expect(await visibleText(screen.google)).toBe(loginTexts.google);
    expect(await screen.message.textContent()).toBe('');
  }, 30_000);
});

describe('logging in with a user created by the command line', () => {
  it('lands on the redirect target, signed in', async () => {
    const { context, page, screen, baseUrl } = await openLogin('/login?redirect=/welcome');

    await screen.username.fill(ada.email);
    await screen.password.fill(ada.password);
    await screen.logIn.click();

    await page.waitForURL(`${baseUrl}/welcome`);
    expect(pathOf(page)).toBe('/welcome');
    expect(await sessionOf(context, baseUrl)).toMatchObject({ status: 200, email: ada.email });
  }, 30_000);

  it('keeps the query of the redirect target', async () => {
    const { page, screen, baseUrl } = await openLogin(`/login?redirect=${encodeURIComponent('/welcome?tab=sites')}`);

    await screen.username.fill(ada.email);
    await screen.password.fill(ada.password);
    await screen.logIn.click();

    await page.waitForURL(`${baseUrl}/welcome?tab=sites`);
    expect(pathOf(page)).toBe('/welcome?tab=sites');
  }, 30_000);

  it("lands on / without a redirect, which is the console of the user's organization, also with the username instead of the e-mail", async () => {
    const { context, page, screen, baseUrl } = await openLogin('/login');

    await screen.username.fill(ada.username);
    await screen.password.fill(ada.password);
    await screen.logIn.click();

    // `/` with a live session answers 302 /app, and /app shows the only organization's overview.
    await page.waitForURL(`${baseUrl}/app/orgs/acme`);
    expect(pathOf(page)).toBe('/app/orgs/acme');
    expect(await sessionOf(context, baseUrl)).toMatchObject({ status: 200, email: ada.email });
  }, 30_000);

  it('lands on / (the console) when the redirect names another site', async () => {
    const { page, screen, baseUrl } = await openLogin(
      `/login?redirect=${encodeURIComponent('//evil.example/welcome')}`,
    );

    await screen.username.fill(ada.email);
    await screen.password.fill(ada.password);
    await screen.logIn.click();

    await page.waitForURL(`${baseUrl}/app/orgs/acme`);
    expect(pathOf(page)).toBe('/app/orgs/acme');
  }, 30_000);
});

describe('a wrong password', () => {
  it("shows 'Incorrect username or password.' after a busy button, and the right password then gets in (Enter submits)", async () => {
    const { context, page, screen, baseUrl } = await openLogin('/login?redirect=/welcome');
    // Hold the first POST /login so the processing state can be seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/login', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });

    await screen.username.fill(ada.email);
    await screen.password.fill('not-the-password-1');
    await screen.logIn.click();

    await page.getByRole('button', { name: loginTexts.logIn, exact: true, disabled: true }).waitFor();
    expect(await screen.logIn.isDisabled()).toBe(true);
    expect(await screen.logIn.getAttribute('aria-busy')).toBe('true');
    // Nothing else to press or change while the credentials are checked; what was typed stays in view.
    expect({
      username: await screen.username.isDisabled(),
      password: await screen.password.isDisabled(),
      google: await screen.google.isDisabled(),
    }).toEqual({
      username: true,
      password: true,
      google: true,
    });
    expect(await screen.username.inputValue()).toBe(ada.email);
    await page.screenshot({ path: join(repositoryRoot, '.ci', 'artifacts', 'screenshots', 'login-busy-1280x800.png') });
    release();

    expect(await textOnceShown(screen.message, errorMessages.login)).toBe(errorMessages.login);
    expect(await screen.logIn.isEnabled()).toBe(true);
    expect(await screen.username.isEnabled()).toBe(true);
    expect(await screen.google.isEnabled()).toBe(true);
    expect(pathOf(page)).toBe('/login?redirect=/welcome');
    expect((await sessionOf(context, baseUrl)).status).toBe(401);

    await page.unroute('**/login');
    await screen.password.fill(ada.password);
    await screen.password.press('Enter');

    await page.waitForURL(`${baseUrl}/welcome`);
    expect(await sessionOf(context, baseUrl)).toMatchObject({ status: 200, email: ada.email });
  }, 30_000);

  it('for an unknown user shows the same message', async () => {
    const { screen } = await openLogin('/login');

    await screen.username.fill('nobody@example.com');
    await screen.password.fill(ada.password);
    await screen.logIn.click();

    expect(await textOnceShown(screen.message, errorMessages.login)).toBe(errorMessages.login);
  }, 30_000);
});

describe('the error query parameter', () => {
  it.each([
    ['google', errorMessages.google],
    ['sso', errorMessages.sso],
    ['account', errorMessages.account],
  ])(
    "error=%s shows the seed's message",
    async (error, message) => {
      const { screen } = await openLogin(`/login?error=${error}`);

      expect(await textOnceShown(screen.message, message)).toBe(message);
    },
    30_000,
  );

  it('is read from the query, never from the path', async () => {
    const { screen } = await openLogin('/login/google?error=sso');

    expect(await textOnceShown(screen.message, errorMessages.sso)).toBe(errorMessages.sso);
  }, 30_000);

  it.each(['/login/google', '/login/account', '/login?error=unknown'])(
    '%s shows no error',
    async (path) => {
      const { screen } = await openLogin(path);

      expect(await visibleText(screen.heading)).toBe(loginTexts.heading(product));
      expect(await screen.message.textContent()).toBe('');
    },
    30_000,
  );
});

describe('the from_rns marker', () => {
  it.each(['/login?from_rns', '/?redirect=%2Fwelcome&from_rns=1', '/login?source=came_from_rns_mail'])(
    '%s shows the three sentences of the migration notice',
    async (path) => {
      const { page } = await openLogin(path);

      for (const sentence of loginTexts.migrated(product)) {
        expect(await visibleText(page.getByText(sentence, { exact: true }))).toBe(sentence);
      }
    },
    30_000,
  );

  it('without the marker there is no notice', async () => {
    const { page } = await openLogin('/login?redirect=%2Fwelcome');

    for (const sentence of loginTexts.migrated(product)) expect(await page.getByText(sentence).count()).toBe(0);
  }, 30_000);
});

describe('XSRF', () => {
  it('POST /login carries X-XSRF-TOKEN equal to the XSRF-TOKEN cookie the page set', async () => {
    const { context, page, screen, baseUrl } = await openLogin('/login?redirect=/welcome');
    const logins: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/login') logins.push(request);
    });
    const pageCookie = (await context.cookies(baseUrl)).find((cookie) => cookie.name === 'XSRF-TOKEN');

    await screen.username.fill(ada.email);
    await screen.password.fill(ada.password);
    await screen.logIn.click();
    await page.waitForURL(`${baseUrl}/welcome`);

    expect(pageCookie).toMatchObject({ httpOnly: false, sameSite: 'Lax' });
    expect(logins).toHaveLength(1);
    const [login] = logins as [Request];
    const headers = await login.allHeaders();
    const sentCookie = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(headers.cookie ?? '')?.[1];
    expect(headers['x-xsrf-token']).toMatch(/\S{16,}/);
    expect(headers['x-xsrf-token']).toBe(decodeURIComponent(sentCookie ?? ''));
    expect(headers['x-xsrf-token']).toBe(decodeURIComponent(pageCookie?.value ?? ''));
    const status = (await login.response())?.status() ?? 0;
    expect(status >= 200 && status < 300 ? 'success' : `status ${status}`).toBe('success');
  }, 30_000);
});
