// Enterprise single sign-on in real Chromium against the real server, oauth2-mock-server as the provider and dnsmasq
// proving the domain: the owner connects it, people of the domain sign on, every failure ends on the login page.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { DnsServer, dnsServerMissing } from '../support/dns-server.js';
import { IdentityProvider } from '../support/identity-provider.js';
import { watchedPage, operatorCall } from './support/console-pages.js';
import { expectAccessible } from './support/accessibility.js';
import { startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { startMailCatcher, type MailCatcher } from './support/mail-catcher.js';
import { shootWholePage } from './support/screenshots.js';
import { consoleScreen, logInThroughForm, ssoScreen, type ConsoleUser } from './support/console-screens.js';
import { errorMessages } from './support/seed-texts.js';
import { loginScreen, pathOf, sessionOf, textOnceShown, visibleText } from './support/sign-in-screens.js';

const olivia: ConsoleUser = { email: 'olivia@acme.example', password: 'granite-orchard-3317' };
// Letters and digits: see test/e2e/sso.e2e.spec.ts on how the mock reads Basic credentials.
const clientId = 'chorusAcme';
const clientSecret = 'browser-test-client-secret-7f3a';

let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;
let idp: IdentityProvider | undefined;
let dns: DnsServer | undefined;
let mail: MailCatcher | undefined;
let apiKey = '';

const started = () => {
  if (server === undefined || browser === undefined || idp === undefined || dns === undefined || mail === undefined) {
    throw new Error(
      'The server, the provider, the DNS server, the mail catcher or the browser did not start (see beforeAll)',
    );
  }
  return { server, browser, idp, dns, mail };
};

const operator = (method: string, path: string, body?: unknown) =>
  operatorCall<{ position?: number; usage?: { users: number } }>(started().server.baseUrl, apiKey, method, path, body);

const openPage = (viewport: Viewport = desktop) =>
  watchedPage(started().browser, viewport, { allowedStatuses: [401, 409, 400, 422] });

/**
 * Opens the organization's sign-on link: the browser goes to the provider, which signs `email` in at once, and back.
 */
/**
 * Presses "Check now" as a person would, and again while DNS does not answer: on a busy machine a lookup can pass
 * its bound (2 s, twice), which decides nothing and says "DNS did not answer ... try again in a moment". Answers what
 * the server's check found, read off its answer rather than waited for on the page.
 */
async function checkWithKeyboard(page: Page, domain: string): Promise<'found' | 'absent'> {
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    const answered = page.waitForResponse((response) => response.url().endsWith(`/domains/${domain}/verify`));
    await ssoScreen(page).checkNow(domain).focus();
    await page.keyboard.press('Enter');
    const { lookup } = (await (await answered).json()) as { lookup: 'found' | 'absent' | 'unknown' };
    if (lookup !== 'unknown') return lookup;
  }
  throw new Error(`DNS did not answer for ${domain} in five checks`);
}

async function signOnAs(email: string, claims: Record<string, unknown> = {}) {
  started().idp.signsIn(email, claims);
  const opened = await openPage();
  await opened.page.goto(`${started().server.baseUrl}/auth/sso/acme`);
  return opened;
}

beforeAll(async () => {
  browser = await launchChromium();
  idp = await IdentityProvider.start();
  const missing = dnsServerMissing();
  if (missing !== undefined) throw new Error(missing);
  dns = await DnsServer.start(['acme.example']);
  mail = await startMailCatcher();
  server = await startChorusServer({ DNS_SERVERS: dns.address, SMTP_URL: mail.smtpUrl });
  const created = await server.cli([
    'api-key:create',
    '--name',
    'sso browser tests',
    '--scopes',
    'organizations:read,organizations:write',
    '--json',
  ]);
  apiKey = (JSON.parse(created.stdout) as { key: string }).key;
  await server.createOrganization('Acme', 'acme', { line: 'classic', plan: 'enterprise' });
  await server.createUser({ ...olivia, organizationId: 'acme', role: 'owner' });
}, 120_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  const provider = idp === undefined ? undefined : { close: () => (idp as IdentityProvider).stop() };
  await closeAll(
    browser,
    server,
    provider,
    dns === undefined ? undefined : { close: () => (dns as DnsServer).stop() },
    mail,
  );
}, 30_000);

describe('the SSO page', () => {
  it('lets the owner connect the provider: a refusal in words first, then saved, keyboard only, axe-clean, at 1280 and 390 px', async () => {
    const { server, idp } = started();
    const { page, problems } = await openPage();
    await logInThroughForm(page, server.baseUrl, olivia);
    await page.waitForURL((url) => url.pathname.startsWith('/app'));
    const screen = consoleScreen(page);
    await screen.nav('SSO').click();
    expect(await textOnceShown(screen.heading, 'SSO')).toBe('SSO');
    expect(await page.title()).toBe('SSO · Acme · Chorus');
    expect(await visibleText(page.getByText('/auth/sso/callback'))).toBe(`${server.baseUrl}/auth/sso/callback`);
    await expectAccessible(page, 'the SSO page, off');
    await shootWholePage(page, 'console-sso-off');

    // With the keyboard alone: an issuer that is no OpenID provider is refused in words, nothing typed lost.
    const sso = ssoScreen(page);
    await sso.issuer.focus();
    await page.keyboard.type('http://127.0.0.1:9/nothing-here');
    await page.keyboard.press('Tab');
    await page.keyboard.type(clientId);
    await page.keyboard.press('Tab');
    await page.keyboard.type(clientSecret);
    await page.keyboard.press('Tab');
    await page.keyboard.type('acme.example');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await sso.enforce.isChecked()).toBe(true);
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await textOnceShown(sso.message, 'could not be reached as an OpenID provider')).toContain(
      'http://127.0.0.1:9/nothing-here',
    );
    expect(await sso.issuer.getAttribute('aria-invalid')).toBe('true');
    expect(await sso.clientSecret.inputValue()).toBe(clientSecret);
    await expectAccessible(page, 'the SSO page, refused');
    await shootWholePage(page, 'console-sso-refused');

    await sso.issuer.fill(idp.issuer);
    await sso.turnOn.click();
    await textOnceShown(sso.status, 'Single sign-on is saved.');
    expect(await visibleText(page.getByText(/^Set up with/))).toBe('Set up with OpenID Connect for acme.example.');
    expect(await sso.clientSecret.inputValue()).toBe('');
    expect(await page.content()).not.toContain(clientSecret);

    // The domain waits for its DNS record, shown to be copied: name, type, value.
    expect(await textOnceShown(sso.domain('acme.example'), 'Waiting for DNS record')).toContain('acme.example');
    expect(await visibleText(page.getByText('_chorus-verification.acme.example'))).toBe(
      '_chorus-verification.acme.example',
    );
    const token = await visibleText(sso.recordValue('acme.example'));
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await expectAccessible(page, 'the SSO page, a domain waiting for its record');
    await shootWholePage(page, 'console-sso');
    // At 390 px, the record wraps and nothing scrolls sideways.
    const phonePage = await openPage(phone);
    await logInThroughForm(phonePage.page, server.baseUrl, olivia, '/login?redirect=%2Fapp%2Forgs%2Facme%2Fsso');
    await textOnceShown(consoleScreen(phonePage.page).heading, 'SSO');
    await ssoScreen(phonePage.page).recordValue('acme.example').waitFor();
    expect(await phonePage.page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth')).toBe(
      false,
    );
    await expectAccessible(phonePage.page, 'the SSO page at 390 px');
    await shootWholePage(phonePage.page, 'console-sso');
    // Checked before it is published: said in words, nothing changes.
    expect(await checkWithKeyboard(page, 'acme.example')).toBe('absent');
    await textOnceShown(page.getByText(/was not found yet/), 'not found yet');
    // Published, then checked with the keyboard: verified.
    await started().dns.serve({ '_chorus-verification.acme.example': [token] });
    expect(await checkWithKeyboard(page, 'acme.example')).toBe('found');
    expect(await textOnceShown(sso.domain('acme.example'), 'Verified since')).toContain('Verified');
    await expectAccessible(page, 'the SSO page, verified');
    await shootWholePage(page, 'console-sso-verified');

    // olivia signs in with a password: she links her account to the provider once, from this page.
    idp.signsIn(olivia.email);
    await sso.linkAccount.click();
    await page.waitForURL((url) => url.pathname === '/app/orgs/acme/sso');

    expect([...problems, ...phonePage.problems]).toEqual([]);
  }, 90_000);
});

describe('signing on through the provider', () => {
  it('lands a member in the console, and a newcomer of the domain too (added just in time)', async () => {
    const { server } = started();
    for (const email of ['olivia@acme.example', 'nina@acme.example']) {
      const { context, page, problems } = await signOnAs(email);
      await page.waitForURL((url) => url.pathname.startsWith('/app/orgs/acme'));
      expect(await textOnceShown(consoleScreen(page).heading, 'Overview')).toBe('Overview');
      expect((await sessionOf(context, server.baseUrl)).email).toBe(email);
      expect(problems).toEqual([]);
    }
  }, 60_000);

  it.each([
    ['the provider refuses', 'olivia@acme.example', {}, true],
    ['the e-mail address is not verified', 'olivia@acme.example', { email_verified: false }, false],
    ['the address is of another domain', 'olivia@gmail.example', {}, false],
    ['the id_token is for another client', 'olivia@acme.example', { aud: 'some-other-client' }, false],
  ])(
    "ends at /login?error=sso with the seed's message when %s",
    async (_case, email, claims, refused) => {
      const { server, idp } = started();
      if (refused) idp.refuseNextAuthorization('access_denied');
      const { context, page } = await signOnAs(email, claims);
      await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('error'));
      expect(pathOf(page)).toBe('/login?error=sso');
      expect(await textOnceShown(loginScreen(page).message, errorMessages.sso)).toBe(errorMessages.sso);
      expect((await sessionOf(context, server.baseUrl)).status).toBe(401);
    },
    30_000,
  );

  it("ends at /login?error=sso with the seed's message when the users limit leaves no room for a newcomer", async () => {
    const { server } = started();
    const view = (await operator('GET', '/organizations/acme')) as { usage: { users: number } };
    await operator('PUT', '/organizations/acme/limits', { users: view.usage.users });
    const { page } = await signOnAs('late@acme.example');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('error'));
    expect(pathOf(page)).toBe('/login?error=sso');
    await shootWholePage(page, 'login-sso-failed');
    expect(await textOnceShown(loginScreen(page).message, errorMessages.sso)).toBe(errorMessages.sso);
    const members = (await operator('GET', '/organizations/acme')) as unknown as { members: { email: string }[] };
    expect(members.members.map((member) => member.email)).not.toContain('late@acme.example');
    expect(server.logs.some((line) => line.reason === 'users-limit')).toBe(true);
  }, 30_000);
});

describe('an invitation to an organization that enforces single sign-on', () => {
  it('leads the invitee to the provider instead of a password: keyboard only, axe-clean, at 1280 and 390 px', async () => {
    const { server, idp, mail } = started();
    await operator('PUT', '/organizations/acme/limits', { users: null });
    await operator('PUT', '/organizations/acme/sso', {
      issuer: idp.issuer,
      clientId,
      domains: ['acme.example'],
      enforce: true,
    });
    await operator('POST', '/organizations/acme/members', { email: 'ivy@acme.example', role: 'member' });
    const invitation = await mail.mailTo('ivy@acme.example');
    const link =
      new RegExp(`${server.baseUrl.replaceAll('.', '\\.')}/invite/[A-Za-z0-9_-]{64}`).exec(invitation.text)?.[0] ?? '';
    expect(link).not.toBe('');

    const { context, page, problems } = await openPage();
    await page.goto(link);
    expect(await textOnceShown(page.getByRole('heading', { level: 1 }), 'Join Acme')).toBe('Join Acme');
    expect(await visibleText(page.getByText(/through its single sign-on/))).toBe(
      'Acme signs you in through its single sign-on. Continue there as ivy@acme.example, and you are in.',
    );
    expect(await page.getByLabel('New password').count()).toBe(0);
    await expectAccessible(page, 'the invitation page, single sign-on');
    await shootWholePage(page, 'invitation-sso');
    const phonePage = await openPage(phone);
    await phonePage.page.goto(link);
    await textOnceShown(phonePage.page.getByRole('heading', { level: 1 }), 'Join Acme');
    expect(await phonePage.page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth')).toBe(
      false,
    );
    await expectAccessible(phonePage.page, 'the invitation page, single sign-on, at 390 px');
    await shootWholePage(phonePage.page, 'invitation-sso');

    // With the keyboard alone: Tab to the one way forward, Enter, the provider, the console.
    idp.signsIn('ivy@acme.example');
    for (let presses = 0; presses < 6; presses += 1) {
      if ((await page.evaluate<string>('document.activeElement?.textContent ?? ""')) === 'Join with single sign-on')
        break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname.startsWith('/app'));
    expect((await sessionOf(context, server.baseUrl)).email).toBe('ivy@acme.example');
    expect([...problems, ...phonePage.problems]).toEqual([]);
  }, 60_000);
});
