// Two-step sign-in in real Chromium against the real server (docs/console.md, Two-step sign-in). Passkeys are
// made and used by Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain), codes computed by
// otplib as an authenticator app would. Ada sets up an app and a passkey on her Account page; signing in again
// stops at /login/verify until her passkey (then, with the keyboard alone, a code) is given. Her organization then
// requires two-step sign-in, and Bob, who has no factor, sets a passkey up right after his password. Every screen:
// axe-core clean, nothing sideways, screenshots `two-step-<screen>-<width>.png` at 1280 and 390 px.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { generate } from 'otplib';
import type { BrowserContext, Page } from 'playwright-core';
import { watchedPage } from './support/console-pages.js';
import { startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { consoleScreen, logInThroughForm, type ConsoleUser } from './support/console-screens.js';
import { judgeScreen, openConsolePage, screenshots } from './support/judged-screens.js';
import { twoStepResetLinkInOutbox } from './support/outbox.js';
import { pathOf, textOnceShown, visibleText } from './support/sign-in-screens.js';
import { waitFor } from './support/wait-for.js';
import { Browser as HttpBrowser } from '../support/browser.js';

const ada: ConsoleUser = { email: 'ada@careful.example', password: 'amber-meadow-7731' };
const bob: ConsoleUser = { email: 'bob@careful.example', password: 'silver-canyon-5520' };

let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;
let adaSecret = '';
let adaRecoveryCodes: string[] = [];
let bobRecoveryCodes: string[] = [];

const started = () => {
  if (server === undefined || browser === undefined)
    throw new Error('The server or the browser did not start (see beforeAll)');
  return { server, browser };
};

const judge = (page: Page, name: string) => judgeScreen(page, 'two-step', name);

const authenticator = {
  protocol: 'ctap2',
  transport: 'internal',
  hasResidentKey: true,
  hasUserVerification: true,
  isUserVerified: true,
  automaticPresenceSimulation: true,
} as const;

type Devices = {
  /** Swaps the authenticator for a new one, holding the passkeys given (as a synced passkey would arrive). */
  anotherDevice(keeping?: Credential[]): Promise<void>;
  /** The passkeys the authenticator holds now. */
  passkeys(): Promise<Credential[]>;
};
type Credential = {
  credentialId: string;
  isResidentCredential: boolean;
  privateKey: string;
  signCount: number;
  rpId?: string;
  userHandle?: string;
};

/** Chromium's virtual authenticator for this page: a platform passkey that says yes at once. */
async function withPasskeys(context: BrowserContext, page: Page): Promise<Devices> {
  const devtools = await context.newCDPSession(page);
  await devtools.send('WebAuthn.enable');
  let { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', { options: authenticator });
  return {
    async anotherDevice(keeping = []) {
      await devtools.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
      ({ authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', { options: authenticator }));
      for (const credential of keeping) await devtools.send('WebAuthn.addCredential', { authenticatorId, credential });
    },
    async passkeys() {
      return (await devtools.send('WebAuthn.getCredentials', { authenticatorId })).credentials as Credential[];
    },
  };
}

/** The code the app would show now, or `steps` time steps later (a code not used yet). */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

async function newPage(viewport: Viewport, passkeys = true) {
  const opened = await watchedPage(started().browser, viewport, { allowedStatuses: [400, 401] });
  const devices = passkeys ? await withPasskeys(opened.context, opened.page) : undefined;
  return { ...opened, devices };
}

const catchingUp =
  'Chorus is still catching up with the latest changes, so this list is not shown yet: reload the page in a moment.';

/**
 * Opens the members page with its two-step list answered as a server whose read model is behind answers it (503
 * NOT_YET_CONSISTENT, Retry-After: 1), to see the card say so after the page's three tries.
 */
async function membersWhileCatchingUp(page: Page): Promise<void> {
  // Its pages too (`?limit=50`).
  const list = /\/organizations\/[^/]+\/two-step-sign-in(\?|$)/;
  const problem = {
    type: 'urn:chorus:problem:not-yet-consistent',
    title: 'Not yet consistent',
    status: 503,
    code: 'NOT_YET_CONSISTENT',
    detail: 'The read model has not reached position 42 yet; retry shortly.',
  };
  await page.route(list, (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({
          status: 503,
          contentType: 'application/problem+json',
          headers: { 'retry-after': '1' },
          body: JSON.stringify(problem),
        })
      : route.continue(),
  );
  try {
    await openConsolePage(page, started().server.baseUrl, '/app/orgs/careful-co/members', 'Members');
    await textOnceShown(page.getByRole('region', { name: 'Two-step sign-in' }).getByRole('alert'), catchingUp);
    await judge(page, 'members-catching-up');
  } finally {
    await page.unroute(list);
  }
}

/** The password, then the second step's page (the server sends a half-open session there from the console). */
async function toSecondStep(page: Page, user: ConsoleUser): Promise<void> {
  await logInThroughForm(page, started().server.baseUrl, user);
  await waitFor('the second step', () => (pathOf(page).startsWith('/login/verify?redirect=') ? true : undefined));
  await page.locator('.page-loading').waitFor({ state: 'detached' });
}

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  browser = await launchChromium();
  server = await startChorusServer({}, { publicHost: 'localhost' });
  await server.createOrganization('Careful Co', 'careful-co', { line: 'chorus', plan: 'teams' });
  await server.cli(['org:chorus', 'careful-co', '--on']);
  await server.createUser({ ...ada, organizationId: 'careful-co', role: 'owner' });
  await server.createUser({ ...bob, organizationId: 'careful-co', role: 'member' });
}, 180_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await closeAll(browser, server);
}, 30_000);

describe('two-step sign-in', () => {
  it('Ada sets up an authenticator app and a passkey, then signs in with the passkey', async () => {
    const { page, problems, devices } = await newPage(desktop);
    await logInThroughForm(page, started().server.baseUrl, ada);
    await waitFor('the console', () => (pathOf(page).startsWith('/app') ? true : undefined));
    await openConsolePage(page, started().server.baseUrl, '/app/account', 'Account');
    const card = page.getByRole('region', { name: 'Two-step sign-in' });
    await textOnceShown(
      card.getByText(/^Two-step sign-in is off/),
      'Two-step sign-in is off: your password alone signs you in. Add a second step so a stolen password is not enough.',
    );
    await judge(page, 'account-off');

    // Every change below is confirmed with her password, typed once on the page.
    await card.getByLabel('Your current password').fill(ada.password);
    await card.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const key = card.locator('.two-step-setup__secret code');
    adaSecret = (await visibleText(key)).replace(/\s/g, '');
    expect(adaSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await card.getByRole('img', { name: 'QR code for the authenticator app' }).isVisible()).toBe(true);
    await judge(page, 'account-app-setup');
    await card.getByLabel('Code from the app').fill('000000');
    await card.getByRole('button', { name: 'Turn on' }).click();
    await textOnceShown(
      card.getByRole('alert').filter({ hasText: /\S/ }),
      'The code is not correct: check the app shows Chorus and try the newest code.',
    );
    expect(await card.getByLabel('Code from the app').inputValue()).toBe('000000');
    await card.getByLabel('Code from the app').fill(await codeAt(adaSecret));
    await card.getByRole('button', { name: 'Turn on' }).click();
    const codes = card.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await waitFor('ten recovery codes', async () => ((await codes.count()) === 10 ? true : undefined));
    expect(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).toBe('Save your recovery codes');
    adaRecoveryCodes = await codes.allTextContents();
    await judge(page, 'account-recovery-codes');
    await card.getByRole('button', { name: 'I have saved them' }).click();

    await card.getByRole('button', { name: 'Add a passkey' }).click();
    await card.getByLabel('Passkey name').fill('Work laptop');
    await card.getByRole('button', { name: 'Create a passkey' }).click();
    const passkeys = card.getByRole('list', { name: 'Passkeys' }).getByRole('listitem');
    await textOnceShown(passkeys.first().locator('.row__title'), 'Work laptop');
    expect(await card.getByText(/^10 of 10 left, made /).count()).toBe(1);

    // A second passkey, on another device (an authenticator refuses to make a second one for the same account).
    const workLaptop = (await devices?.passkeys()) ?? [];
    expect(workLaptop).toHaveLength(1);
    await devices?.anotherDevice();
    await card.getByRole('button', { name: 'Add a passkey' }).click();
    await card.getByLabel('Passkey name').fill('Old phone');
    await card.getByRole('button', { name: 'Create a passkey' }).click();
    await textOnceShown(passkeys.nth(1).locator('.row__title'), 'Old phone');
    await card.getByRole('button', { name: 'Remove the passkey “Old phone”' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await textOnceShown(card.getByRole('status'), 'The passkey “Old phone” is removed.');
    expect(await passkeys.locator('.row__title').allTextContents()).toEqual(['Work laptop']);
    await judge(page, 'account-on');

    // Signed out, the password alone no longer opens the console: the second step asks for the passkey.
    await consoleScreen(page).userMenu.click();
    await consoleScreen(page).signOut.click();
    await waitFor('the login page', () => (pathOf(page).startsWith('/login') ? true : undefined));
    await toSecondStep(page, ada);
    await textOnceShown(page.getByRole('heading', { level: 1 }), 'Two-step sign-in');
    await judge(page, 'verify');
    // "Old phone" is removed: the passkey it holds no longer signs in; "Work laptop" does.
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await textOnceShown(
      page.getByRole('alert').filter({ hasText: /\S/ }),
      'The passkey was not used: the browser’s window was closed. Try again, or use a code.',
    );
    await devices?.anotherDevice(workLaptop);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await waitFor('the console', () => (pathOf(page).startsWith('/app') ? true : undefined));
    await consoleScreen(page).heading.waitFor();
    expect(problems).toEqual([]);
  }, 90_000);

  it("Bob can neither rename nor remove Ada's passkey by its id: 404, as for no passkey, and hers is unchanged", async () => {
    const { baseUrl } = started().server;
    // Ada over HTTP, through her second step with a recovery code the other tests leave unused.
    const adaHttp = new HttpBrowser(baseUrl);
    await adaHttp.open('/login');
    expect((await adaHttp.post('/login', { username: ada.email, password: ada.password })).status).toBe(204);
    expect((await adaHttp.post('/session/second-step/code', { code: adaRecoveryCodes[9] })).status).toBe(204);
    const passkeysOfAda = async () =>
      ((await adaHttp.get('/account/two-step')).body as { passkeys: { id: string; name: string }[] }).passkeys;
    const before = await passkeysOfAda();
    expect(before.map((passkey) => passkey.name)).toEqual(['Work laptop']);

    // Bob, fully signed in (no factor yet), confirms with his own password, as the calls ask.
    const bobHttp = new HttpBrowser(baseUrl);
    await bobHttp.open('/login');
    expect((await bobHttp.post('/login', { username: bob.email, password: bob.password })).status).toBe(204);
    for (const { id } of before) {
      const renamed = await bobHttp.request('PATCH', `/account/two-step/passkeys/${id}`, {
        json: { name: 'Stolen', password: bob.password },
      });
      expect(renamed.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      expect(
        (await bobHttp.delete(`/account/two-step/passkeys/${id}`, { json: { password: bob.password } })).body,
      ).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
    expect(await passkeysOfAda()).toEqual(before);
  }, 30_000);

  it.each([
    ['1280', desktop],
    ['390', phone],
  ])(
    'at %s px Ada passes the second step with the keyboard alone: a code from the app, or a recovery code',
    async (width, viewport: Viewport) => {
      const { page } = await newPage(viewport, false);
      await toSecondStep(page, ada);
      await page.getByLabel('Code from your authenticator app').waitFor();
      expect(await page.evaluate<string>('document.activeElement?.getAttribute("name") ?? ""')).toBe('code');
      await judge(page, 'verify-code');
      // A wrong code is said in words, and the field keeps what was typed.
      await page.keyboard.type('000000');
      await page.keyboard.press('Enter');
      await textOnceShown(page.getByRole('alert').filter({ hasText: /\S/ }), 'The code is not correct.');
      expect(await page.getByLabel('Code from your authenticator app').inputValue()).toBe('000000');
      await judge(page, 'verify-wrong');
      if (width === '1280') {
        await page.keyboard.press('Control+A');
        await page.keyboard.type(await codeAt(adaSecret));
      } else {
        // Tab from the field past "Continue" to "Use a recovery code instead"; the field comes back empty, for the
        // code.
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        expect(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).toBe(
          'Use a recovery code instead',
        );
        await page.keyboard.press('Enter');
        await page.getByLabel('Recovery code').focus();
        await judge(page, 'verify-recovery-code');
        await page.keyboard.type(adaRecoveryCodes[0] as string);
      }
      await page.keyboard.press('Enter');
      await waitFor('the console', () => (pathOf(page).startsWith('/app') ? true : undefined));
    },
    60_000,
  );

  it('Careful Co requires two-step sign-in: Bob sets up a passkey right after his password', async () => {
    const owner = await newPage(desktop, false);
    await toSecondStep(owner.page, ada);
    await owner.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await owner.page.getByLabel('Recovery code').fill(adaRecoveryCodes[1] as string);
    await owner.page.getByRole('button', { name: 'Continue' }).click();
    await waitFor('the console', () => (pathOf(owner.page).startsWith('/app') ? true : undefined));
    await openConsolePage(owner.page, started().server.baseUrl, '/app/orgs/careful-co/members', 'Members');
    const card = owner.page.getByRole('region', { name: 'Two-step sign-in' });
    await textOnceShown(card.getByText(/^1 of 2 members have/), '1 of 2 members have no second factor yet.');
    await card.getByLabel(/^Require two-step sign-in for every member/).check();
    await textOnceShown(card.getByRole('status'), 'Two-step sign-in is now required.');
    await judge(owner.page, 'members-required');
    await membersWhileCatchingUp(owner.page);
    // The same card on a phone, and the Account page's empty state there (Bob has no factor yet).
    const phoneOwner = await newPage(phone, false);
    await toSecondStep(phoneOwner.page, ada);
    await phoneOwner.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await phoneOwner.page.getByLabel('Recovery code').fill(adaRecoveryCodes[2] as string);
    await phoneOwner.page.getByRole('button', { name: 'Continue' }).click();
    await waitFor('the console', () => (pathOf(phoneOwner.page).startsWith('/app') ? true : undefined));
    await openConsolePage(phoneOwner.page, started().server.baseUrl, '/app/orgs/careful-co/members', 'Members');
    await textOnceShown(
      phoneOwner.page.getByRole('region', { name: 'Two-step sign-in' }).getByText(/^1 of 2 members have/),
      '1 of 2 members have no second factor yet.',
    );
    await judge(phoneOwner.page, 'members-required');
    await membersWhileCatchingUp(phoneOwner.page);

    // At 390 px Bob only looks; at 1280 px he sets his passkey up (after which he would be asked for it instead).
    for (const [width, viewport] of [
      ['390', phone],
      ['1280', desktop],
    ] as const) {
      const { page } = await newPage(viewport);
      await toSecondStep(page, bob);
      await textOnceShown(page.getByRole('heading', { level: 1 }), 'Set up two-step sign-in');
      await judge(page, 'enrol');
      if (width === '390') continue;
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await page.getByLabel('Passkey name').fill('Phone');
      await page.getByRole('button', { name: 'Create a passkey' }).click();
      await textOnceShown(page.getByRole('heading', { level: 1 }), 'Two-step sign-in is on');
      bobRecoveryCodes = await page
        .getByRole('list', { name: 'Recovery codes' })
        .getByRole('listitem')
        .allTextContents();
      expect(bobRecoveryCodes).toHaveLength(10);
      await judge(page, 'enrolled');
      await page.getByRole('button', { name: 'I have saved them, continue' }).click();
      await waitFor('the console', () => (pathOf(page).startsWith('/app') ? true : undefined));
      await consoleScreen(page).heading.waitFor();

      // Next time the passkey comes first.
      await consoleScreen(page).userMenu.click();
      await consoleScreen(page).signOut.click();
      await waitFor('the login page', () => (pathOf(page).startsWith('/login') ? true : undefined));
      await toSecondStep(page, bob);
      await textOnceShown(page.getByRole('heading', { level: 1 }), 'Two-step sign-in');
      await judge(page, 'verify-passkey');
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await waitFor('the console', () => (pathOf(page).startsWith('/app') ? true : undefined));
    }

    // The owner reads what Bob did in History, in words.
    await openConsolePage(owner.page, started().server.baseUrl, '/app/orgs/careful-co/history', 'History');
    const security = owner.page.getByRole('list', { name: 'Sign-in security events' }).getByRole('listitem');
    await textOnceShown(security.first().locator('.row__title'), 'Signed in after setting up two-step sign-in');
    expect(await security.filter({ hasText: bob.email }).locator('.row__title').allTextContents()).toEqual([
      'Signed in after setting up two-step sign-in',
      'Recovery codes made: ten new codes, any earlier ones no longer work',
      'Passkey added: “Phone”',
    ]);
    expect(await security.filter({ hasText: ada.email }).locator('.row__title').allTextContents()).toContain(
      'Signed in with a recovery code',
    );
    await judge(owner.page, 'history');
  }, 90_000);

  it('at 390 px the Account page shows the second factors, and a passkey can be renamed; the last one stays while it is required', async () => {
    // Another browser, without Bob's passkey: a recovery code, then.
    const { page } = await newPage(phone);
    await toSecondStep(page, bob);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(bobRecoveryCodes[0] as string);
    await page.getByRole('button', { name: 'Continue' }).click();
    await waitFor('the console', () => (pathOf(page).startsWith('/app') ? true : undefined));
    await openConsolePage(page, started().server.baseUrl, '/app/account', 'Account');
    const card = page.getByRole('region', { name: 'Two-step sign-in' });
    await textOnceShown(
      card.getByText(/requires two-step sign-in/),
      'Careful Co requires two-step sign-in: keep at least one way.',
    );
    // A change with the session alone is refused in words; with the password it is made.
    await card.getByRole('button', { name: 'Rename Phone' }).click();
    await card.getByLabel('New name for “Phone”').fill('Bob’s phone');
    await card.getByRole('button', { name: 'Save' }).click();
    await textOnceShown(card.getByRole('alert').filter({ hasText: /\S/ }), 'Confirm this change with your password.');
    await card.getByRole('button', { name: 'Cancel' }).click();
    await card.getByLabel('Your current password').fill(bob.password);
    await card.getByRole('button', { name: 'Rename Phone' }).click();
    await card.getByLabel('New name for “Phone”').fill('Bob’s phone');
    await card.getByRole('button', { name: 'Save' }).click();
    await textOnceShown(
      card.getByRole('list', { name: 'Passkeys' }).getByRole('listitem').first().locator('.row__title'),
      'Bob’s phone',
    );
    await judge(page, 'account');
    await card.getByRole('button', { name: 'Remove the passkey “Bob’s phone”' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await textOnceShown(
      card.getByRole('alert').filter({ hasText: /\S/ }),
      'Your organization requires two-step sign-in: set up another way first, then remove this one.',
    );
    expect(await card.getByRole('list', { name: 'Passkeys' }).getByRole('listitem').count()).toBe(1);
  }, 60_000);

  it("Ada asks to reset Bob's second factors; Bob agrees through the mailed link with his password", async () => {
    const owner = await newPage(desktop, false);
    await toSecondStep(owner.page, ada);
    await owner.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await owner.page.getByLabel('Recovery code').fill(adaRecoveryCodes[3] as string);
    await owner.page.getByRole('button', { name: 'Continue' }).click();
    await waitFor('the console', () => (pathOf(owner.page).startsWith('/app') ? true : undefined));
    await openConsolePage(owner.page, started().server.baseUrl, '/app/orgs/careful-co/members', 'Members');
    const card = owner.page.getByRole('region', { name: 'Two-step sign-in' });
    await card.getByRole('button', { name: `Reset the two-step sign-in of ${bob.email}` }).click();
    const dialog = owner.page.getByRole('dialog');
    await textOnceShown(dialog.getByRole('heading'), `Reset the two-step sign-in of ${bob.email}?`);
    await judge(owner.page, 'members-reset-dialog');
    await dialog.getByRole('button', { name: 'Reset' }).click();
    // Careful Co does not manage Bob's account (no single sign-on, no verified domain): Bob is asked.
    await textOnceShown(
      card.getByRole('status'),
      `${bob.email} was e-mailed a link to agree: their second factors stay until they do.`,
    );
    await judge(owner.page, 'members-reset-asked');

    const link = new URL(await twoStepResetLinkInOutbox(started().server.dataDir, bob.email));
    for (const [width, viewport] of [
      ['390', phone],
      ['1280', desktop],
    ] as const) {
      const { page } = await newPage(viewport, false);
      await page.goto(`${started().server.baseUrl}${link.pathname}`);
      await textOnceShown(page.getByRole('heading', { level: 1 }), 'Reset two-step sign-in?');
      expect(await page.getByText(/stop working in every organization you belong to/).count()).toBe(1);
      await judge(page, 'agree-to-reset');
      if (width === '390') continue;
      // With the keyboard alone: a wrong password is said in words, then the right one.
      await page.getByLabel('Your password').focus();
      await page.keyboard.type('not his password');
      await page.keyboard.press('Enter');
      await textOnceShown(page.getByRole('alert').filter({ hasText: /\S/ }), 'The password is not correct.');
      await page.getByLabel('Your password').fill(bob.password);
      await page.keyboard.press('Enter');
      await textOnceShown(page.getByRole('heading', { level: 1 }), 'Two-step sign-in is reset');
      await judge(page, 'agree-to-reset-done');
      // The link works once.
      await page.goto(`${started().server.baseUrl}${link.pathname}`);
      await textOnceShown(page.getByRole('heading', { level: 1 }), 'This link cannot be used');
    }
  }, 90_000);
});
