// The audit explorer (docs/console.md History) in real Chromium against the real server: an auditor
// signs in through the login form, opens History, sees "Member added" entries, selects one and sees the
// added member in the diff, sets "As of" to before it and sees the member gone, opens a billing
// correlation, and downloads both exports (the files are read back). axe-core on every state, keyboard
// only, screenshots at 1280 and 390 px into .ci/artifacts/screenshots/history-*.png.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { signBillingPayload } from '#api';
import { signedInPage, operatorCall } from './support/console-pages.js';
import { expectAccessible } from './support/accessibility.js';
import { repositoryRoot, startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import {
  accountScreen,
  consoleScreen,
  logInThroughForm,
  scrollsSideways,
  type ConsoleUser,
} from './support/console-screens.js';
import { loginScreen, textOnceShown } from './support/sign-in-screens.js';
import { waitFor } from './support/wait-for.js';

const screenshots = join(repositoryRoot, '.ci', 'artifacts', 'screenshots');
const secret = 'whsec_browser_history_0123456789abcdef';
const billingEventId = 'evt_browser_history_1';

const ada: ConsoleUser = { email: 'ada@acme.example', password: 'granite-orchard-3317' };
const dee: ConsoleUser = { email: 'dee@acme.example', password: 'silver-harbour-5120' };
/** Audits Crowd, whose members outnumber what a state at a point lists. */
const eve: ConsoleUser = { email: 'eve@crowd.example', password: 'copper-meadow-7781' };

let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;

const started = () => {
  if (server === undefined || browser === undefined)
    throw new Error('The server or the browser did not start (see beforeAll)');
  return { server, browser };
};

const pause = (milliseconds: number) => new Promise((done) => setTimeout(done, milliseconds));

async function operator(apiKey: string, method: string, path: string, body?: unknown): Promise<void> {
  await operatorCall(started().server.baseUrl, apiKey, method, path, body);
}

async function deliverBilling(): Promise<void> {
  const delivery = JSON.stringify({
    id: billingEventId,
    type: 'addon.purchased',
    organizationId: 'acme',
    productId: 'prod_acs',
    quantity: 1,
    occurredAt: new Date().toISOString(),
  });
  const response = await fetch(`${started().server.baseUrl}/billing/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'billing-signature': signBillingPayload(secret, Math.floor(Date.now() / 1000), Buffer.from(delivery)),
    },
    body: delivery,
  });
  if (response.status !== 200)
    throw new Error(`the billing delivery answered ${response.status}: ${await response.text()}`);
}

const signedInAuditor = (viewport: Viewport = desktop) =>
  signedInPage(started().browser, started().server.baseUrl, dee, viewport);

function historyScreen(page: Page) {
  const events = page.getByRole('list', { name: 'Events, newest first' });
  return {
    events,
    entry: (description: string | RegExp) => events.getByRole('button', { name: description }),
    changes: page.getByRole('list', { name: 'What changed' }),
    membersThen: page.getByRole('list', { name: 'Members then' }),
    asOf: page.getByLabel('As of', { exact: true }),
    showState: page.getByRole('button', { name: 'Show state' }),
    correlation: (id: string) => page.getByRole('list', { name: `Events of correlation ${id}` }),
    downloadJsonLines: page.getByRole('link', { name: 'Download JSON lines' }),
    downloadCsv: page.getByRole('link', { name: 'Download CSV' }),
    downloadWithProof: page.getByRole('link', { name: 'Download with proof' }),
    publicKey: page.getByRole('link', { name: 'public key' }),
    proofStatus: page.locator('.history-proof'),
    usageTable: page.getByRole('table'),
  };
}

/**
 * The whole page from its top; `SHOOT_PARTS=1` also writes one file per screen height to /tmp/shots/ (to look at phone
 * pages closely).
 */
async function shoot(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: join(screenshots, `history-${name}-${size?.width ?? 0}.png`), fullPage: true });
  if (process.env.SHOOT_PARTS && size) {
    const height = await page.evaluate<number>('document.documentElement.scrollHeight');
    for (let top = 0, part = 1; top < height; top += size.height, part += 1) {
      await page.screenshot({
        path: `/tmp/shots/history-${name}-${size.width}-${part}.png`,
        fullPage: true,
        clip: { x: 0, y: top, width: size.width, height: Math.min(size.height, height - top) },
      });
    }
  }
}

/** Presses Tab until the element has the focus, as a keyboard user reaches it (fails after `most` presses). */
async function tabTo(page: Page, target: Locator, most = 80): Promise<void> {
  for (let presses = 0; presses < most; presses += 1) {
    await page.keyboard.press('Tab');
    if ((await target.and(page.locator(':focus')).count()) === 1) return;
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

async function download(page: Page, link: Locator): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  browser = await launchChromium();
  server = await startChorusServer({
    BILLING_WEBHOOK_SECRET: secret,
    PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs',
  });
  const created = await server.cli([
    'api-key:create',
    '--name',
    'Provisioning',
    '--scopes',
    'organizations:read,organizations:write',
    '--json',
  ]);
  const apiKey = (JSON.parse(created.stdout) as { key: string }).key;
  await server.createOrganization('Acme', 'acme', { line: 'chorus', plan: 'teams' });
  await operator(apiKey, 'PUT', '/organizations/acme/chorus', { enabled: true });
  await server.createUser({ ...ada, organizationId: 'acme', role: 'owner' });
  await server.createUser({ ...dee, organizationId: 'acme', role: 'auditor' });
  await operator(apiKey, 'POST', '/organizations/acme/sites', { name: 'Shop', hostname: 'shop.acme.example' });
  // "As of" takes whole seconds, and the test sets it a second before Ann joins, rounded down: she
  // joins more than two seconds after everything before her.
  await pause(2_500);
  await operator(apiKey, 'POST', '/organizations/acme/members', { email: 'ann@acme.example', role: 'admin' });
  await pause(1_100);
  await deliverBilling();
  // An organization with more members than a state at a point lists: Eve audits it, and 54 more join.
  await server.createOrganization('Crowd', 'crowd', { line: 'classic', plan: 'enterprise' });
  await server.createUser({ ...eve, organizationId: 'crowd', role: 'auditor' });
  for (let batch = 0; batch < 54; batch += 6)
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        operator(apiKey, 'POST', '/organizations/crowd/members', {
          email: `member-${batch + index}@crowd.example`,
          role: 'member',
        }),
      ),
    );
  await operator(apiKey, 'POST', '/organizations/crowd/members', { email: 'last@crowd.example', role: 'admin' });
}, 120_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server);
}, 30_000);

describe("an auditor replays Acme's history", () => {
  it('sees "Member added", the diff of one, the state as of before it, a billing correlation, and downloads both exports', async () => {
    const { page, problems } = await signedInAuditor();
    const screen = consoleScreen(page);
    await screen.nav('History').click();
    await textOnceShown(screen.heading, 'History');
    expect(await page.title()).toBe('History · Acme · Chorus');
    const history = historyScreen(page);

    // The timeline, newest first, in words, with who did it.
    await history.entry('Member added: ann@acme.example as admin').waitFor();
    const titles = await history.events.locator('.history-entry__title').allTextContents();
    expect(titles[0]).toBe('Add-on purchased: Additional site');
    expect(titles.filter((title) => title.startsWith('Member added'))).toEqual([
      'Member added: ann@acme.example as admin',
      'Member added: dee@acme.example as auditor',
      'Member added: ada@acme.example as owner',
    ]);
    const annRow = history.events
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: 'Member added: ann@acme.example as admin' }) });
    expect(await annRow.textContent()).toContain('API key “Provisioning”');
    const annAt = (await annRow.locator('time').getAttribute('datetime')) as string;
    expect(await annRow.locator('time').getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC$/);
    await expectAccessible(page, 'the history page');

    // Selecting the event: the added member is in the diff and in the state after it.
    await history.entry('Member added: ann@acme.example as admin').click();
    await history.changes.getByText('ann@acme.example as admin').waitFor();
    expect(await history.changes.textContent()).toContain('Users in use: 2 → 3');
    expect(await history.membersThen.textContent()).toContain('ann@acme.example');
    await expectAccessible(page, 'an event selected');
    await shoot(page, 'event');

    // "As of" a second before Ann joined (the field is in the browser's time zone): Ann is not there.
    const before = await page.evaluate((at: string) => {
      const date = new Date(Date.parse(at) - 1_000);
      const pad = (value: number) => String(value).padStart(2, '0');
      return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
    }, annAt);
    await history.asOf.fill(before);
    await history.showState.click();
    await page.getByText(/^The last event by then/).waitFor();
    expect(await history.membersThen.textContent()).toContain('dee@acme.example');
    expect(await history.membersThen.textContent()).not.toContain('ann@acme.example');
    await expectAccessible(page, 'the state as of an instant');
    await shoot(page, 'as-of');

    // The billing event's correlation: the ledger's delivery and what it did to Acme.
    await page.getByRole('button', { name: `Correlation ${billingEventId}` }).click();
    const correlated = history.correlation(billingEventId);
    await correlated.getByText('Billing event applied to the organization').waitFor();
    expect(await correlated.locator('.row__title').allTextContents()).toEqual([
      `Billing event received: add-on purchased, product prod_acs × 1 (${billingEventId})`,
      'Add-on purchased: Additional site',
      'Billing event applied to the organization',
    ]);
    await expectAccessible(page, 'a billing correlation');
    await shoot(page, 'correlation');

    // The chart's table alternative.
    await page.getByText('Show the figures as a table').click();
    expect(await history.usageTable.locator('tbody tr').last().textContent()).toContain('3 of 5');
    await expectAccessible(page, 'the usage table');

    // Both downloads: every event, oldest first, with the timeline's words.
    const jsonLines = await download(page, history.downloadJsonLines);
    const records = jsonLines.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { revision: number; description: string; actorName: string });
    expect(jsonLines.name).toBe('acme-history.jsonl');
    expect(records.map((record) => record.revision)).toEqual(records.map((_record, index) => index));
    expect(records.at(-1)).toMatchObject({ description: 'Add-on purchased: Additional site', actorName: 'Billing' });
    expect(records.map((record) => record.description)).toContain('Member added: ann@acme.example as admin');
    const csv = await download(page, history.downloadCsv);
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter((line) => line !== '');
    expect(csv.name).toBe('acme-history.csv');
    expect(lines[0]).toBe('recordedAt,revision,position,type,description,actor,actorName,correlationId');
    expect(lines).toHaveLength(records.length + 1);
    expect(lines.some((line) => line.includes(',MemberAdded,Member added: ann@acme.example as admin,'))).toBe(true);

    expect(problems).toEqual([]);
  }, 90_000);

  it('downloads the history with its proof and the public key the page links; chorus history:verify proves it, and the page then says it is signed', async () => {
    const { page, problems } = await signedInAuditor();
    await consoleScreen(page).nav('History').click();
    const history = historyScreen(page);
    await history.entry('Member added: ann@acme.example as admin').waitFor();
    await history.proofStatus.filter({ hasText: /No checkpoint is signed yet|Verified and signed/ }).waitFor();

    const proven = await download(page, history.downloadWithProof);
    expect(proven.name).toBe('acme-history.jsonl');
    const key = await download(page, history.publicKey);
    expect(key.text).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    const folder = join(started().server.dataDir, 'auditor');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'acme-history.jsonl'), proven.text);
    writeFileSync(join(folder, 'public.pem'), key.text);
    const verified = await started().server.cli([
      'history:verify',
      join(folder, 'acme-history.jsonl'),
      '--public-key',
      join(folder, 'public.pem'),
    ]);
    expect(verified.stdout).toContain('is complete and unaltered');

    await page.reload();
    await history.proofStatus
      .filter({
        hasText: /Verified and signed on .*, up to position \d+ of the record\. That covers every change below\./,
      })
      .waitFor();
    await expectAccessible(page, 'the history with its proof');
    await shoot(page, 'proof');
    expect(problems).toEqual([]);
  }, 90_000);

  it('with the keyboard alone: filters to "Member added", selects Ann\'s, and the diff shows her', async () => {
    const { page } = await signedInAuditor();
    const screen = consoleScreen(page);
    await tabTo(page, screen.nav('History'));
    await page.keyboard.press('Enter');
    await textOnceShown(screen.heading, 'History');
    const history = historyScreen(page);
    await history.entry('Member added: ann@acme.example as admin').waitFor();

    await tabTo(page, page.getByLabel('Event type', { exact: true }));
    // A focused <select> takes typed letters and arrow keys: "Member added" is chosen without a pointer.
    await page.getByLabel('Event type', { exact: true }).selectOption({ label: 'Member added' });
    await tabTo(page, page.getByRole('button', { name: 'Apply filters' }));
    await page.keyboard.press('Enter');
    // The filtered list, not the moment between the two lists when none is shown (every() of nothing is true).
    // Polled from the test: page.waitForFunction's polls are refused by the page's CSP (test/browser/README.md).
    const titles = await waitFor('the list filtered to "Member added"', async () => {
      const shown = await history.events.locator('.history-entry__title').allTextContents();
      return shown.length > 0 && shown.every((title) => title.startsWith('Member added')) ? shown : undefined;
    });
    expect(titles).toHaveLength(3);

    await tabTo(page, history.entry('Member added: ann@acme.example as admin'));
    await page.keyboard.press('Enter');
    await history.changes.getByText('ann@acme.example as admin').waitFor();
    await expectAccessible(page, 'filtered to "Member added"');
    await shoot(page, 'filtered');
  }, 90_000);

  it('at 390 px: nothing scrolls sideways, axe-core finds nothing', async () => {
    const { page } = await signedInAuditor(phone);
    await page.goto(`${started().server.baseUrl}/app/orgs/acme/history`);
    const history = historyScreen(page);
    await history.entry('Member added: ann@acme.example as admin').click();
    await history.changes.getByText('ann@acme.example as admin').waitFor();

    expect(await scrollsSideways(page)).toBe(false);
    // The pager's buttons stay inside the events' card.
    const card = await page.locator('.history-layout__events').boundingBox();
    for (const name of ['Newer events', 'Older events']) {
      const button = await page.getByRole('button', { name }).boundingBox();
      const inside =
        card !== null && button !== null && button.x >= card.x && button.x + button.width <= card.x + card.width;
      expect({ name, inside }).toEqual({ name, inside: true });
    }
    await expectAccessible(page, 'the history page at 390 px');
    await shoot(page, 'event');
    await page.getByRole('button', { name: `Correlation ${billingEventId}` }).click();
    await history.correlation(billingEventId).getByText('Billing event applied to the organization').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await shoot(page, 'correlation');
  }, 90_000);

  it('a state with more members than it lists says how many there were and that the first 50 are listed, at 1280 and 390 px', async () => {
    for (const viewport of [desktop, phone]) {
      const { page, problems } = await signedInPage(started().browser, started().server.baseUrl, eve, viewport);
      await page.goto(`${started().server.baseUrl}/app/orgs/crowd/history`);
      const history = historyScreen(page);
      await history.entry('Member added: last@crowd.example as admin').click();
      await history.changes.getByText('last@crowd.example as admin').waitFor();

      expect(await page.getByRole('heading', { name: 'Members (56)' }).count()).toBe(1);
      expect(await history.membersThen.getByRole('listitem').count()).toBe(50);
      await page.getByText('The first 50 of 56 members are listed.').waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await expectAccessible(page, `a state listing the first of its members at ${viewport.width} px`);
      await shoot(page, 'first-members');
      expect(problems).toEqual([]);
    }
  }, 90_000);

  it('filters live in the address: a reload keeps them, Back and Forward step through them, the download holds what is shown', async () => {
    const { page, problems } = await signedInAuditor();
    const history = historyScreen(page);
    // A cold console page: its first reads were preloaded by its HTML, and each is asked for once.
    const reads: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname === '/session' || pathname === '/organizations/acme') reads.push(pathname);
    });
    await page.goto(`${started().server.baseUrl}/app/orgs/acme/history`);
    await history.entry('Member added: ann@acme.example as admin').waitFor();
    expect(reads.sort()).toEqual(['/organizations/acme', '/session']);

    await page.getByLabel('Event type', { exact: true }).selectOption({ label: 'Member added' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((url) => url.searchParams.get('type') === 'MemberAdded');
    const filtered = async () =>
      waitFor('the list filtered to "Member added"', async () => {
        const shown = await history.events.locator('.history-entry__title').allTextContents();
        return shown.length === 3 && shown.every((title) => title.startsWith('Member added')) ? shown : undefined;
      });
    await filtered();

    await page.reload();
    await filtered();
    expect(await page.getByLabel('Event type', { exact: true }).inputValue()).toBe('MemberAdded');
    const csv = await download(page, history.downloadCsv);
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter((line) => line !== '');
    expect(lines.slice(1).map((line) => line.split(',')[3])).toEqual(['MemberAdded', 'MemberAdded', 'MemberAdded']);
    await expectAccessible(page, 'filtered, after a reload');
    await shoot(page, 'filtered-reloaded');

    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('type'));
    await waitFor('the whole list again', async () =>
      (await history.events.locator('.history-entry__title').first().textContent())?.startsWith('Add-on purchased')
        ? true
        : undefined,
    );
    expect(await page.getByLabel('Event type', { exact: true }).inputValue()).toBe('');
    await page.goForward();
    await filtered();
    expect(problems).toEqual([]);
  }, 90_000);

  it('a session ended elsewhere: the next read sends the page to the login once, without the old lists, and signing in comes back to it', async () => {
    const { page } = await signedInAuditor();
    const history = historyScreen(page);
    await page.goto(`${started().server.baseUrl}/app/orgs/acme/history?type=MemberAdded`);
    await history.entry('Member added: ann@acme.example as admin').waitFor();
    const logins: string[] = [];
    // Page loads of the login (a same-document history change is not one).
    page.on('request', (request) => {
      if (request.isNavigationRequest() && new URL(request.url()).pathname === '/login') logins.push(request.url());
    });

    // The same person, in another browser, signs out everywhere else.
    const elsewhere = await signedInAuditor();
    await elsewhere.page.goto(`${started().server.baseUrl}/app/account`);
    const account = accountScreen(elsewhere.page);
    await account.signOutEverywhereElse.click();
    await elsewhere.page.getByText('Every other session is signed out.').waitFor();

    // Back in the first browser: the next read (here, the filters cleared) answers 401.
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/app/orgs/acme/history');
    await loginScreen(page).logIn.waitFor();
    expect(await page.getByText('Member added: ann@acme.example as admin').count()).toBe(0);
    await pause(500);
    expect(logins).toHaveLength(1);

    await logInThroughForm(
      page,
      started().server.baseUrl,
      dee,
      `/login?redirect=${encodeURIComponent('/app/orgs/acme/history?type=MemberAdded')}`,
    );
    await page.waitForURL(
      (url) => url.pathname === '/app/orgs/acme/history' && url.searchParams.get('type') === 'MemberAdded',
    );
    await history.entry('Member added: ann@acme.example as admin').waitFor();
  }, 90_000);

  it('the account page keeps a long e-mail whole; an organization not theirs shows "No access" under no other organization', async () => {
    const long: ConsoleUser = {
      email: 'margaret.hamilton-delacroix@consolidated-acme.example',
      password: 'amber-meadow-6203',
    };
    await started().server.createUser({ ...long, organizationId: 'acme', role: 'auditor' });
    for (const viewport of [desktop, phone]) {
      const { page } = await started().browser.newPage(viewport);
      await logInThroughForm(page, started().server.baseUrl, long);
      await page.waitForURL((url) => url.pathname.startsWith('/app'));
      await page.goto(`${started().server.baseUrl}/app/account`);
      const email = page.locator('.fact__email');
      await email.waitFor();
      // Each line starts where a reader expects one: at the address's start or at its "@" (never inside a word).
      // (A string: this file is type-checked without the DOM's types.)
      const lineStarts = (await page.evaluate(`(() => {
        const element = document.querySelector('.fact__email');
        const starts = [];
        let top = -1;
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          for (let index = 0; index < text.length; index += 1) {
            const range = document.createRange();
            range.setStart(node, index);
            range.setEnd(node, index + 1);
            const rect = range.getBoundingClientRect();
            if (rect.top > top + 1) starts.push(text.charAt(index));
            top = Math.max(top, rect.top);
          }
        }
        return starts;
      })()`)) as string[];
      expect({ width: viewport.width, lineStarts }).toEqual({
        width: viewport.width,
        lineStarts: lineStarts.length === 1 ? ['m'] : ['m', '@'],
      });
      expect(await scrollsSideways(page)).toBe(false);
      await expectAccessible(page, `the account page at ${viewport.width} px`);
      await page.screenshot({
        path: join(screenshots, `console-account-long-email-${viewport.width}.png`),
        fullPage: true,
      });

      await page.goto(`${started().server.baseUrl}/app/orgs/nope`);
      await textOnceShown(consoleScreen(page).heading, 'No access');
      expect(await page.getByRole('banner').textContent()).not.toContain('Acme');
      expect(await page.getByRole('button', { name: /switch organization/ }).count()).toBe(0);
      await expectAccessible(page, `No access at ${viewport.width} px`);
      await page.screenshot({ path: join(screenshots, `console-no-access-${viewport.width}.png`), fullPage: true });
    }
  }, 90_000);

  it('a plain member is told the history is not theirs; the server answers 403', async () => {
    const member: ConsoleUser = { email: 'cem@acme.example', password: 'quiet-lagoon-8842' };
    await started().server.createUser({ ...member, organizationId: 'acme', role: 'member' });
    const { page } = await started().browser.newPage(desktop);
    await logInThroughForm(page, started().server.baseUrl, member);
    await page.waitForURL((url) => url.pathname.startsWith('/app'));
    await page.goto(`${started().server.baseUrl}/app/orgs/acme/history`);
    await page.getByText('Owners, admins and auditors read the history of Acme; members do not.').waitFor();
    const answer = await page.evaluate(async () => (await fetch('/organizations/acme/history/events')).status);
    expect(answer).toBe(403);
  }, 90_000);
});
