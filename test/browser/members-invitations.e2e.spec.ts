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
const refusalWords =
  'Enter one e-mail address, such as name@example.com, without spaces, commas, quotes, angle brackets or hidden characters.';
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

async function membersPage(viewport: Viewport, organizationId = 'umbrella'): Promise<Page> {
  const { page } = await started().browser.newPage(viewport);
  await logInThroughForm(page, started().server.baseUrl, owner);
  await page.waitForURL((url) => url.pathname.startsWith('/app'));
  await page.goto(`${started().server.baseUrl}/app/orgs/${organizationId}/members`);
  await membersScreen(page).form.waitFor();
  return page;
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({
    path: join(screenshots, `console-${name}-${page.viewportSize()?.width ?? 0}.png`),
    fullPage: true,
  });
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
    // The members come in a read of their own, after the organization's.
    await screen.list.waitFor();
    if ((await screen.member(refusedAddress).count()) === 0) {
      await screen.email.focus();
      await page.keyboard.type(refusedAddress);
      await page.keyboard.press('Enter');
      await screen.status
        .filter({ hasText: `${refusedAddress} is a member now, as member. We are e-mailing them to let them know.` })
        .waitFor();
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

describe('a long list of members', () => {
  // Hooli: a Chorus enterprise plan whose owner is Olga, and 129 more people, as a company's directory brings them.
  beforeAll(async () => {
    const { server } = started();
    await server.createOrganization('Hooli', 'hooli', { line: 'chorus', plan: 'enterprise' });
    const created = await server.cli([
      'api-key:create',
      '--name',
      'long list',
      '--scopes',
      'organizations:read,organizations:write',
      '--json',
    ]);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const operator = async (method: string, path: string, body: unknown, expected: number): Promise<void> => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      if (response.status !== expected)
        throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    };
    await operator('PUT', '/organizations/hooli/chorus', { enabled: true }, 200);
    const add = (email: string, role: string) => operator('POST', '/organizations/hooli/members', { email, role }, 201);
    await add(owner.email, 'owner');
    for (let index = 1; index <= 129; index += 1) await add(`person-${index}@hooli.example`, 'member');
  }, 120_000);

  it.each([desktop, phone])(
    'reads the members fifty at a time, shows more and finds one by part of an address with the keyboard only (%j)',
    async (viewport) => {
      const page = await membersPage(viewport, 'hooli');
      const screen = membersScreen(page);
      const people = page.getByRole('region', { name: 'People' });
      const twoStep = page.getByRole('region', { name: 'Two-step sign-in' });
      const rows = (region: typeof people) => region.getByRole('list').getByRole('listitem');
      const said = (region: typeof people, words: string) =>
        region.getByRole('status').filter({ hasText: words }).waitFor();
      // Olga first, then person-1 to person-49: one page.
      await screen.member('person-49@hooli.example').waitFor();
      await twoStep.getByText('person-49@hooli.example').waitFor();
      expect([await rows(people).count(), await rows(twoStep).count()]).toEqual([50, 50]);
      await said(people, 'Showing 50 of 130 members.');
      await said(twoStep, 'Showing 50 of 130 members.');
      await twoStep.getByText('130 of 130 members have no second factor yet.').waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await shoot(page, 'members-long-list');

      // The next page by the keyboard: the focus goes to the first person it brings.
      const more = people.getByRole('button', { name: 'Show more members' });
      await more.focus();
      await page.keyboard.press('Enter');
      await said(people, 'Showing 100 of 130 members.');
      await waitFor('the focus on the first member of the new page', async () =>
        /^person-50@/.test(await page.evaluate(() => document.activeElement?.textContent ?? '')) ? true : undefined,
      );
      expect(await rows(people).count()).toBe(100);
      await shoot(page, 'members-more');

      await people.getByRole('searchbox', { name: 'Find a member' }).focus();
      await page.keyboard.type('person-12');
      await said(people, '11 members match.');
      expect(await rows(people).allTextContents()).toEqual([
        expect.stringMatching(/^person-12@/),
        ...Array.from({ length: 10 }, (_, index) => expect.stringMatching(new RegExp(`^person-12${index}@`))),
      ]);
      expect(await people.getByRole('button', { name: 'Show more members' }).count()).toBe(0);
      // From the search to the first match's own controls, by Tab.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('li')?.textContent ?? '')).toMatch(
        /^person-12@/,
      );

      await twoStep.getByRole('searchbox', { name: 'Find a member’s two-step sign-in' }).focus();
      await page.keyboard.type('nobody');
      await said(twoStep, 'No member’s address contains “nobody”.');
      expect(await rows(twoStep).count()).toBe(0);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('olga@');
      await said(twoStep, '1 member matches.');
      expect(await rows(twoStep).allTextContents()).toEqual([expect.stringMatching(/^olga@umbrella\.example/)]);
      expect(await accessibilityViolations(page)).toEqual([]);
      await shoot(page, 'members-found');
    },
  );
});
