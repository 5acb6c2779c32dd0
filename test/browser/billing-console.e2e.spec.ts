// What an organization sees of its Stripe subscription, in real Chromium against the real server: Stripe
// (its event signed by the official package) downgrades Down Co from the Chorus Enterprise plan to Teams
// (5 users) with 8 members and schedules the subscription's end. The owner reads on the overview that the
// organization is 3 over its users limit and what to do, and the date the plan ends; the members page says
// it again by the add form, and to a member it names the owner to ask. Keyboard only reaches the way
// forward; axe-core clean and nothing sideways at 1280 and 390 px (`billing-<screen>-<width>.png`).
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import Stripe from 'stripe';
import { signedInPage } from './support/console-pages.js';
import { startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { judgeScreen, openConsolePage, screenshots } from './support/judged-screens.js';
import type { ConsoleUser } from './support/console-screens.js';
import { textOnceShown, visibleText } from './support/sign-in-screens.js';

const secret = 'whsec_browser_billing_0123456789';
const upgradeUrl = 'https://billing.example.com/portal';
const ona: ConsoleUser = { email: 'ona@down.example', password: 'copper-lantern-4410' };
const moe: ConsoleUser = { email: 'moe@down.example', password: 'velvet-harbor-2093' };
const DAY = 86_400;
const periodStart = Math.floor(Date.now() / 1000) - DAY;
const periodEnd = periodStart + 30 * DAY;
const endsOn = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
}).format(new Date(periodEnd * 1000));

let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;

const started = () => {
  if (server === undefined || browser === undefined)
    throw new Error('The server or the browser did not start (see beforeAll)');
  return { server, browser };
};

/** customer.subscription.updated as Stripe sends it: Teams instead of Enterprise, cancelled at the period's end. */
function downgrade(organizationId: string): Record<string, unknown> {
  const item = {
    id: 'si_down',
    object: 'subscription_item',
    quantity: 1,
    current_period_start: periodStart,
    current_period_end: periodEnd,
  };
  return {
    id: 'evt_browser_downgrade',
    object: 'event',
    api_version: '2025-03-31.basil',
    created: periodStart + 3_600,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'customer.subscription.updated',
    data: {
      object: {
        id: 'sub_down',
        object: 'subscription',
        customer: 'cus_down',
        status: 'active',
        cancel_at_period_end: true,
        cancel_at: periodEnd,
        canceled_at: periodStart + 3_600,
        created: periodStart,
        trial_start: null,
        trial_end: null,
        metadata: { organization_id: organizationId },
        items: {
          object: 'list',
          data: [{ ...item, price: { id: 'price_teams_monthly', object: 'price', product: 'prod_teams' } }],
        },
      },
    },
  };
}

const open = (page: Page, path: string, heading: string) =>
  openConsolePage(page, started().server.baseUrl, path, heading);

const judge = (page: Page, name: string) => judgeScreen(page, 'billing', name);

/** Tabs from the top of the page until `text` has the focus; answers how many presses it took (or -1). */
async function tabTo(page: Page, text: string, most = 60): Promise<number> {
  await page.evaluate('document.activeElement instanceof HTMLElement && document.activeElement.blur()');
  for (let presses = 1; presses <= most; presses += 1) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate<string>('document.activeElement?.textContent?.trim() ?? ""')) === text) return presses;
  }
  return -1;
}

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  browser = await launchChromium();
  server = await startChorusServer({
    STRIPE_WEBHOOK_SECRET: secret,
    PLAN_LINKED_PRODUCT_IDS: 'chorus:teams=prod_teams',
    UPGRADE_URL: upgradeUrl,
  });
  await server.createOrganization('Down Co', 'down-co', { line: 'chorus', plan: 'enterprise' });
  await server.cli(['org:chorus', 'down-co', '--on']);
  await server.createUser({ ...ona, organizationId: 'down-co', role: 'owner' });
  await server.createUser({ ...moe, organizationId: 'down-co', role: 'member' });
  for (const name of ['ava', 'ben', 'cai', 'dan', 'eli', 'fay']) {
    await server.createUser({
      email: `${name}@down.example`,
      password: 'pebble-lantern-1184',
      organizationId: 'down-co',
      role: 'member',
    });
  }
  const payload = JSON.stringify(downgrade('down-co'));
  const answer = await fetch(`${server.baseUrl}/billing/stripe`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
    },
    body: payload,
    signal: AbortSignal.timeout(10_000),
  });
  expect(answer.status).toBe(200);
}, 180_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server);
}, 30_000);

describe('a downgrade below what is in use, and a subscription that ends', () => {
  it.each([
    ['1280', desktop],
    ['390', phone],
  ])(
    'at %s px the owner reads by how much Down Co is over, what to do, and when the plan ends',
    async (_width, viewport: Viewport) => {
      const { page } = await signedInPage(started().browser, started().server.baseUrl, ona, viewport, {
        consoleErrors: false,
      });
      await open(page, '/app/orgs/down-co', 'Overview');

      const users = page.locator('.limit').filter({ hasText: /^Users/ });
      expect(await visibleText(users.locator('.limit__usage'))).toBe('8 of 5');
      await textOnceShown(users.getByText('3 over the limit'), '3 over the limit');
      await textOnceShown(
        users.getByText(/^Remove 3 members/),
        'Remove 3 members, or choose a larger plan, before adding more.',
      );
      expect(await users.getByRole('link', { name: 'Change the plan or add-ons' }).getAttribute('href')).toBe(
        upgradeUrl,
      );
      await textOnceShown(page.getByText(`Your plan ends on ${endsOn}`), `Your plan ends on ${endsOn}`);
      expect(
        await visibleText(
          page
            .locator('.fact')
            .filter({ hasText: /^Ends on/ })
            .locator('dd'),
        ),
      ).toBe(endsOn);
      expect(await tabTo(page, 'Keep the subscription')).toBeGreaterThan(0);
      await judge(page, 'overview');

      await open(page, '/app/orgs/down-co/members', 'Members');
      await textOnceShown(page.getByText('Users over the limit: 8 of 5'), 'Users over the limit: 8 of 5');
      await textOnceShown(
        page.getByText(/^Remove 3 members/),
        'Remove 3 members, or choose a larger plan, before adding more.',
      );
      expect(await page.getByText('Users over the limit').count()).toBe(1);
      await judge(page, 'members');
    },
  );

  it('a member is told the same, and whom to ask', async () => {
    const { page } = await signedInPage(started().browser, started().server.baseUrl, moe, desktop, {
      consoleErrors: false,
    });
    await open(page, '/app/orgs/down-co/members', 'Members');

    await textOnceShown(page.getByText('Users over the limit: 8 of 5'), 'Users over the limit: 8 of 5');
    await textOnceShown(page.getByText(/^Ask an owner/), 'Ask an owner to raise the limit: ona@down.example.');
    await judge(page, 'members-member');
  });
});
