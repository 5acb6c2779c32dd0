// The console shows every change at once (docs/console.md: "A change shows in the view right after it is
// acknowledged"): the sentence that says a member was added never appears beside the figures of before, and
// a plan bought through the API shows on the overview once another page is opened, without a reload.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { signedInPage, operatorCall } from './support/console-pages.js';
import { repositoryRoot, startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { consoleScreen, membersScreen, type ConsoleUser } from './support/console-screens.js';
import { textOnceShown, visibleText, visit } from './support/sign-in-screens.js';
import { waitFor } from './support/wait-for.js';

const ROUNDS = 20;
const screenshots = join(repositoryRoot, '.ci', 'artifacts', 'screenshots');
const rue: ConsoleUser = { email: 'rue@teams.example', password: 'harbor-lantern-5820' };

let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;
let apiKey = '';

const started = () => {
  if (server === undefined || browser === undefined)
    throw new Error('The server or the browser did not start (see beforeAll)');
  return { server, browser };
};

const operator = (method: string, path: string, body?: unknown) =>
  operatorCall(started().server.baseUrl, apiKey, method, path, body);

/** A Chorus teams organization (5 users) with Rue as its owner and `others` members besides. */
async function teamsOrganization(id: string, others: number): Promise<string> {
  await operator('POST', '/organizations', { name: `Team ${id}`, id });
  await operator('POST', `/organizations/${id}/plan`, { line: 'chorus', plan: 'teams' });
  await operator('PUT', `/organizations/${id}/chorus`, { enabled: true });
  await operator('POST', `/organizations/${id}/members`, { email: rue.email, role: 'owner' });
  for (let other = 1; other <= others; other += 1)
    await operator('POST', `/organizations/${id}/members`, { email: `m${other}@${id}.example`, role: 'member' });
  return id;
}

/**
 * The page's whole text at the first DOM change that holds `sentence`: a MutationObserver sees every committed
 * state, so a sentence shown beside the figures of before, even for one frame, is caught. Installed over
 * DevTools, so the page's CSP is not asked to eval anything.
 */
async function watchFor(page: Page, sentence: string): Promise<() => Promise<string>> {
  await page.evaluate(`(() => {
    window.firstSeen = undefined;
    const observer = new MutationObserver(() => {
      if (!document.body.innerText.includes(${JSON.stringify(sentence)})) return;
      window.firstSeen = document.body.innerText;
      observer.disconnect();
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
  return () => waitFor(`"${sentence}"`, () => page.evaluate<string | undefined>('window.firstSeen'));
}

const signedIn = (viewport = desktop) => signedInPage(started().browser, started().server.baseUrl, rue, viewport);

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  browser = await launchChromium();
  server = await startChorusServer();
  const created = await server.cli([
    'api-key:create',
    '--name',
    'read-your-writes',
    '--scopes',
    'organizations:read,organizations:write',
    '--json',
  ]);
  apiKey = (JSON.parse(created.stdout) as { key: string }).key;
  await server.createUser(rue);
  for (let round = 0; round < ROUNDS; round += 1) await teamsOrganization(`ryw-${round}`, 3);
  await teamsOrganization('ryw-plan', 0);
}, 180_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server);
}, 30_000);

describe('the console after its own change', () => {
  it(`shows "5 of 5" and the limit message with the sentence of the fifth member, ${ROUNDS} organizations in a row`, async () => {
    const { page, problems } = await signedIn();
    const members = membersScreen(page);
    const seen: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      await visit(page, `${started().server.baseUrl}/app/orgs/ryw-${round}/members`);
      await members.member('m3@').waitFor();
      expect(await visibleText(page.getByText(/^\d of 5 users$/))).toBe('4 of 5 users');
      const address = `fifth-${round}@ryw-${round}.example`;
      const firstSeen = await watchFor(page, `${address} is a member now`);
      await members.email.fill(address);
      await members.add.click();
      const text = await firstSeen();
      seen.push(
        `${round}: ${['5 of 5 users', 'Users limit reached: 5 of 5', address].filter((part) => !text.includes(part)).join(', ') || 'ok'}`,
      );
    }
    expect(seen).toEqual(Array.from({ length: ROUNDS }, (_, round) => `${round}: ok`));
    await page.screenshot({ path: join(screenshots, 'console-members-fifth-1280.png'), fullPage: true });
    await page.setViewportSize(phone);
    await page.screenshot({ path: join(screenshots, 'console-members-fifth-390.png'), fullPage: true });
    expect(problems).toEqual([]);
  }, 240_000);

  it('shows a plan bought through the API on the overview once another page was opened, without a reload', async () => {
    const { page, problems } = await signedIn();
    const screen = consoleScreen(page);
    const users = page
      .getByRole('listitem')
      .filter({ hasText: /^Users/ })
      .locator('.limit__usage');
    await visit(page, `${started().server.baseUrl}/app/orgs/ryw-plan`);
    expect(await visibleText(users)).toBe('1 of 5');
    const loads = await page.evaluate<number>(
      'performance.getEntriesByType("navigation").length + performance.timeOrigin',
    );

    await operator('POST', '/organizations/ryw-plan/plan', { line: 'chorus', plan: 'enterprise' });
    await screen.nav('Members').click();
    await textOnceShown(screen.heading, 'Members');
    await screen.nav('Overview').click();
    await textOnceShown(screen.heading, 'Overview');

    await waitFor('the new limit', async () => ((await visibleText(users)) === '1 of 1,000' ? true : undefined), 5_000);
    expect(
      await page.evaluate<number>('performance.getEntriesByType("navigation").length + performance.timeOrigin'),
    ).toBe(loads);
    expect(problems).toEqual([]);
  }, 60_000);
});
