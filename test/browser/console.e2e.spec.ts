// The signed-in console (docs/console.md) in real Chromium against the real server: signed in
// through the login form, an owner on a Chorus teams plan sees "1 of 5" users, adds members up to the
// limit and sees the refusal, an invitation mail (smtp-server) is accepted, a member is removed, another
// session is revoked, and the owner signs out. Every page is scanned by axe-core, used with the keyboard,
// and photographed at 1280 and 390 px into .ci/artifacts/screenshots/.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { watchedPage, signedInPage, operatorCall } from './support/console-pages.js';
import { expectAccessible } from './support/accessibility.js';
import { repositoryRoot, startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import {
  accountScreen,
  consoleScreen,
  logInThroughForm,
  membersScreen,
  scrollsSideways,
  sitesScreen,
  type ConsoleUser,
} from './support/console-screens.js';
import { startMailCatcher, type MailCatcher } from './support/mail-catcher.js';
import { errorMessages } from './support/seed-texts.js';
import { loginScreen, pathOf, sessionOf, textOnceShown, visibleText, visit } from './support/sign-in-screens.js';
import { waitFor } from './support/wait-for.js';
import { stoppedLoading } from './support/judged-screens.js';

const screenshots = join(repositoryRoot, '.ci', 'artifacts', 'screenshots');

const ada: ConsoleUser = { email: 'ada@acme.example', password: 'granite-orchard-3317' };
const max: ConsoleUser = { email: 'max@globex.example', password: 'velvet-thunder-4821' };
const solo: ConsoleUser = { email: 'solo@example.com', password: 'copper-lantern-9054' };
const invitedPassword = 'amber-meadow-6613';

let mail: MailCatcher | undefined;
let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;
let apiKey = '';

const started = () => {
  if (server === undefined || browser === undefined || mail === undefined)
    throw new Error('The server, the SMTP server or the browser did not start (see beforeAll)');
  return { server, browser, mail };
};

/** An operator's call with an API key (plans and Chorus are bought, not set in the console). */
const operator = (method: string, path: string, body?: unknown) =>
  operatorCall<{ position?: number }>(started().server.baseUrl, apiKey, method, path, body);

/** A page that records what went wrong in it: uncaught errors and console errors (CSP refusals among them). */
const openPage = (viewport: Viewport = desktop) =>
  watchedPage(started().browser, viewport, { allowedStatuses: [401, 409, 400] });

const signedIn = (user: ConsoleUser, viewport: Viewport = desktop) =>
  signedInPage(started().browser, started().server.baseUrl, user, viewport, { allowedStatuses: [401, 409, 400] });

/**
 * The whole page from its top (a sticky header would otherwise be drawn where the page was scrolled to); a dialog, as
 * seen.
 */
async function shoot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  const size = page.viewportSize();
  if (fullPage) await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: join(screenshots, `console-${name}-${size?.width ?? 0}.png`), fullPage });
  if (process.env.SHOOT_PARTS && size) {
    const height = await page.evaluate<number>('document.documentElement.scrollHeight');
    for (let top = 0, part = 1; top < height; top += size.height, part += 1) {
      await page.screenshot({
        path: `/tmp/shots/${name}-${size.width}-${part}.png`,
        fullPage: true,
        clip: { x: 0, y: top, width: size.width, height: Math.min(size.height, height - top) },
      });
    }
  }
}

async function addMember(page: Page, email: string, role: string) {
  const screen = membersScreen(page);
  await screen.email.fill(email);
  await screen.role.selectOption({ label: role });
  await screen.add.click();
  await screen.status.filter({ hasText: email }).waitFor();
  await screen.member(email).waitFor();
}

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  browser = await launchChromium();
  mail = await startMailCatcher();
  server = await startChorusServer({ SMTP_URL: mail.smtpUrl });
  const created = await server.cli([
    'api-key:create',
    '--name',
    'browser tests',
    '--scopes',
    'organizations:read,organizations:write',
    '--json',
  ]);
  apiKey = (JSON.parse(created.stdout) as { key: string }).key;
  // Acme: a Chorus teams plan (5 users) with Chorus on, and its owner Ada alone.
  await server.createOrganization('Acme', 'acme', { line: 'chorus', plan: 'teams' });
  await operator('PUT', '/organizations/acme/chorus', { enabled: true });
  await operator('POST', '/organizations/acme/add-ons', { addOn: 'qualityAssurance' });
  await server.createUser({ ...ada, organizationId: 'acme', role: 'owner' });
  // Max owns two organizations; Solo belongs to none.
  await server.createOrganization('Globex', 'globex');
  await server.createOrganization('Initech', 'initech', { line: 'classic', plan: 'essential' });
  await server.createUser({ ...max, organizationId: 'globex', role: 'owner' });
  const { position } = await operator('POST', '/organizations/initech/members', { email: max.email, role: 'auditor' });
  // Read back with minPosition: the read model has Max in both before anyone signs in.
  await operator('GET', `/organizations/initech?minPosition=${position ?? 0}`);
  await server.createUser(solo);
}, 120_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server, mail);
}, 30_000);

describe('an owner on a Chorus teams plan, end to end', () => {
  it('signs in, sees "1 of 5" users, fills the plan, meets the refusal, invites, removes, revokes a session and signs out', async () => {
    const { server, mail } = started();
    const { context, page, problems } = await signedIn(ada);
    const screen = consoleScreen(page);

    // Lands on the overview of the only organization, named in the header and the title.
    expect(pathOf(page)).toBe('/app/orgs/acme');
    expect(await visibleText(screen.heading)).toBe('Overview');
    expect(await visibleText(screen.organizationName)).toBe('Acme');
    expect(await page.title()).toBe('Overview · Acme · Chorus');
    expect(
      await visibleText(
        page
          .getByRole('listitem')
          .filter({ hasText: /^Users/ })
          .locator('.limit__usage'),
      ),
    ).toBe('1 of 5');
    const users = screen.limit('Users');
    expect([await users.getAttribute('aria-valuenow'), await users.getAttribute('aria-valuemax')]).toEqual(['1', '5']);
    await shoot(page, 'overview');

    // Members: add until the limit; the limit is said before anyone types; the refusal is in words, the address kept.
    await screen.nav('Members').click();
    await textOnceShown(screen.heading, 'Members');
    expect(await page.title()).toBe('Members · Acme · Chorus');
    const members = membersScreen(page);
    await addMember(page, 'bob@acme.example', 'Admin: manages members, sites and domains');
    await addMember(page, 'cem@acme.example', 'Member: reads the organization');
    await addMember(page, 'dee@acme.example', 'Auditor: reads the organization and its history');
    await addMember(page, 'eve@acme.example', 'Member: reads the organization');
    await page.getByText('Users limit reached: 5 of 5', { exact: true }).waitFor();
    expect(await visibleText(members.member('bob@acme.example'))).toContain('Invited');
    await members.email.fill('fay@acme.example');
    await members.add.click();
    expect(await textOnceShown(members.message, 'Users limit reached: 5 of 5.')).toBe(
      'Users limit reached: 5 of 5. Each Additional user add-on adds one member, and a larger plan allows more.',
    );
    expect(await members.email.inputValue()).toBe('fay@acme.example');
    await shoot(page, 'members-limit');

    // Bob's invitation: the link registers him with his own password and lands him in the console.
    const invitation = await mail.mailTo('bob@acme.example');
    expect(invitation.subject).toBe('You are invited to Acme on Chorus');
    const link =
      new RegExp(`${server.baseUrl.replaceAll('.', '\\.')}/invite/[A-Za-z0-9_-]{64}`).exec(invitation.text)?.[0] ?? '';
    expect(link).not.toBe('');
    const bob = await openPage();
    await visit(bob.page, link);
    await textOnceShown(bob.page.getByRole('heading', { level: 1 }), 'Join Acme');
    await expectAccessible(bob.page, 'the invitation page');
    await shoot(bob.page, 'invitation');
    await bob.page.getByLabel('New password', { exact: true }).fill(invitedPassword);
    await bob.page.getByLabel('Confirm new password', { exact: true }).fill(invitedPassword);
    await bob.page.getByRole('button', { name: 'Join Acme' }).click();
    await bob.page.waitForURL(`${server.baseUrl}/app/orgs/acme`);
    expect(await sessionOf(bob.context, server.baseUrl)).toMatchObject({
      status: 200,
      email: 'bob@acme.example',
      organizations: ['acme'],
    });
    // Bob signed in once: no longer "invited" for Ada either.
    await waitFor('Bob to be shown as signed in', async () => {
      await page.reload();
      await members.member('bob@acme.example').waitFor();
      return (await visibleText(members.member('bob@acme.example'))).includes('Invited') ? undefined : true;
    });

    // Removing Cem asks first.
    await members.remove('cem@acme.example').click();
    const dialog = page.getByRole('dialog', { name: 'Remove cem@acme.example?' });
    await dialog.waitFor();
    await expectAccessible(page, 'the removal confirmation');
    await shoot(page, 'members-remove', { fullPage: false });
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await members.member('cem@acme.example').waitFor({ state: 'detached' });
    expect(await page.getByText('4 of 5 users', { exact: true }).isVisible()).toBe(true);

    // A second session elsewhere, revoked from the Account page.
    const elsewhere = await signedIn(ada);
    await screen.userMenu.click();
    await screen.accountLink.click();
    await textOnceShown(screen.heading, 'Account');
    expect(await page.title()).toBe('Account · Acme · Chorus');
    const account = accountScreen(page);
    await waitFor('two sessions listed', async () => ((await account.sessions.count()) === 2 ? true : undefined));
    const thisBrowser = await visibleText(account.thisBrowser);
    for (const part of ['Headless Chrome on Linux', 'This browser', 'Password · started'])
      expect(thisBrowser).toContain(part);
    await shoot(page, 'account-two-sessions');
    await account.signOutOther.click();
    await waitFor('one session listed', async () => ((await account.sessions.count()) === 1 ? true : undefined));
    expect((await sessionOf(elsewhere.context, server.baseUrl)).status).toBe(401);

    // Signing out lands on the login; the console then asks to sign in again, coming back after.
    await screen.userMenu.click();
    await screen.signOut.click();
    await page.waitForURL(`${server.baseUrl}/login`);
    expect((await sessionOf(context, server.baseUrl)).status).toBe(401);
    await page.goto(`${server.baseUrl}/app/orgs/acme/members`);
    expect(pathOf(page)).toBe(`/login?redirect=${encodeURIComponent('/app/orgs/acme/members')}`);

    expect([...problems, ...bob.problems]).toEqual([]);
  }, 120_000);
});

describe('who lands where', () => {
  it("a user with no organization is shown the seed's account message", async () => {
    const { page } = await openPage();
    await logInThroughForm(page, started().server.baseUrl, solo);
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('error') === 'account');
    expect(await textOnceShown(loginScreen(page).message, errorMessages.account)).toBe(errorMessages.account);
  }, 30_000);

  it('a user with two organizations picks one, then switches between them from the header', async () => {
    const { page } = await signedIn(max);
    const screen = consoleScreen(page);
    expect(pathOf(page)).toBe('/app');
    expect(await visibleText(screen.heading)).toBe('Your organizations');
    await expectAccessible(page, 'the organization picker');
    await shoot(page, 'picker');

    await page.getByRole('link', { name: /^Globex/ }).click();
    await textOnceShown(screen.heading, 'Overview');
    await page.getByRole('button', { name: 'Globex (switch organization)' }).click();
    await page.getByRole('link', { name: /^Initech/ }).click();
    await page.waitForURL((url) => url.pathname === '/app/orgs/initech');
    // The address changes first; the page follows once React has rendered it.
    expect(await textOnceShown(screen.organizationName, 'Initech')).toBe('Initech');
    // An auditor reads the history; the navigation offers it.
    expect(await screen.nav('History').isVisible()).toBe(true);
  }, 30_000);

  it('a signed-out deep link goes to the login and back; deep links load in full and Back/Forward work', async () => {
    const { server } = started();
    const { page } = await openPage();
    await logInThroughForm(page, server.baseUrl, ada, `/login?redirect=${encodeURIComponent('/app/orgs/acme/sites')}`);
    await page.waitForURL(`${server.baseUrl}/app/orgs/acme/sites`);
    const screen = consoleScreen(page);
    await textOnceShown(screen.heading, 'Sites');

    await page.goto(`${server.baseUrl}/app/orgs/acme/domains`);
    await textOnceShown(screen.heading, 'Domains');
    await screen.nav('Members').click();
    await textOnceShown(screen.heading, 'Members');
    await page.goBack();
    await textOnceShown(screen.heading, 'Domains');
    await page.goForward();
    await textOnceShown(screen.heading, 'Members');
    expect(pathOf(page)).toBe('/app/orgs/acme/members');
  }, 30_000);
});

describe('with the keyboard alone', () => {
  it('reaches a page from the navigation, adds a site after a refused hostname, and opens the account from the user menu', async () => {
    const { page } = await signedIn(ada);
    const screen = consoleScreen(page);
    const focusedName = () => page.evaluate<string>('document.activeElement?.textContent?.trim() ?? ""');

    // Skip link first, then the header, then the navigation.
    await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('Skip to content');
    for (let presses = 0; presses < 10 && (await focusedName()) !== 'Sites'; presses += 1)
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await textOnceShown(screen.heading, 'Sites');

    const sites = sitesScreen(page);
    for (
      let presses = 0;
      presses < 10 && !(await sites.name.evaluate((element) => element === element.ownerDocument.activeElement));
      presses += 1
    )
      await page.keyboard.press('Tab');
    await page.keyboard.type('Web shop');
    await page.keyboard.press('Tab');
    await page.keyboard.type('shop');
    await page.keyboard.press('Enter');
    expect(await textOnceShown(sites.message, 'is not a hostname')).toContain('“shop” is not a hostname');
    expect(await sites.name.inputValue()).toBe('Web shop');
    await page.keyboard.type('.acme.example');
    await page.keyboard.press('Enter');
    await sites.list.getByText('shop.acme.example').waitFor();

    // The user menu opens with Enter, its entries are reached with Tab, Escape closes it.
    await screen.userMenu.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('Account');
    await page.keyboard.press('Escape');
    expect(await screen.accountLink.isVisible()).toBe(false);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await textOnceShown(screen.heading, 'Account');
  }, 60_000);
});

describe('the navigation', () => {
  it.each([
    ['1280', desktop],
    ['390', phone],
  ])(
    'at %s px: after every tab click the page title shows below the sticky header, not under it',
    async (_width, viewport) => {
      const { page } = await signedIn(ada, viewport);
      const screen = consoleScreen(page);
      const header = page.locator('.console-header');
      // Twice round, so that each page is also reached from a longer one that was scrolled.
      for (const name of [
        'Members',
        'Sites',
        'Domains',
        'SSO',
        'History',
        'Overview',
        'Members',
        'History',
        'Sites',
        'Overview',
      ] as const) {
        await screen.nav(name).click();
        await textOnceShown(screen.heading, name);
        await stoppedLoading(page);
        const headerBottom = await header.evaluate((element) => element.getBoundingClientRect().bottom);
        const titleTop = await screen.heading.evaluate((element) => element.getBoundingClientRect().top);
        expect({ name, titleBelowHeader: titleTop >= headerBottom }).toEqual({ name, titleBelowHeader: true });
        await page.mouse.wheel(0, 600);
      }
    },
    90_000,
  );
});

describe('every console page', () => {
  const pages: [name: string, path: string, heading: string][] = [
    ['overview', '/app/orgs/acme', 'Overview'],
    ['members', '/app/orgs/acme/members', 'Members'],
    ['sites', '/app/orgs/acme/sites', 'Sites'],
    ['domains', '/app/orgs/acme/domains', 'Domains'],
    ['history', '/app/orgs/acme/history', 'History'],
    ['account', '/app/account', 'Account'],
  ];

  it.each([
    ['1280', desktop],
    ['390', phone],
  ])(
    'at %s px: axe-core finds nothing, nothing scrolls sideways, no error; screenshots saved',
    async (_width, viewport) => {
      const { page, problems } = await signedIn(ada, viewport);
      for (const [name, path, heading] of pages) {
        await page.goto(`${started().server.baseUrl}${path}`);
        await textOnceShown(consoleScreen(page).heading, heading);
        await stoppedLoading(page);
        await expectAccessible(page, name);
        expect({ name, sideways: await scrollsSideways(page) }).toEqual({ name, sideways: false });
        await shoot(page, name);
      }
      if (viewport === phone) {
        await consoleScreen(page).userMenu.click();
        await shoot(page, 'user-menu');
      }
      expect(problems).toEqual([]);
    },
    90_000,
  );
});
