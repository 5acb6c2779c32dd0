// "Your data" and "Delete my account" on the Account page (docs/privacy.md) in real Chromium against the real
// server: a fresh person downloads their copy (the file is read back), is refused with a wrong password, deletes
// their account with the right one, lands on the sign-in screen and cannot sign in again; the last owner of an
// organization is told which one. Keyboard only, axe-core clean, nothing sideways; screenshots with the
// confirmation open, `console-account-delete-<width>.png`, at 1280 and 390 px.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { signedInPage } from './support/console-pages.js';
import { logInThroughForm, type ConsoleUser } from './support/console-screens.js';
import { judgeScreen, openConsolePage, screenshots } from './support/judged-screens.js';
import { startMailCatcher, type MailCatcher } from './support/mail-catcher.js';
import { errorMessages } from './support/seed-texts.js';
import { loginScreen, pathOf, sessionOf, textOnceShown } from './support/sign-in-screens.js';

const owner: ConsoleUser = { email: 'olga@umbrella.example', password: 'lantern-harbour-5521' };
const nora: ConsoleUser = { email: 'nora@umbrella.example', password: 'quartz-meadow-7781' };
const pim: ConsoleUser = { email: 'pim@umbrella.example', password: 'saffron-ridge-2290' };

let mail: MailCatcher | undefined;
let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;

const started = () => {
  if (server === undefined || browser === undefined || mail === undefined)
    throw new Error('The server, the SMTP server or the browser did not start (see beforeAll)');
  return { server, browser, mail };
};

function privacyScreen(page: Page) {
  const data = page.getByRole('region', { name: 'Your data' });
  const card = page.getByRole('region', { name: 'Delete my account' });
  const form = page.getByRole('form', { name: 'Delete my account' });
  return {
    download: data.getByRole('button', { name: 'Download my data' }),
    dataStatus: data.getByRole('status'),
    card,
    open: card.getByRole('button', { name: 'Delete my account', exact: true }),
    form,
    password: form.getByLabel('Your password', { exact: true }),
    confirm: form.getByRole('button', { name: 'Delete my account for good' }),
    cancel: form.getByRole('button', { name: 'Cancel' }),
    message: form.getByRole('alert'),
  };
}

async function accountPage(user: ConsoleUser, viewport: Viewport) {
  const { server, browser } = started();
  const opened = await signedInPage(browser, server.baseUrl, user, viewport, { allowedStatuses: [400, 401, 409] });
  await openConsolePage(opened.page, server.baseUrl, '/app/account', 'Account');
  await privacyScreen(opened.page).open.waitFor();
  return opened;
}

/** With the keyboard: the button takes Enter, and the password field has the focus at once. */
async function openDeletion(page: Page) {
  const screen = privacyScreen(page);
  await screen.open.focus();
  await page.keyboard.press('Enter');
  await screen.form.waitFor();
  expect(await screen.password.and(page.locator(':focus')).count()).toBe(1);
  return screen;
}

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  browser = await launchChromium();
  mail = await startMailCatcher();
  server = await startChorusServer({ SMTP_URL: mail.smtpUrl });
  await server.createOrganization('Umbrella', 'umbrella', { line: 'classic', plan: 'professional' });
  await server.createUser({ ...owner, organizationId: 'umbrella', role: 'owner' });
  await server.createUser({ ...nora, organizationId: 'umbrella', role: 'member' });
  await server.createUser({ ...pim, organizationId: 'umbrella', role: 'member' });
}, 120_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server, mail);
}, 30_000);

describe('my data and my account', () => {
  it('downloads my data, is refused a wrong password, deletes the account with the right one and cannot sign in again', async () => {
    const { server } = started();
    const { context, page, problems } = await accountPage(nora, desktop);
    const screen = privacyScreen(page);

    const [file] = await Promise.all([page.waitForEvent('download'), screen.download.click()]);
    expect(file.suggestedFilename()).toMatch(/^chorus-account-\d{4}-\d{2}-\d{2}\.json$/);
    const copy = JSON.parse(readFileSync(await file.path(), 'utf8')) as {
      account: { email: string };
      organizations: { name: string; role: string }[];
    };
    expect(copy.account.email).toBe(nora.email);
    expect(copy.organizations).toEqual([expect.objectContaining({ name: 'Umbrella', role: 'member' })]);
    await textOnceShown(screen.dataStatus, `Your data is saved as ${file.suggestedFilename()}.`);
    await judgeScreen(page, 'console', 'account-privacy');

    // What it means is on the page before anything is asked.
    await screen.card.getByText('This cannot be undone.', { exact: false }).waitFor();
    await openDeletion(page);
    await judgeScreen(page, 'console', 'account-delete');

    await page.keyboard.type('not my password');
    await page.keyboard.press('Enter');
    await textOnceShown(screen.message, 'The password is not correct.');
    expect(await screen.password.getAttribute('aria-invalid')).toBe('true');
    expect((await sessionOf(context, server.baseUrl)).status).toBe(200);
    await judgeScreen(page, 'console', 'account-delete-refused');

    await screen.password.fill(nora.password);
    await screen.password.press('Enter');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(pathOf(page)).toBe('/login');
    expect((await sessionOf(context, server.baseUrl)).status).toBe(401);

    await logInThroughForm(page, server.baseUrl, nora);
    expect(await textOnceShown(loginScreen(page).message, errorMessages.login)).toBe(errorMessages.login);
    expect((await sessionOf(context, server.baseUrl)).status).toBe(401);
    expect(problems).toEqual([]);
  });

  it('at 390 px: the consequences, then the confirmation, all on the screen; Cancel gives the focus back', async () => {
    const { page, problems } = await accountPage(pim, phone);
    const screen = await openDeletion(page);
    await judgeScreen(page, 'console', 'account-delete');
    await screen.cancel.focus();
    await page.keyboard.press('Enter');
    await screen.form.waitFor({ state: 'detached' });
    expect(await screen.open.and(page.locator(':focus')).count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('tells the last owner which organization needs another owner first, and deletes nothing', async () => {
    const { server } = started();
    const { context, page } = await accountPage(owner, desktop);
    const screen = await openDeletion(page);
    await page.keyboard.type(owner.password);
    await page.keyboard.press('Enter');
    await textOnceShown(
      screen.message,
      'You are the last owner of Umbrella. Make someone else an owner there first, then delete your account.',
    );
    expect(await screen.message.getByRole('link', { name: 'Umbrella' }).getAttribute('href')).toBe(
      '/app/orgs/umbrella/members',
    );
    expect((await sessionOf(context, server.baseUrl)).status).toBe(200);
  });
});
