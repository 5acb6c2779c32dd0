// The console in the customer's words, in real Chromium against the real server (UPGRADE_URL and
// SUPPORT_EMAIL set, the first-run demo seeded): the demo's first minutes (a site added, both domain
// forms, the SSO form); a full users limit that links an owner to the upgrade page and names the owners
// to an admin, on the overview and the members page; a Chorus plan left idle by Chorus being off; a
// pending invitation sent again, and a removal confirmed with the focus kept in the list. Every screen
// is checked by axe-core and photographed at 1280 and 390 px (`words-<screen>-<width>.png`).
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { DemoSeed } from '#api';
import { signedInPage } from './support/console-pages.js';
import { startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { judgeScreen, openConsolePage, screenshots } from './support/judged-screens.js';
import { consoleScreen, membersScreen, sitesScreen, type ConsoleUser } from './support/console-screens.js';
import { startMailCatcher, type MailCatcher } from './support/mail-catcher.js';
import { textOnceShown, visibleText } from './support/sign-in-screens.js';
import { waitFor } from './support/wait-for.js';

const upgradeUrl = 'https://pricing.example.com/chorus';
const supportEmail = 'help@chorus.example';

const olu: ConsoleUser = { email: 'olu@full.example', password: 'harbor-willow-5521' };
const ida: ConsoleUser = { email: 'ida@full.example', password: 'maple-signal-7340' };
const bea: ConsoleUser = { email: 'bea@big.example', password: 'quartz-meadow-2287' };

let mail: MailCatcher | undefined;
let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;
let demo: ConsoleUser = { email: '', password: '' };

const started = () => {
  if (server === undefined || browser === undefined || mail === undefined) {
    throw new Error('The server, the SMTP server or the browser did not start (see beforeAll)');
  }
  return { server, browser, mail };
};

const signedIn = (user: ConsoleUser, viewport: Viewport = desktop) =>
  signedInPage(started().browser, started().server.baseUrl, user, viewport, { consoleErrors: false });

const open = (page: Page, path: string, heading: string) =>
  openConsolePage(page, started().server.baseUrl, path, heading);

const judge = (page: Page, name: string) => judgeScreen(page, 'words', name);

/** The status line that says this (the add form and the list each have one). */
const said = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

const focusedText = (page: Page) => page.evaluate<string>('document.activeElement?.textContent?.trim() ?? ""');

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  browser = await launchChromium();
  mail = await startMailCatcher();
  server = await startChorusServer({
    SMTP_URL: mail.smtpUrl,
    SEED_DEMO: 'true',
    UPGRADE_URL: upgradeUrl,
    SUPPORT_EMAIL: supportEmail,
  });
  const signIn = await server.app.get(DemoSeed).signIn();
  if (signIn.kind !== 'created') throw new Error('The demo was not seeded');
  demo = { email: signIn.email, password: signIn.password };
  // Full Co: a Chorus teams plan (5 users) with Chorus on, Olu its owner, Ida an admin, and 3 members: full.
  await server.createOrganization('Full Co', 'full-co', { line: 'chorus', plan: 'teams' });
  await server.cli(['org:chorus', 'full-co', '--on']);
  await server.createUser({ ...olu, organizationId: 'full-co', role: 'owner' });
  await server.createUser({ ...ida, organizationId: 'full-co', role: 'admin' });
  for (const name of ['cem', 'dee', 'eve']) {
    await server.createUser({
      email: `${name}@full.example`,
      password: 'pebble-lantern-1184',
      organizationId: 'full-co',
      role: 'member',
    });
  }
  // Big Co: the Chorus Enterprise plan assigned while Chorus is off (the command line warns, and it is done anyway).
  await server.cli(['org:create', '--name', 'Big Co', '--id', 'big-co']);
  const assigned = await server.cli(['org:plan', 'big-co', '--line', 'chorus', '--plan', 'enterprise']);
  expect(assigned.stderr).toContain('Chorus is off for big-co');
  await server.createUser({ ...bea, organizationId: 'big-co', role: 'owner' });
}, 120_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server, mail);
}, 30_000);

describe("the demo's first minutes", () => {
  it.each([
    ['1280', desktop],
    ['390', phone],
  ])(
    'at %s px: below every limit, a site is added, both domain lists have their form, SSO has its form',
    async (width, viewport) => {
      const { page, problems } = await signedIn(demo, viewport);
      const screen = consoleScreen(page);
      await open(page, '/app/orgs/demo', 'Overview');
      // The demo starts at 2 of its plan's 1,000; the 1280 px run, when it ran first, added one.
      const sitesInUse = await visibleText(
        page
          .locator('.limit')
          .filter({ hasText: /^Sites/ })
          .locator('.limit__usage'),
      );
      expect(sitesInUse).toMatch(width === '1280' ? /^2 of 1,000$/ : /^[23] of 1,000$/);
      expect(await page.getByText(/no plan|Chorus is off|limit reached/).count()).toBe(0);
      await judge(page, 'demo-overview');

      await open(page, '/app/orgs/demo/sites', 'Sites');
      const sites = sitesScreen(page);
      const name = width === '1280' ? 'Docs' : 'Help';
      await sites.name.fill(name);
      await sites.hostname.fill(`${name.toLowerCase()}.example.com`);
      await sites.add.click();
      await textOnceShown(said(page, 'is added'), `${name} is added.`);
      await sites.list.getByText(`${name.toLowerCase()}.example.com`).waitFor();
      expect(await screen.alert.count()).toBe(0);
      await judge(page, 'demo-sites');

      await open(page, '/app/orgs/demo/domains', 'Domains');
      expect(await page.getByRole('form', { name: 'Add QA domain' }).isVisible()).toBe(true);
      expect(await page.getByRole('form', { name: 'Add web analytics domain' }).isVisible()).toBe(true);
      await judge(page, 'demo-domains');

      await open(page, '/app/orgs/demo/sso', 'SSO');
      expect(await page.getByRole('form', { name: 'Single sign-on settings' }).isVisible()).toBe(true);
      await judge(page, 'demo-sso');
      expect(problems).toEqual([]);
    },
    90_000,
  );
});

describe('a full users limit', () => {
  it.each([
    ['1280', desktop],
    ['390', phone],
  ])(
    'at %s px: links an owner to UPGRADE_URL on the overview and the members page',
    async (_width, viewport) => {
      const { page } = await signedIn(olu, viewport);
      await open(page, '/app/orgs/full-co', 'Overview');
      const users = page.locator('.limit').filter({ hasText: /^Users/ });
      expect(await visibleText(users)).toContain('None left');
      expect(await users.getByRole('link', { name: 'Change the plan or add-ons' }).getAttribute('href')).toBe(
        upgradeUrl,
      );
      await judge(page, 'full-overview-owner');

      await open(page, '/app/orgs/full-co/members', 'Members');
      const notice = page.locator('.add-form .notice');
      expect(await visibleText(notice)).toContain('Users limit reached: 5 of 5');
      expect(await notice.getByRole('link', { name: 'Change the plan or add-ons' }).getAttribute('href')).toBe(
        upgradeUrl,
      );
      // Nothing is sent for an address that is none; the message says so in words.
      const members = membersScreen(page);
      await members.add.click();
      expect(await textOnceShown(members.message, 'Enter one e-mail address')).toBe(
        'Enter one e-mail address, such as name@example.com, without spaces, commas, quotes, angle brackets or hidden characters.',
      );
      // One message at a time: the refusal replaces the limit's notice.
      expect(await page.getByText('Users limit reached: 5 of 5', { exact: true }).count()).toBe(0);
      expect(await notice.count()).toBe(1);
      await judge(page, 'full-members-owner');
    },
    60_000,
  );

  it('tells an admin which owner to ask, with no link', async () => {
    const { page } = await signedIn(ida);
    await open(page, '/app/orgs/full-co/members', 'Members');
    const notice = page.locator('.add-form .notice');
    expect(await visibleText(notice)).toContain(`Ask an owner to raise the limit: ${olu.email}.`);
    expect(await notice.getByRole('link').count()).toBe(0);
    await judge(page, 'full-members-admin');
  }, 30_000);
});

describe('a Chorus plan while Chorus is off', () => {
  it.each([
    ['1280', desktop],
    ['390', phone],
  ])(
    'at %s px: says what is wrong and whom to write to, on the overview and the SSO page',
    async (_width, viewport) => {
      const { page } = await signedIn(bea, viewport);
      await open(page, '/app/orgs/big-co', 'Overview');
      expect(await page.getByText('Big Co has no plan yet').count()).toBe(0);
      expect(await visibleText(page.locator('.overview__notice'))).toContain(
        'Chorus is off, so its Enterprise plan is not in effect',
      );
      expect(await page.getByRole('link', { name: supportEmail }).first().getAttribute('href')).toBe(
        `mailto:${supportEmail}`,
      );
      await judge(page, 'chorus-off-overview');

      await open(page, '/app/orgs/big-co/sso', 'SSO');
      expect(await visibleText(page.getByRole('main'))).toContain(
        'Chorus is off, so Big Co’s Chorus Enterprise plan, which includes single sign-on, is not in effect.',
      );
      await judge(page, 'chorus-off-sso');
    },
    60_000,
  );
});

describe('invitations and removals', () => {
  it('sends a pending invitation again, confirms a removal in words, and keeps the focus in the list', async () => {
    const { mail } = started();
    const { page, problems } = await signedIn(olu);
    await open(page, '/app/orgs/full-co/members', 'Members');
    const members = membersScreen(page);
    // Make room, then invite someone new.
    await members.remove('dee@full.example').click();
    await page
      .getByRole('dialog', { name: 'Remove dee@full.example?' })
      .getByRole('button', { name: 'Remove', exact: true })
      .click();
    await members.member('dee@full.example').waitFor({ state: 'detached' });
    expect(await textOnceShown(said(page, 'is removed'), 'is removed')).toBe(
      'dee@full.example is removed from Full Co.',
    );
    await members.email.fill('gus@full.example');
    await members.add.click();
    await members.member('gus@full.example').waitFor();
    await mail.mailTo('gus@full.example');

    await page.getByRole('button', { name: 'Resend invitation to gus@full.example' }).click();
    await textOnceShown(said(page, 'A new invitation'), 'A new invitation is on its way to gus@full.example.');
    const mailsToGus = () => mail.mails.filter((sent) => sent.to.includes('gus@full.example')).length;
    await waitFor('the second invitation mail', async () => (mailsToGus() === 2 ? true : undefined));
    await judge(page, 'members-resent');

    // With the keyboard: remove Cem; the focus goes to the next member, not the top of the page.
    const listed = (await members.list.locator('.row__title').allTextContents()).map((text) =>
      text.replace(' (you)', ''),
    );
    const next = listed[listed.indexOf('cem@full.example') + 1] ?? '';
    expect(next).toMatch(/@full\.example$/);
    await members.remove('cem@full.example').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Remove cem@full.example?' });
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await members.member('cem@full.example').waitFor({ state: 'detached' });
    await textOnceShown(said(page, 'cem@full.example is removed'), 'cem@full.example is removed from Full Co.');
    await waitFor('the focus on the next member', async () =>
      (await focusedText(page)).startsWith(next) ? true : undefined,
    );
    await judge(page, 'members-removed');
    expect(problems).toEqual([]);
  }, 60_000);
});
