// What raises a limit, a paid Chorus plan, one word for sites, and History's usage chart, in real Chromium
// against the real server (the first-run demo seeded; SUPPORT_EMAIL and UPGRADE_URL set). Set Co's sites limit
// was set for it (5): the Sites page says why an add-on would not raise it and offers only the support address,
// and one bought changes nothing. Plan Co's comes from its plan: the add-on is offered, and once bought a third
// site fits. Moved Co's Stripe subscription moves from a Classic product to Chorus Teams: Teams is in effect
// with Chorus on; once it ends, History's state says nothing can be added. History's chart scales to what it
// shows: Set Co's momentary 1,000 is a dot, the demo's plan limit far above its usage is named. axe-core
// clean at 1280 and 390 px, photographed as `limits-<screen>-<width>.png`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import Stripe from 'stripe';
import { DemoSeed } from '#api';
import { stripeEvent, subscriptionObject, type SubscriptionShape } from '../support/stripe-events.js';
import { operatorCall, signedInPage } from './support/console-pages.js';
import { startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { judgeScreen, openConsolePage, screenshots } from './support/judged-screens.js';
import { sitesScreen, type ConsoleUser } from './support/console-screens.js';
import { textOnceShown, visibleText } from './support/sign-in-screens.js';

const secret = 'whsec_browser_limits_0123456789';
const upgradeUrl = 'https://pricing.example.com/chorus';
const supportEmail = 'help@chorus.example';
const PROFESSIONAL = { price: 'price_pro_monthly', product: 'prod_pro' };
const TEAMS = { price: 'price_teams_monthly', product: 'prod_teams' };

const sam: ConsoleUser = { email: 'sam@set.example', password: 'amber-quarry-6612' };
const pia: ConsoleUser = { email: 'pia@plan.example', password: 'cedar-lantern-2290' };
const max: ConsoleUser = { email: 'max@moved.example', password: 'harbor-violet-8841' };

let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;
let apiKey = '';
let demo: ConsoleUser = { email: '', password: '' };
let clock = Math.floor(Date.now() / 1000) - 3_600;

const started = () => {
  if (server === undefined || browser === undefined)
    throw new Error('The server or the browser did not start (see beforeAll)');
  return { server, browser };
};

const operator = (method: string, path: string, body?: unknown) =>
  operatorCall(started().server.baseUrl, apiKey, method, path, body);

/** Refusals (409) show as console errors in Chromium: the tests provoke them. */
const signedIn = (user: ConsoleUser, viewport: Viewport) =>
  signedInPage(started().browser, started().server.baseUrl, user, viewport, { consoleErrors: false });

const open = (page: Page, path: string, heading: string) =>
  openConsolePage(page, started().server.baseUrl, path, heading);

const judge = (page: Page, name: string) => judgeScreen(page, 'limits', name);

/** A Stripe event about Moved Co's subscription, signed by the official package; each a second after the last. */
async function stripe(type: string, shape: Omit<SubscriptionShape, 'id' | 'organizationId'>): Promise<void> {
  clock += 1;
  const payload = JSON.stringify(
    stripeEvent(
      type,
      subscriptionObject({ id: 'sub_moved', organizationId: 'moved-co', periodStart: clock - 86_400, ...shape }),
      clock,
    ),
  );
  const answer = await fetch(`${started().server.baseUrl}/billing/stripe`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
    },
    body: payload,
  });
  if (answer.status !== 200) throw new Error(`POST /billing/stripe answered ${answer.status}: ${await answer.text()}`);
}

const widths: [string, Viewport][] = [
  ['1280', desktop],
  ['390', phone],
];

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  browser = await launchChromium();
  server = await startChorusServer({
    SEED_DEMO: 'true',
    SUPPORT_EMAIL: supportEmail,
    UPGRADE_URL: upgradeUrl,
    STRIPE_WEBHOOK_SECRET: secret,
    PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs',
    PLAN_LINKED_PRODUCT_IDS: 'chorus:teams=prod_teams',
  });
  const signIn = await server.app.get(DemoSeed).signIn();
  if (signIn.kind !== 'created') throw new Error('The demo was not seeded');
  demo = { email: signIn.email, password: signIn.password };
  const created = await server.cli([
    'api-key:create',
    '--name',
    'Operations',
    '--scopes',
    'organizations:read,organizations:write',
    '--json',
  ]);
  apiKey = (JSON.parse(created.stdout) as { key: string }).key;

  // Set Co, set up as the demo once was: Chorus Enterprise (1,000 sites for a moment), then 5 sites set for it.
  await server.createOrganization('Set Co', 'set-co', { line: 'chorus', plan: 'enterprise' });
  await server.cli(['org:chorus', 'set-co', '--on']);
  await operator('PUT', '/organizations/set-co/limits', { users: 10, contentSections: 5 });
  await server.createUser({ ...sam, organizationId: 'set-co', role: 'owner' });
  for (const name of ['One', 'Two', 'Three', 'Four', 'Five'])
    await operator('POST', '/organizations/set-co/sites', { name, hostname: `${name.toLowerCase()}.set.example` });
  // The owner bought an extra site, as the issue did: the limit set for Set Co stays 5.
  await operator('POST', '/organizations/set-co/add-ons', { addOn: 'additionalContentSection' });

  // Plan Co: Chorus Teams (2 sites) with Chorus on, both in use.
  await server.createOrganization('Plan Co', 'plan-co', { line: 'chorus', plan: 'teams' });
  await server.cli(['org:chorus', 'plan-co', '--on']);
  await server.createUser({ ...pia, organizationId: 'plan-co', role: 'owner' });
  for (const name of ['Shop', 'Blog'])
    await operator('POST', '/organizations/plan-co/sites', { name, hostname: `${name.toLowerCase()}.plan.example` });

  // Moved Co: a Stripe subscription to Classic professional, moved to Chorus Teams (Chorus was never turned on by
  // hand).
  await server.cli(['org:create', '--name', 'Moved Co', '--id', 'moved-co']);
  await server.createUser({ ...max, organizationId: 'moved-co', role: 'owner' });
  await stripe('customer.subscription.created', { items: [PROFESSIONAL] });
  await stripe('customer.subscription.updated', { items: [TEAMS] });
  await operator('POST', '/organizations/moved-co/sites', { name: 'Moved shop', hostname: 'shop.moved.example' });
}, 180_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server);
}, 30_000);

describe('a limit set for the organization', () => {
  it.each(widths)(
    'at %s px: an extra site bought changes nothing, and the Sites page says why and offers only the support address',
    async (width, viewport) => {
      const { page } = await signedIn(sam, viewport);
      await open(page, '/app/orgs/set-co', 'Overview');
      expect(
        await visibleText(
          page
            .locator('.limit')
            .filter({ hasText: /^Sites/ })
            .locator('.limit__usage'),
        ),
      ).toBe('5 of 5');
      expect(await visibleText(page.getByRole('main'))).toContain('Additional site × 1');
      expect(await page.getByText(/content section/i).count()).toBe(0);
      await judge(page, 'set-overview');

      await open(page, '/app/orgs/set-co/sites', 'Sites');
      const notice = page.locator('.add-form .notice');
      expect(await visibleText(notice)).toContain('Sites limit reached: 5 of 5');
      expect(await visibleText(notice)).toContain(
        'Set Co’s limit of 5 sites was set by Chorus, so neither an Additional site add-on nor another plan would raise it: only Chorus can.',
      );
      expect(await notice.getByRole('link', { name: supportEmail }).getAttribute('href')).toBe(
        `mailto:${supportEmail}`,
      );
      expect(await page.getByRole('link', { name: 'Change the plan or add-ons' }).count()).toBe(0);
      await judge(page, 'set-sites');

      // Adding one anyway: refused in the same words, what was typed kept.
      const sites = sitesScreen(page);
      await sites.name.fill(`Six ${width}`);
      await sites.hostname.fill(`six-${width}.set.example`);
      await sites.add.click();
      expect(await textOnceShown(sites.message, 'Sites limit reached')).toContain(
        'Sites limit reached: 5 of 5. Set Co’s limit of 5 sites was set by Chorus',
      );
      expect(await sites.hostname.inputValue()).toBe(`six-${width}.set.example`);
      await judge(page, 'set-sites-refused');
    },
    90_000,
  );
});

describe('a limit that comes from the plan', () => {
  it.each(widths)(
    'at %s px: the Sites page offers the add-on and a larger plan, with the upgrade link',
    async (_width, viewport) => {
      const { page } = await signedIn(pia, viewport);
      await open(page, '/app/orgs/plan-co/sites', 'Sites');
      const notice = page.locator('.add-form .notice');
      expect(await visibleText(notice)).toContain('Sites limit reached: 2 of 2');
      expect(await visibleText(notice)).toContain(
        'Each Additional site add-on adds one site, and a larger plan allows more.',
      );
      expect(await notice.getByRole('link', { name: 'Change the plan or add-ons' }).getAttribute('href')).toBe(
        upgradeUrl,
      );
      await judge(page, 'plan-sites');
    },
    60_000,
  );

  it('the add-on bought raises it: 2 of 3, and a third site is added', async () => {
    const { page } = await signedIn(pia, desktop);
    await operator('POST', '/organizations/plan-co/add-ons', { addOn: 'additionalContentSection' });
    await open(page, '/app/orgs/plan-co/sites', 'Sites');
    expect(await visibleText(page.getByRole('region', { name: 'Your sites' }))).toContain('2 of 3 sites');
    expect(await page.locator('.add-form .notice').count()).toBe(0);
    const sites = sitesScreen(page);
    await sites.name.fill('Docs');
    await sites.hostname.fill('docs.plan.example');
    await sites.add.click();
    await sites.list.getByText('docs.plan.example').waitFor();
    await textOnceShown(page.locator('.add-form .notice .notice__title'), 'Sites limit reached: 3 of 3');
    await judge(page, 'plan-sites-raised');
  }, 60_000);
});

describe('a Chorus plan paid through Stripe', () => {
  it.each(widths)(
    'at %s px: moved from a Classic product to Teams, Teams is in effect with Chorus on',
    async (_width, viewport) => {
      const { page } = await signedIn(max, viewport);
      await open(page, '/app/orgs/moved-co', 'Overview');
      const main = await visibleText(page.getByRole('main'));
      expect(main).not.toMatch(/Chorus is off|not in effect|no plan/i);
      expect(
        await visibleText(
          page
            .locator('.limit')
            .filter({ hasText: /^Sites/ })
            .locator('.limit__usage'),
        ),
      ).toBe('1 of 2');
      expect(
        await visibleText(
          page
            .locator('.limit')
            .filter({ hasText: /^Users/ })
            .locator('.limit__usage'),
        ),
      ).toBe('1 of 5');
      await judge(page, 'paid-overview');

      await open(page, '/app/orgs/moved-co/history', 'History');
      await page
        .getByRole('button', {
          name: 'Chorus turned on: the Chorus teams plan was paid for through billing, so it is in effect',
        })
        .waitFor();
      await judge(page, 'paid-history');
    },
    60_000,
  );
});

describe('after the plan ended', () => {
  beforeAll(async () => {
    await stripe('customer.subscription.deleted', { items: [TEAMS], status: 'canceled', endedAt: clock + 1 });
  });

  it.each(widths)(
    'at %s px: History\'s state and the Sites page say nothing can be added, never "of unlimited"',
    async (_width, viewport) => {
      const { page } = await signedIn(max, viewport);
      await open(page, '/app/orgs/moved-co/history', 'History');
      await page.getByRole('button', { name: /^Plan ended: Chorus teams/ }).click();
      const state = page.locator('.history-state');
      await state.getByText('none can be added without a plan').first().waitFor();
      const facts = await visibleText(state.locator('.history-state__facts'));
      expect(facts).toMatch(/Sites\s*1 in use: none can be added without a plan/);
      expect(facts).not.toContain('unlimited');
      await judge(page, 'ended-history');

      await open(page, '/app/orgs/moved-co/sites', 'Sites');
      expect(await visibleText(page.getByRole('region', { name: 'Your sites' }))).toContain(
        '1 in use: none can be added without a plan',
      );
      expect(await visibleText(page.locator('.add-form .notice'))).toContain('The plan has ended');
      expect(await visibleText(page.getByRole('main'))).not.toContain('unlimited');
      await judge(page, 'ended-sites');
    },
    60_000,
  );
});

describe("History's usage chart", () => {
  /** The ticks of the value axis of one chart: its bottom and top. */
  const ticks = (page: Page, chart: number) =>
    page.locator('.usage-chart').nth(chart).locator('.usage-chart__tick').allTextContents();

  it.each(widths)(
    'at %s px: a limit of an instant is a dot, not what the axis scales to',
    async (_width, viewport) => {
      const { page } = await signedIn(sam, viewport);
      await open(page, '/app/orgs/set-co/history', 'History');
      const sitesChart = page.locator('.usage-chart').nth(1);
      await sitesChart.waitFor();
      expect(await ticks(page, 1)).toEqual(expect.arrayContaining(['0', '5']));
      expect(await ticks(page, 1)).not.toContain('1,000');
      expect(await sitesChart.locator('.usage-chart__instant').count()).toBe(1);
      expect(await sitesChart.getByRole('img').getAttribute('aria-label')).toContain(
        'A limit of 1,000 held only for an instant',
      );
      await page.getByText('Show the figures as a table').click();
      expect(await visibleText(page.getByRole('table'))).toContain('(for an instant)');
      await page.locator('.usage-charts').scrollIntoViewIfNeeded();
      await judge(page, 'set-history');
    },
    60_000,
  );

  it.each(widths)(
    "at %s px: the demo's plan limit far above its usage is named, the usage is drawn to scale",
    async (_width, viewport) => {
      const { page } = await signedIn(demo, viewport);
      await open(page, '/app/orgs/demo/history', 'History');
      const sitesChart = page.locator('.usage-chart').nth(1);
      await sitesChart.waitFor();
      expect(await visibleText(sitesChart.locator('.usage-chart__above'))).toBe('Limit 1,000, far above ↑');
      expect(await ticks(page, 1)).toEqual(expect.arrayContaining(['0', '3']));
      // "Show" chooses the range; the scale fits what it shows.
      await page.getByLabel('Show', { exact: true }).selectOption('day');
      expect(await ticks(page, 1)).toEqual(expect.arrayContaining(['0', '3']));
      await judge(page, 'demo-history');
    },
    60_000,
  );
});
