// The console's Webhooks page (docs/console.md, Webhooks) in real Chromium against the real server, with a receiver of
// the customer's started here: an owner adds an endpoint with the keyboard alone (an address without a scheme refused
// in words first), copies the secret shown once, sees the deliveries arrive in the log (each signed with that
// secret), and turns the endpoint off; then adds a Datadog endpoint with its API key and sends it a test event, which
// the receiver gets with that key (and a failing one, said as such). axe-core clean and nothing sideways on every
// state, at 1280 and 390 px; screenshots `webhooks-<state>-<width>.png` in a temp directory (WEBHOOK_SCREENSHOTS
// names another).
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { accessibilityViolations } from './support/accessibility.js';
import { startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { signedInPage } from './support/console-pages.js';
import { consoleScreen, scrollsSideways, type ConsoleUser } from './support/console-screens.js';
import { openConsolePage } from './support/judged-screens.js';
import { textOnceShown, visibleText } from './support/sign-in-screens.js';
import { waitFor } from './support/wait-for.js';

const shots = process.env.WEBHOOK_SCREENSHOTS ?? join(tmpdir(), 'chorus-webhooks-screens');
const olga: ConsoleUser = { email: 'olga@acme.example', password: 'harbour-lantern-4417' };
const datadogKey = 'dd-0123456789abcdef0123456789abcdef';
/** The same receiver, under a path of its own: a second endpoint. */
const datadogUrl = () => `${started().receiver.url}/datadog`;

let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;
let receiver: WebhookReceiver | undefined;

const started = () => {
  if (server === undefined || browser === undefined || receiver === undefined)
    throw new Error('The server, the receiver or the browser did not start (see beforeAll)');
  return { server, browser, receiver };
};

function webhooksScreen(page: Page) {
  const form = page.getByRole('form', { name: 'Add endpoint' });
  const endpoints = page.getByRole('list', { name: 'Endpoints' });
  return {
    form,
    url: form.getByLabel('URL', { exact: true }),
    message: form.getByRole('alert'),
    status: form.getByRole('status'),
    secret: page.getByRole('group', { name: /^Signing secret for / }),
    endpoint: (url: string) => endpoints.getByRole('listitem', { name: url, exact: true }),
    listStatus: page.getByRole('region', { name: 'Endpoints' }).getByRole('status').first(),
    deliveries: (url: string) => page.getByRole('table', { name: `Deliveries to ${url}` }),
    format: form.getByRole('group', { name: 'Format' }),
    datadogKey: form.getByLabel('Datadog API key', { exact: true }),
    testButton: (url: string) => endpoints.getByRole('button', { name: `Send test event to ${url}`, exact: true }),
    testStatus: (url: string) => endpoints.getByRole('listitem', { name: url, exact: true }).locator('.webhook-test'),
  };
}

/** axe-core clean, nothing sideways, and a whole-page screenshot from the top. */
async function judge(page: Page, name: string): Promise<void> {
  expect({ name, violations: await accessibilityViolations(page) }).toEqual({ name, violations: [] });
  expect({ name, sideways: await scrollsSideways(page) }).toEqual({ name, sideways: false });
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({
    path: join(shots, `webhooks-${name}-${page.viewportSize()?.width ?? 0}.png`),
    fullPage: true,
  });
}

/** Tab until the focus is on `name` (a bound, so a wrong order fails instead of looping). */
async function tabTo(page: Page, name: RegExp): Promise<void> {
  const focused = () =>
    page.evaluate<string>(
      '(document.activeElement?.getAttribute("aria-label") || document.activeElement?.labels?.[0]?.textContent || document.activeElement?.textContent || "").trim()',
    );
  for (let presses = 0; presses < 30; presses += 1) {
    if (name.test(await focused())) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${name}; the focus is on "${await focused()}"`);
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  browser = await launchChromium();
  receiver = await WebhookReceiver.start();
  // Every delivery is kept, and checked below against the secret the page showed.
  receiver.verifying = false;
  server = await startChorusServer();
  await server.createOrganization('Acme', 'acme', { line: 'classic', plan: 'professional' });
  await server.createUser({ ...olga, organizationId: 'acme', role: 'owner' });
}, 120_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, receiver, server);
}, 30_000);

describe('the Webhooks page', () => {
  it('adds an endpoint with the keyboard, shows its secret once, logs the deliveries it receives, and turns it off', async () => {
    const { server, browser, receiver } = started();
    const { context, page, problems } = await signedInPage(browser, server.baseUrl, olga, desktop);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const screen = consoleScreen(page);
    await screen.nav('Webhooks').click();
    expect(await textOnceShown(screen.heading, 'Webhooks')).toBe('Webhooks');
    expect(await page.title()).toBe('Webhooks · Acme · Chorus');
    const hooks = webhooksScreen(page);
    await textOnceShown(page.getByText('None yet: add one below.'), 'None yet');
    await judge(page, 'empty');

    // With the keyboard alone: an address without its scheme is refused in words, and nothing typed is lost.
    await hooks.url.focus();
    await page.keyboard.type(receiver.url.replace(/^http:\/\//, ''));
    await page.keyboard.press('Tab');
    await page.keyboard.type('Provisioning scripts');
    await page.keyboard.press('Enter');
    expect(await textOnceShown(hooks.message, 'Enter the endpoint’s full address')).toContain(
      'starting with https:// or http://',
    );
    expect(await hooks.url.getAttribute('aria-invalid')).toBe('true');
    await judge(page, 'refused');
    await hooks.url.focus();
    await page.keyboard.press('Home');
    await page.keyboard.type('http://');
    expect(await hooks.url.inputValue()).toBe(receiver.url);

    // Events: only three types, chosen with the arrow keys and Space; from the beginning of the history.
    await tabTo(page, /^All events/);
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: /^Only the types I choose/ }).isChecked()).toBe(true);
    for (const type of [/^Organization created/, /^Plan changed/, /^Member added/]) {
      await tabTo(page, type);
      await page.keyboard.press('Space');
    }
    await tabTo(page, /^From now/);
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: /^From the beginning of the history/ }).isChecked()).toBe(true);
    await tabTo(page, /^Add endpoint$/);
    await page.keyboard.press('Enter');

    // The secret, shown once, with the focus on it; copied with the keyboard.
    await hooks.secret.waitFor();
    expect(
      await hooks.secret.getByRole('heading').evaluate((element) => element === element.ownerDocument.activeElement),
    ).toBe(true);
    const secret = await visibleText(hooks.secret.locator('code'));
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await textOnceShown(hooks.secret.getByRole('status'), 'Copied.');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);
    expect(await textOnceShown(hooks.status, 'is added.')).toBe(
      `${receiver.url} is added. Every event of Acme’s history is sent to it, in order, then new ones.`,
    );
    await judge(page, 'secret');

    // The organization's creation, its plan and Olga's joining reach the receiver, in order, signed with that secret.
    const received = await receiver.waitFor(3, 20_000);
    expect(received.map((delivery) => delivery.payload.type)).toEqual([
      'organization.created',
      'plan.changed',
      'member.added',
    ]);
    expect(received.every((delivery) => receiver.verifiesWith(secret, delivery))).toBe(true);

    // The log shows them: newest first, 200, the receiver's own answer.
    const endpoint = hooks.endpoint(receiver.url);
    await endpoint.getByRole('button', { name: `Deliveries to ${receiver.url}` }).click();
    const log = hooks.deliveries(receiver.url);
    await waitFor('the three deliveries in the log', async () =>
      (await log.getByRole('row').count()) === 4 ? true : undefined,
    );
    const newest = log.getByRole('row').nth(1);
    expect(await visibleText(newest.getByRole('cell').nth(1))).toMatch(/^member\.added position \d+$/);
    expect(await visibleText(newest.getByRole('cell').nth(3))).toBe('200');
    expect(await visibleText(newest.getByRole('cell').nth(5))).toBe('thanks');
    expect(await textOnceShown(endpoint.locator('.webhook-health'), 'Last delivery')).toMatch(
      /^Last delivery: member\.added, answered 200 on /,
    );
    await judge(page, 'deliveries');

    // Turned off: said in words, and the endpoint reads "Off".
    await endpoint.getByRole('button', { name: `Turn off ${receiver.url}` }).click();
    await textOnceShown(hooks.listStatus, 'is off');
    expect(await visibleText(endpoint.locator('.tag'))).toBe('Off');
    expect(await visibleText(endpoint.locator('.webhook-health'))).toBe(
      'Turned off. Nothing is sent until it is turned on again.',
    );
    await judge(page, 'off');
    expect(problems).toEqual([]);
  }, 120_000);

  it('at 390 px: the current tab in view, the endpoint, its log and the replay form fit, axe-clean, nothing sideways', async () => {
    const { server, browser, receiver } = started();
    const { page, problems } = await signedInPage(browser, server.baseUrl, olga, phone);
    await openConsolePage(page, server.baseUrl, '/app/orgs/acme/webhooks', 'Webhooks');
    const hooks = webhooksScreen(page);
    const endpoint = hooks.endpoint(receiver.url);
    await endpoint.waitFor();
    // An owner's seven tabs scroll sideways at 390 px: the current one is in view.
    const tab = await consoleScreen(page).nav('Webhooks').boundingBox();
    expect(tab !== null && tab.x >= 0 && tab.x + tab.width <= phone.width).toBe(true);
    await judge(page, 'page');
    await endpoint.getByRole('button', { name: `Deliveries to ${receiver.url}` }).click();
    await hooks.deliveries(receiver.url).waitFor();
    await judge(page, 'deliveries');
    await endpoint.getByRole('button', { name: `Replay from… to ${receiver.url}` }).click();
    await page.getByRole('radio', { name: 'A date and time' }).check();
    await page.getByLabel('Time zone', { exact: true }).waitFor();
    await judge(page, 'replay');
    expect(problems).toEqual([]);
  }, 60_000);

  it('adds a Datadog endpoint with its API key (no secret to show), and a test event reaches the receiver with that key', async () => {
    const { server, browser, receiver } = started();
    const { page, problems } = await signedInPage(browser, server.baseUrl, olga, desktop);
    await openConsolePage(page, server.baseUrl, '/app/orgs/acme/webhooks', 'Webhooks');
    const hooks = webhooksScreen(page);
    await hooks.endpoint(receiver.url).waitFor();

    // The key's field comes with the format, named as Datadog names it, and keeps what is typed out of sight.
    expect(await hooks.datadogKey.count()).toBe(0);
    await hooks.format.getByRole('radio', { name: /^Datadog logs/ }).check();
    expect(await hooks.datadogKey.getAttribute('type')).toBe('password');
    await hooks.datadogKey.fill(datadogKey);
    await hooks.url.fill(datadogUrl());
    await judge(page, 'datadog-form');
    await hooks.form.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await textOnceShown(hooks.status, 'is added.')).toBe(
      `${datadogUrl()} is added. Events are sent to it from now on. They go in batches, with the Datadog API key you gave.`,
    );
    expect(await hooks.secret.count()).toBe(0);
    const endpoint = hooks.endpoint(datadogUrl());
    expect(await textOnceShown(endpoint, 'Format: Datadog logs')).toContain('Format: Datadog logs');
    expect(await endpoint.getByRole('button', { name: /^New secret/ }).count()).toBe(0);

    // A test event: the receiver gets it as Datadog's intake would, with the key; the page says it was delivered.
    const before = receiver.requests.length;
    await hooks.testButton(datadogUrl()).click();
    const delivered = await textOnceShown(hooks.testStatus(datadogUrl()), 'Test event delivered');
    expect(delivered).toMatch(/^Test event delivered: your endpoint answered 200 in \d+(?: ms|\.\d s)\.$/);
    expect(await hooks.testButton(datadogUrl()).isEnabled()).toBe(true);
    const sent = receiver.requests.slice(before).find((request) => request.headers['dd-api-key'] !== undefined);
    expect(sent?.headers['dd-api-key']).toBe(datadogKey);
    expect((JSON.parse(sent?.body ?? '[]') as { chorus?: { type?: string } }[]).map((log) => log.chorus?.type)).toEqual(
      ['webhook.test'],
    );
    await judge(page, 'test-delivered');

    // A receiver that fails: said in the server's sentence, with the start of its answer.
    receiver.answer = 500;
    try {
      await hooks.testButton(datadogUrl()).click();
      expect(await textOnceShown(hooks.testStatus(datadogUrl()), 'not delivered')).toMatch(
        /^Test event not delivered: The receiver answered 500\./,
      );
    } finally {
      receiver.answer = 200;
    }
    await judge(page, 'test-failed');
    expect(problems).toEqual([]);
  }, 60_000);

  it('at 390 px: the Datadog form and a test event’s outcome fit, axe-clean, nothing sideways', async () => {
    const { server, browser } = started();
    const { page, problems } = await signedInPage(browser, server.baseUrl, olga, phone);
    await openConsolePage(page, server.baseUrl, '/app/orgs/acme/webhooks', 'Webhooks');
    const hooks = webhooksScreen(page);
    await hooks.endpoint(datadogUrl()).waitFor();
    await hooks.format.getByRole('radio', { name: /^Datadog logs/ }).check();
    await hooks.datadogKey.fill(datadogKey);
    await judge(page, 'datadog-form');
    await hooks.testButton(datadogUrl()).click();
    await textOnceShown(hooks.testStatus(datadogUrl()), 'Test event delivered');
    await judge(page, 'test-delivered');
    expect(problems).toEqual([]);
  }, 60_000);
});
