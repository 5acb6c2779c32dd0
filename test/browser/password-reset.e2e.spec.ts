// Forgot and reset in real Chromium against the real server, the mail caught by an SMTP server in the test:
// the forgot screen's validation and sent state, the link PUBLIC_URL/reset/<token>, a new password that logs in.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { repositoryRoot, startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { launchChromium, type TestBrowser } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { startMailCatcher, type MailCatcher } from './support/mail-catcher.js';
import { errorMessages, forgotTexts } from './support/seed-texts.js';
import {
  forgotScreen,
  loginScreen,
  pathOf,
  resetScreen,
  sessionOf,
  textOnceShown,
  visibleText,
  visit,
} from './support/sign-in-screens.js';

const lin = { email: 'lin@example.com', password: 'granite-orchard-3317' };
const newPassword = 'copper-lantern-9054';

let mail: MailCatcher | undefined;
let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;

const started = () => {
  if (server === undefined || browser === undefined || mail === undefined)
    throw new Error('The server, the SMTP server or the browser did not start (see beforeAll)');
  return { server, browser, mail };
};

/** Every POST /forgot the page sends, in order. */
function forgotRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/forgot') requests.push(request);
  });
  return requests;
}

async function logIn(page: Page, username: string, password: string) {
  const screen = loginScreen(page);
  await screen.username.fill(username);
  await screen.password.fill(password);
  await screen.logIn.click();
  return screen;
}

beforeAll(async () => {
  browser = await launchChromium();
  mail = await startMailCatcher();
  server = await startChorusServer({ SMTP_URL: mail.smtpUrl });
  await server.createUser({ ...lin, organizationId: await server.createOrganization('Acme', 'acme'), role: 'member' });
  mkdirSync(join(repositoryRoot, '.ci', 'artifacts', 'screenshots'), { recursive: true });
}, 90_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server, mail);
}, 30_000);

describe('the forgot screen', () => {
  it("is reached from the login screen's link and shows the seed's texts", async () => {
    const { server, browser } = started();
    const { page } = await browser.newPage();
    await visit(page, `${server.baseUrl}/login`);

    await loginScreen(page).forgotLink.click();

    await page.waitForURL(`${server.baseUrl}/forgot`);
    const screen = forgotScreen(page);
    expect(await visibleText(screen.heading)).toBe(forgotTexts.heading);
    expect(await visibleText(screen.subHeading)).toBe(forgotTexts.subHeading);
    expect(await screen.email.isVisible()).toBe(true);
    expect(await visibleText(screen.send)).toBe(forgotTexts.send);
  }, 30_000);

  it('keeps Send disabled while the address is invalid, sends nothing on Enter then, and enables it for a valid one', async () => {
    const { server, browser } = started();
    const { page } = await browser.newPage();
    const sent = forgotRequests(page);
    await visit(page, `${server.baseUrl}/forgot`);
    const screen = forgotScreen(page);

    expect(await screen.send.isDisabled()).toBe(true);
    // The seed's validator: at least 4 characters, an '@' and a '.'.
    for (const invalid of ['a@b', 'ab@cd', 'ab.cd', 'lin example.com']) {
      await screen.email.fill(invalid);
      expect({ address: invalid, disabled: await screen.send.isDisabled() }).toEqual({
        address: invalid,
        disabled: true,
      });
    }
    await screen.email.press('Enter');
    expect(await visibleText(screen.subHeading)).toBe(forgotTexts.subHeading);

    await screen.email.fill('someone-unknown@example.com');
    expect(await screen.send.isEnabled()).toBe(true);
    await screen.send.click();
    await textOnceShown(screen.subHeading, forgotTexts.sent);

    // Requests leave in order: had Enter on the invalid address sent one, it would come first.
    expect(sent.map((request) => request.postDataJSON())).toEqual([{ email: 'someone-unknown@example.com' }]);
  }, 30_000);
});

describe('forgot and reset, end to end', () => {
  it('mails a link to PUBLIC_URL/reset/<token>; the link sets a new password that logs in, once', async () => {
    const { server, browser, mail } = started();
    const { context, page } = await browser.newPage();
    const sent = forgotRequests(page);
    await visit(page, `${server.baseUrl}/forgot`);
    const forgot = forgotScreen(page);

    await forgot.email.fill(lin.email);
    await forgot.send.click();

    expect(await textOnceShown(forgot.subHeading, forgotTexts.sent)).toBe(forgotTexts.sent);
    expect(await visibleText(forgot.heading)).toBe(forgotTexts.heading);
    expect(await forgot.email.count()).toBe(0);
    expect(await forgot.send.count()).toBe(0);
    expect(sent).toHaveLength(1);
    expect((await sent[0]?.response())?.status()).toBe(202);

    const { text } = await mail.mailTo(lin.email);
    // At least 128 random bits, base64url: 22 characters or more.
    const linkPattern = new RegExp(`${server.baseUrl.replaceAll('.', '\\.')}/reset/[A-Za-z0-9_-]{22,}(?=\\s|$)`);
    expect(text).toMatch(linkPattern);
    const resetLink = linkPattern.exec(text)?.[0] ?? '';

    await visit(page, resetLink);
    const reset = resetScreen(page);
    await reset.password.fill(newPassword);
    await reset.confirmation.fill(newPassword);
    await reset.change.click();
    expect(await textOnceShown(reset.subHeading, 'Your password has been changed.')).toBe(
      'Your password has been changed.',
    );
    await page.screenshot({
      path: join(repositoryRoot, '.ci', 'artifacts', 'screenshots', 'reset-changed-1280x800.png'),
    });
    await reset.backToLogIn.click();
    await page.waitForURL(`${server.baseUrl}/login`);

    const login = await logIn(page, lin.email, lin.password);
    expect(await textOnceShown(login.message, errorMessages.login)).toBe(errorMessages.login);
    await logIn(page, lin.email, newPassword);
    await page.waitForURL(`${server.baseUrl}/app/orgs/acme`);
    expect(await sessionOf(context, server.baseUrl)).toMatchObject({ status: 200, email: lin.email });

    // The link is single-use: opened again, the page says so at once instead of showing the form.
    await visit(page, resetLink);
    const invalid = 'This password reset link is invalid or has expired.';
    expect(await textOnceShown(reset.subHeading, invalid)).toBe(invalid);
    expect(await reset.password.count()).toBe(0);
    expect(await reset.requestNewLink.getAttribute('href')).toBe('/forgot');
    expect(pathOf(page)).toBe(new URL(resetLink).pathname);
    await reset.requestNewLink.click();
    await page.waitForURL(`${server.baseUrl}/forgot`);
  }, 45_000);
});
