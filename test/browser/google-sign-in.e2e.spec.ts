// Google sign-in in real Chromium: the button's full-page navigation to /auth/go/<token>, oauth2-mock-server
// standing in for Google, and the server's rules (link a member by a verified e-mail, else /login?error=...).
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { launchChromium, type TestBrowser } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { googleClientId, startGoogleMock, type GoogleMock } from './support/google-mock.js';
import { errorMessages } from './support/seed-texts.js';
import { loginScreen, pathOf, sessionOf, textOnceShown, visit } from './support/sign-in-screens.js';

/** GOOGLE_SIGN_IN_TOKEN: the page carries it and the button appends it to /auth/go/. */
const signInToken = 'tenant-7';
const grace = { email: 'grace@example.com', password: 'saffron-meadow-6402', google: 'google-subject-grace' };
const hugo = { email: 'hugo@example.com', password: 'pewter-canyon-1189' };
const ines = { email: 'ines@example.com', password: 'cobalt-prairie-2746', google: 'google-subject-ines' };
const solo = { email: 'solo@example.com', password: 'amber-thicket-5570' };

let google: GoogleMock | undefined;
let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;

const started = () => {
  if (server === undefined || browser === undefined || google === undefined)
    throw new Error('The server, the Google mock or the browser did not start (see beforeAll)');
  return { server, browser, google };
};

/** The URL of every page the browser navigates to, redirects included. */
function navigations(page: Page): URL[] {
  const urls: URL[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) urls.push(new URL(request.url()));
  });
  return urls;
}

async function clickGoogle(path: string) {
  const { server, browser } = started();
  const { context, page } = await browser.newPage();
  const visited = navigations(page);
  await visit(page, `${server.baseUrl}${path}`);
  await loginScreen(page).google.click();
  return { context, page, visited, baseUrl: server.baseUrl };
}

beforeAll(async () => {
  browser = await launchChromium();
  google = await startGoogleMock();
  server = await startChorusServer({ ...google.settings, GOOGLE_SIGN_IN_TOKEN: signInToken });
  const acme = await server.createOrganization('Acme', 'acme');
  await server.createUser({ email: grace.email, password: grace.password, organizationId: acme, role: 'member' });
  await server.createUser({ email: hugo.email, password: hugo.password, organizationId: acme, role: 'member' });
  await server.createUser({ email: ines.email, password: ines.password, organizationId: acme, role: 'admin' });
  await server.createUser({ email: solo.email, password: solo.password });
}, 90_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server, google);
}, 30_000);

describe('Sign in with Google', () => {
  it("goes to /auth/go/<token>, through the mock's consent page and back, signed in at the redirect (a member's verified e-mail)", async () => {
    started().google.signInAs({ sub: grace.google, email: grace.email, email_verified: true });

    const { context, page, visited, baseUrl } = await clickGoogle('/login?redirect=/welcome');

    await page.waitForURL(`${baseUrl}/welcome`);
    const start = visited.find((url) => url.pathname.startsWith('/auth/go/'));
    expect(start?.href).toBe(`${baseUrl}/auth/go/${signInToken}?redirect=%2Fwelcome`);
    const consent = visited.find((url) => url.origin === started().google.origin);
    expect(consent?.pathname).toBe('/authorize');
    expect(Object.fromEntries(consent?.searchParams ?? [])).toMatchObject({
      client_id: googleClientId,
      redirect_uri: `${baseUrl}/auth/google/callback`,
      response_type: 'code',
      state: expect.stringMatching(/\S{16,}/),
    });
    expect(visited.some((url) => url.origin === baseUrl && url.pathname === '/auth/google/callback')).toBe(true);
    expect(await sessionOf(context, baseUrl)).toEqual({ status: 200, email: grace.email, organizations: ['acme'] });
  }, 30_000);

  it('links the account on the first sign-in and finds it by its Google id on the next (lands on /, the console, without a redirect)', async () => {
    started().google.signInAs({ sub: ines.google, email: ines.email, email_verified: true });
    const first = await clickGoogle('/login');
    await first.page.waitForURL(`${first.baseUrl}/app/orgs/acme`);
    await started().browser.closePages();

    // The e-mail Google reports no longer matters once the Google id is linked.
    started().google.signInAs({ sub: ines.google, email: 'ines.new-address@example.com', email_verified: false });
    const { context, page, baseUrl } = await clickGoogle('/login');

    await page.waitForURL(`${baseUrl}/app/orgs/acme`);
    expect(pathOf(page)).toBe('/app/orgs/acme');
    expect(await sessionOf(context, baseUrl)).toMatchObject({ status: 200, email: ines.email });
  }, 30_000);

  it("an unknown Google account lands on /login?error=account with the seed's message", async () => {
    started().google.signInAs({ sub: 'google-subject-stranger', email: 'stranger@example.com', email_verified: true });

    const { context, page, baseUrl } = await clickGoogle('/login?redirect=/welcome');

    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('error'));
    expect(pathOf(page)).toBe('/login?error=account');
    expect(await textOnceShown(loginScreen(page).message, errorMessages.account)).toBe(errorMessages.account);
    expect((await sessionOf(context, baseUrl)).status).toBe(401);
  }, 30_000);

  it("a member's e-mail that Google has not verified is not linked: /login?error=account", async () => {
    started().google.signInAs({ sub: 'google-subject-impostor', email: hugo.email, email_verified: false });

    const { context, page, baseUrl } = await clickGoogle('/login');

    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('error'));
    expect(pathOf(page)).toBe('/login?error=account');
    expect((await sessionOf(context, baseUrl)).status).toBe(401);
  }, 30_000);

  it("a user who belongs to no organization lands on /login?error=account with the seed's message", async () => {
    started().google.signInAs({ sub: 'google-subject-solo', email: solo.email, email_verified: true });

    const { context, page, baseUrl } = await clickGoogle('/login');

    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('error'));
    expect(pathOf(page)).toBe('/login?error=account');
    expect(await textOnceShown(loginScreen(page).message, errorMessages.account)).toBe(errorMessages.account);
    expect((await sessionOf(context, baseUrl)).status).toBe(401);
  }, 30_000);

  it("cancelling on Google's consent page lands on /login?error=google with the seed's message", async () => {
    started().google.denyConsent();

    const { context, page, baseUrl } = await clickGoogle('/login?redirect=/welcome');

    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('error'));
    expect(pathOf(page)).toBe('/login?error=google');
    expect(await textOnceShown(loginScreen(page).message, errorMessages.google)).toBe(errorMessages.google);
    expect((await sessionOf(context, baseUrl)).status).toBe(401);
  }, 30_000);
});
