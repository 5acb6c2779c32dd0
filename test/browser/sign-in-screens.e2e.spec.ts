// Every sign-in screen as served by the real server, in real Chromium: an axe-core scan with no
// violations, no script error or CSP refusal, the layout at desktop and phone widths (the logo in one
// place on every screen, no blank space where no message is, each screen's title), and screenshots of
// every screen and state saved under .ci/artifacts/screenshots/.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { accessibilityViolations } from './support/accessibility.js';
import { repositoryRoot, startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { resetLinkInOutbox } from './support/outbox.js';
import { errorMessages, forgotTexts, loginTexts } from './support/seed-texts.js';
import { forgotScreen, loginScreen, resetScreen, textOnceShown, visit } from './support/sign-in-screens.js';

const screenshots = join(repositoryRoot, '.ci', 'artifacts', 'screenshots');
const invalidLink = 'This password reset link is invalid or has expired.';
const owner = { email: 'lin@example.com', password: 'granite-orchard-3317' };

let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;
/** A reset link that works (never used here), from the outbox: the server runs without SMTP_URL. */
let resetLink = '';

const started = () => {
  if (server === undefined || browser === undefined)
    throw new Error('The server or the browser did not start (see beforeAll)');
  return { server, browser };
};

/** A page that records what went wrong in it: uncaught errors and console errors (CSP refusals among them). */
async function openPage(viewport: Viewport = desktop) {
  const { server, browser } = started();
  const { page } = await browser.newPage(viewport);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // Chromium logs every failed response; a refused login's 401 is the expected answer, not a fault.
    if (message.type() === 'error' && !message.text().includes('status of 401'))
      problems.push(`console error: ${message.text()}`);
  });
  return { page, problems, baseUrl: server.baseUrl };
}

type Screen = { title: string; reach: (page: Page, baseUrl: string) => Promise<void> };

/** The screens and states the user can see, each reached the way a user reaches it, with its title. */
const screens: Record<string, Screen> = {
  login: {
    title: 'Log in · Chorus',
    reach: async (page, baseUrl) => {
      await visit(page, `${baseUrl}/login`);
      await loginScreen(page).google.waitFor();
    },
  },
  'login-error': {
    title: 'Log in · Chorus',
    reach: async (page, baseUrl) => {
      await visit(page, `${baseUrl}/login?error=account&from_rns`);
      await textOnceShown(loginScreen(page).message, errorMessages.account);
    },
  },
  'login-failed': {
    title: 'Log in · Chorus',
    reach: async (page, baseUrl) => {
      await visit(page, `${baseUrl}/login`);
      const screen = loginScreen(page);
      await screen.username.fill('nobody@example.com');
      await screen.password.fill('wrong-password-1');
      await screen.logIn.click();
      await textOnceShown(screen.message, errorMessages.login);
    },
  },
  forgot: {
    title: 'Forgot your password? · Chorus',
    reach: async (page, baseUrl) => {
      await visit(page, `${baseUrl}/forgot`);
      await forgotScreen(page).email.fill('someone@example.com');
    },
  },
  sent: {
    title: 'Forgot your password? · Chorus',
    reach: async (page, baseUrl) => {
      await visit(page, `${baseUrl}/forgot`);
      const screen = forgotScreen(page);
      await screen.email.fill('someone@example.com');
      await screen.send.click();
      await textOnceShown(screen.subHeading, forgotTexts.sent);
    },
  },
  reset: {
    title: 'Reset your password · Chorus',
    reach: async (page) => {
      await visit(page, resetLink);
      await resetScreen(page).change.waitFor();
    },
  },
  'reset-invalid': {
    title: 'Reset your password · Chorus',
    reach: async (page, baseUrl) => {
      await visit(page, `${baseUrl}/reset/${'A'.repeat(64)}`);
      await textOnceShown(resetScreen(page).subHeading, invalidLink);
    },
  },
};

/** An element's box in the page, rounded to the pixel. */
async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (box === null) throw new Error('the element is not displayed');
  return { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) };
}

beforeAll(async () => {
  browser = await launchChromium();
  server = await startChorusServer();
  mkdirSync(screenshots, { recursive: true });
  await server.createUser(owner);
  const { page } = await browser.newPage();
  await visit(page, `${server.baseUrl}/forgot`);
  await forgotScreen(page).email.fill(owner.email);
  await forgotScreen(page).send.click();
  resetLink = await resetLinkInOutbox(server.dataDir, owner.email);
  await browser.closePages();
}, 90_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server);
}, 30_000);

describe('accessibility (axe-core)', () => {
  it.each(Object.keys(screens))(
    'the %s screen has no violations, no script error and no CSP refusal',
    async (name) => {
      const { page, problems, baseUrl } = await openPage();
      await screens[name]!.reach(page, baseUrl);

      expect(await accessibilityViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    },
    30_000,
  );

  it('the login screen has no violations at phone width either', async () => {
    const { page, baseUrl } = await openPage(phone);
    await screens.login!.reach(page, baseUrl);

    expect(await accessibilityViolations(page)).toEqual([]);
  }, 30_000);
});

describe('layout and screenshots', () => {
  it.each([
    ['desktop', desktop, true],
    ['phone', phone, false],
  ])(
    'at %s width: the logo in one place on every screen, the showcase only on wide screens, nothing sideways, a title each, screenshots saved',
    async (_name, viewport, showcaseVisible) => {
      const { page, problems, baseUrl } = await openPage(viewport);
      const size = `${viewport.width}x${viewport.height}`;
      const layout = () =>
        page.evaluate<{ showcaseVisible: boolean; sidewaysScroll: boolean }>(`({
          showcaseVisible: (() => { const pane = document.querySelector('[aria-hidden="true"].auth__showcase'); return pane !== null && pane.getBoundingClientRect().width > 0 && getComputedStyle(pane).display !== 'none'; })(),
          sidewaysScroll: document.documentElement.scrollWidth > document.documentElement.clientWidth,
        })`);

      const seen: Record<string, unknown> = {};
      for (const [name, screen] of Object.entries(screens)) {
        await screen.reach(page, baseUrl);
        const path = join(screenshots, `${name}-${size}.png`);
        await page.screenshot({ path, fullPage: true });
        seen[name] = {
          ...(await layout()),
          title: await page.title(),
          logo: await boxOf(page.getByRole('link', { name: 'Chorus', exact: true })),
          shot: statSync(path).size > 1000,
        };
      }

      const logo = await (async () => {
        await screens.login!.reach(page, baseUrl);
        return boxOf(page.getByRole('link', { name: 'Chorus', exact: true }));
      })();
      const expected = Object.entries(screens).map(([name, { title }]) => [
        name,
        { showcaseVisible, sidewaysScroll: false, title, logo, shot: true },
      ]);
      expect(seen).toEqual(Object.fromEntries(expected));
      expect(await loginScreen(page).heading.textContent()).toBe(loginTexts.heading('Chorus'));
      expect(problems).toEqual([]);
    },
    90_000,
  );

  it.each([
    ['desktop', desktop],
    ['phone', phone],
  ])(
    'at %s width: no blank space under the sub-heading where no message is; a message takes that place',
    async (_name, viewport) => {
      const { page, baseUrl } = await openPage(viewport);
      /** From the sub-heading's bottom to the top of what follows it: the first field, or the message. */
      const gapBelowSubHeading = async (next: Locator) =>
        (await boxOf(next)).y -
        ((await boxOf(page.locator('h1 + p'))).y + (await boxOf(page.locator('h1 + p'))).height);

      await screens.forgot!.reach(page, baseUrl);
      const forgot = await gapBelowSubHeading(page.getByText('E-mail address', { exact: true }));
      await screens.login!.reach(page, baseUrl);
      const login = await gapBelowSubHeading(page.getByText('E-mail or username', { exact: true }));
      await screens.reset!.reach(page, baseUrl);
      const reset = await gapBelowSubHeading(page.getByText('New password', { exact: true }));
      await screens['login-failed']!.reach(page, baseUrl);
      const message = await gapBelowSubHeading(loginScreen(page).message);
      const messageHeight = (await boxOf(loginScreen(page).message)).height;

      // The forgot screen never has a message slot: the others match it.
      expect({ login, reset, message }).toEqual({ login: forgot, reset: forgot, message: forgot });
      expect(forgot).toBeLessThanOrEqual(24);
      expect(messageHeight).toBeGreaterThan(30);
    },
    60_000,
  );
});
