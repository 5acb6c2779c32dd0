// The Members page's invitation words in real Chromium against the real server (docs/service.md, Members):
// an address the mailer would read otherwise is refused in the form, by the server's own rule, before it is
// sent; an address whose mail server refuses it for good is shown to the owner as undelivered. Keyboard
// only, axe-core clean, photographed at 1280 and 390 px into .ci/artifacts/screenshots/.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { accessibilityViolations } from './support/accessibility.js';
import { repositoryRoot, startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { logInThroughForm, membersScreen, type ConsoleUser } from './support/console-screens.js';
import { startMailCatcher, type MailCatcher } from './support/mail-catcher.js';
import { waitFor } from './support/wait-for.js';

const screenshots = join(repositoryRoot, '.ci', 'artifacts', 'screenshots');
const owner: ConsoleUser = { email: 'olga@umbrella.example', password: 'lantern-harbour-5521' };
const refusedAddress = 'nobody@umbrella.example';
const refusalWords = 'Enter one e-mail address, such as name@example.com, without spaces, commas, quotes, angle brackets or hidden characters.';
const undeliveredWords = `We could not deliver the invitation to ${refusedAddress}: their mail server refused it (550). Remove them and add the right address.`;

let mail: MailCatcher | undefined;
let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;

const started = () => {
  if (server === undefined || browser === undefined || mail === undefined) {
    throw new Error('The server, the SMTP server or the browser did not start (see beforeAll)');
  }
  return { server, browser, mail };
};

async function membersPage(viewport: Viewport): Promise<Page> {
  const { page } = await started().browser.newPage(viewport);
  await logInThroughForm(page, started().server.baseUrl, owner);
  await page.waitForURL((url) => url.pathname.startsWith('/app'));
  await page.goto(`${started().server.baseUrl}/app/orgs/umbrella/members`);
  await membersScreen(page).form.waitFor();
  return page;
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: join(screenshots, `console-${name}-${page.viewportSize()?.width ?? 0}.png`), fullPage: true });
}

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  browser = await launchChromium();
  mail = await startMailCatcher({ refused: [refusedAddress] });
  server = await startChorusServer({ SMTP_URL: mail.smtpUrl });
  await server.createOrganization('Umbrella', 'umbrella', { line: 'classic', plan: 'professional' });
  await server.createUser({ ...owner, organizationId: 'umbrella', role: 'owner' });
}, 120_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server, mail);
}, 30_000);

describe('the Members page and invitation mail', () => {
  it('refuses an address the mailer would read otherwise before sending it, with the keyboard only', async () => {
    const page = await membersPage(desktop);
    const screen = membersScreen(page);
    const posted: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/members')) posted.push(request.url());
    });
    await screen.email.focus();
    await page.keyboard.type('ada,bob@umbrella.example');
    await page.keyboard.press('Enter');
    await screen.message.filter({ hasText: refusalWords }).waitFor();
    expect(posted).toEqual([]);
    expect(await screen.email.inputValue()).toBe('ada,bob@umbrella.example');
    expect(await screen.email.getAttribute('aria-invalid')).toBe('true');
    expect(await accessibilityViolations(page)).toEqual([]);
    await shoot(page, 'members-refused-address');
  });

  it.each([desktop, phone])('shows the owner an invitation the mail server refused for good (%j)', async (viewport) => {
    const page = await membersPage(viewport);
    const screen = membersScreen(page);
    if ((await screen.member(refusedAddress).count()) === 0) {
      await screen.email.focus();
      await page.keyboard.type(refusedAddress);
      await page.keyboard.press('Enter');
      await screen.status.filter({ hasText: `${refusedAddress} is a member now, as member. We are e-mailing them to let them know.` }).waitFor();
    }
    // The refusal comes after the answer (the reaction mails in the background): the page shows it once read again.
    await waitFor('the undelivered invitation on the page', async () => {
      if ((await screen.member(refusedAddress).getByText(undeliveredWords).count()) > 0) return true;
      await page.reload();
      await screen.list.waitFor();
      return undefined;
    });
    expect(await accessibilityViolations(page)).toEqual([]);
    await shoot(page, 'members-undelivered');
  });
});
