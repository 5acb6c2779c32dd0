// Every sign-in screen as served by the real server, in real Chromium: an axe-core scan with no
// violations, no script error or CSP refusal, the layout at desktop and phone widths, and screenshots
// of the login, forgot and sent states saved under .ci/artifacts/screenshots/.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { accessibilityViolations } from './support/accessibility.js';
import { repositoryRoot, startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { errorMessages, forgotTexts, loginTexts } from './support/seed-texts.js';
import { forgotScreen, loginScreen, resetScreen, textOnceShown, visit } from './support/sign-in-screens.js';

const screenshots = join(repositoryRoot, '.ci', 'artifacts', 'screenshots');

let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;

const started = () => {
  if (server === undefined || browser === undefined) throw new Error('The server or the browser did not start (see beforeAll)');
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
    if (message.type() === 'error' && !message.text().includes('status of 401')) problems.push(`console error: ${message.text()}`);
  });
  return { page, problems, baseUrl: server.baseUrl };
}

/** The screens and states the user can see, each reached the way a user reaches it. */
const screens: Record<string, (page: Page, baseUrl: string) => Promise<void>> = {
  login: async (page, baseUrl) => {
    await visit(page, `${baseUrl}/login`);
    await loginScreen(page).google.waitFor();
  },
  'login with an error and the migration notice': async (page, baseUrl) => {
    await visit(page, `${baseUrl}/login?error=account&from_rns`);
    await textOnceShown(loginScreen(page).message, errorMessages.account);
  },
  'login after a failed attempt': async (page, baseUrl) => {
    await visit(page, `${baseUrl}/login`);
    const screen = loginScreen(page);
    await screen.username.fill('nobody@example.com');
    await screen.password.fill('wrong-password-1');
    await screen.logIn.click();
    await textOnceShown(screen.message, errorMessages.login);
  },
  forgot: async (page, baseUrl) => {
    await visit(page, `${baseUrl}/forgot`);
    await forgotScreen(page).email.fill('someone@example.com');
  },
  sent: async (page, baseUrl) => {
    await visit(page, `${baseUrl}/forgot`);
    const screen = forgotScreen(page);
    await screen.email.fill('someone@example.com');
    await screen.send.click();
    await textOnceShown(screen.subHeading, forgotTexts.sent);
  },
  reset: async (page, baseUrl) => {
    await visit(page, `${baseUrl}/reset/${'A'.repeat(64)}`);
    await resetScreen(page).change.waitFor();
  },
};

beforeAll(async () => {
  browser = await launchChromium();
  server = await startChorusServer();
  mkdirSync(screenshots, { recursive: true });
}, 90_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server);
}, 30_000);

describe('accessibility (axe-core)', () => {
  it.each(Object.keys(screens))('the %s screen has no violations, no script error and no CSP refusal', async (name) => {
    const { page, problems, baseUrl } = await openPage();
    await screens[name]!(page, baseUrl);

    expect(await accessibilityViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  }, 30_000);

  it('the login screen has no violations at phone width either', async () => {
    const { page, baseUrl } = await openPage(phone);
    await screens.login!(page, baseUrl);

    expect(await accessibilityViolations(page)).toEqual([]);
  }, 30_000);
});

describe('layout and screenshots', () => {
  it.each([
    ['desktop', desktop, true],
    ['phone', phone, false],
  ])('at %s width: the showcase pane shows only on wide screens, nothing scrolls sideways, screenshots saved', async (_name, viewport, showcaseVisible) => {
    const { page, problems, baseUrl } = await openPage(viewport);
    const size = `${viewport.width}x${viewport.height}`;
    const shot = async (state: string) => {
      const path = join(screenshots, `${state}-${size}.png`);
      await page.screenshot({ path, fullPage: true });
      return statSync(path).size;
    };
    const layout = () =>
      page.evaluate<{ showcaseVisible: boolean; sidewaysScroll: boolean }>(`({
        showcaseVisible: (() => { const pane = document.querySelector('[aria-hidden="true"].auth__showcase'); return pane !== null && pane.getBoundingClientRect().width > 0 && getComputedStyle(pane).display !== 'none'; })(),
        sidewaysScroll: document.documentElement.scrollWidth > document.documentElement.clientWidth,
      })`);

    await screens.login!(page, baseUrl);
    expect(await loginScreen(page).heading.textContent()).toBe(loginTexts.heading('Chorus'));
    expect(await layout()).toEqual({ showcaseVisible, sidewaysScroll: false });
    expect(await shot('login')).toBeGreaterThan(1000);

    await loginScreen(page).forgotLink.click();
    await forgotScreen(page).email.fill('someone@example.com');
    expect(await layout()).toEqual({ showcaseVisible, sidewaysScroll: false });
    expect(await shot('forgot')).toBeGreaterThan(1000);

    await forgotScreen(page).send.click();
    await textOnceShown(forgotScreen(page).subHeading, forgotTexts.sent);
    expect(await layout()).toEqual({ showcaseVisible, sidewaysScroll: false });
    expect(await shot('sent')).toBeGreaterThan(1000);

    expect(problems).toEqual([]);
  }, 45_000);
});
