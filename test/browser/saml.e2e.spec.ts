// SAML 2.0 single sign-on in real Chromium: the owner connects the provider on the SSO page with the keyboard alone,
// and people sign on through the HTTP-POST binding from the provider's own site (127.0.0.1, Chorus on localhost: a
// cross-site POST, where no SameSite cookie is sent), landing in the console; a forged response ends on the login page.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { DnsServer, dnsServerMissing } from '../support/dns-server.js';
import { makeSamlKeys, SamlIdp } from '../support/saml-idp.js';
import { expectAccessible } from './support/accessibility.js';
import { startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { shootWholePage } from './support/screenshots.js';
import { watchedPage, operatorCall } from './support/console-pages.js';
import { consoleScreen, logInThroughForm, ssoScreen, type ConsoleUser } from './support/console-screens.js';
import { errorMessages } from './support/seed-texts.js';
import { loginScreen, pathOf, sessionOf, textOnceShown, visibleText } from './support/sign-in-screens.js';

const olivia: ConsoleUser = { email: 'olivia@acme.example', password: 'granite-orchard-3317' };

let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;
let idp: SamlIdp | undefined;
let dns: DnsServer | undefined;
let apiKey = '';

const started = () => {
  if (server === undefined || browser === undefined || idp === undefined || dns === undefined) {
    throw new Error('The server, the provider, the DNS server or the browser did not start (see beforeAll)');
  }
  return { server, browser, idp, dns };
};

const operator = (method: string, path: string, body?: unknown) =>
  operatorCall(started().server.baseUrl, apiKey, method, path, body);
const openPage = (viewport: Viewport = desktop) =>
  watchedPage(started().browser, viewport, { allowedStatuses: [401, 409, 400, 422] });

beforeAll(async () => {
  browser = await launchChromium();
  idp = await SamlIdp.start();
  const missing = dnsServerMissing();
  if (missing !== undefined) throw new Error(missing);
  dns = await DnsServer.start(['acme.example']);
  // localhost, while the provider is on 127.0.0.1: another site, so its POST to the ACS is cross-site.
  server = await startChorusServer({ DNS_SERVERS: dns.address }, { publicHost: 'localhost' });
  const created = await server.cli([
    'api-key:create',
    '--name',
    'saml browser tests',
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
  const provider = idp === undefined ? undefined : { close: () => (idp as SamlIdp).close() };
  await closeAll(browser, server, provider, dns === undefined ? undefined : { close: () => (dns as DnsServer).stop() });
}, 30_000);

describe('the SSO page with SAML', () => {
  it('lets the owner connect a SAML provider with the keyboard: the values to paste, saved, axe-clean, at 1280 and 390 px', async () => {
    const { server, idp } = started();
    const { page, problems } = await openPage();
    await logInThroughForm(page, server.baseUrl, olivia);
    await page.waitForURL((url) => url.pathname.startsWith('/app'));
    await consoleScreen(page).nav('SSO').click();
    await textOnceShown(consoleScreen(page).heading, 'SSO');

    const openIdConnect = page.getByRole('radio', { name: 'OpenID Connect' });
    await openIdConnect.focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: 'SAML 2.0' }).isChecked()).toBe(true);
    expect(await visibleText(page.getByText(`${server.baseUrl}/auth/saml/acme/acs`, { exact: true }))).toBe(
      `${server.baseUrl}/auth/saml/acme/acs`,
    );
    expect(await page.getByText(`${server.baseUrl}/auth/saml/acme/metadata`, { exact: true }).count()).toBeGreaterThan(
      0,
    );
    await expectAccessible(page, 'the SSO page, SAML chosen');

    const form = page.getByRole('form', { name: 'Single sign-on settings' });
    await form.getByLabel('Your provider’s metadata URL', { exact: true }).focus();
    await page.keyboard.type(`${idp.url}/metadata`);
    await form.getByLabel('Domains', { exact: true }).focus();
    await page.keyboard.type('acme.example');
    await page.keyboard.press('Enter');
    await textOnceShown(ssoScreen(page).status, 'Single sign-on is saved.');
    expect(await textOnceShown(page.getByText(/Signing certificate/).first(), 'expires on')).toMatch(
      /expires on \d{1,2} \w+ \d{4}/,
    );
    expect(await visibleText(page.getByText(idp.entityId, { exact: true }).first())).toBe(idp.entityId);
    await expectAccessible(page, 'the SSO page, SAML saved');
    await shootWholePage(page, 'console-sso-saml');

    const phonePage = await openPage(phone);
    await logInThroughForm(phonePage.page, server.baseUrl, olivia, '/login?redirect=%2Fapp%2Forgs%2Facme%2Fsso');
    await textOnceShown(consoleScreen(phonePage.page).heading, 'SSO');
    await phonePage.page
      .getByText(/Signing certificate/)
      .first()
      .waitFor();
    expect(await phonePage.page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth')).toBe(
      false,
    );
    await expectAccessible(phonePage.page, 'the SAML settings at 390 px');
    await shootWholePage(phonePage.page, 'console-sso-saml');

    // The domain proves itself in DNS; then people of it sign on.
    const record = await visibleText(ssoScreen(page).recordValue('acme.example'));
    await started().dns.serve({ '_chorus-verification.acme.example': [record] });
    await operator('POST', '/organizations/acme/sso/domains/acme.example/verify', {});
    expect([...problems, ...phonePage.problems]).toEqual([]);
  }, 90_000);
});

describe('signing on through the SAML provider', () => {
  it('lands a newcomer of the domain in the console after the provider’s cross-site POST', async () => {
    const { server, idp } = started();
    idp.signsIn('nina@acme.example');
    const { context, page, problems } = await openPage();
    await page.goto(`${server.baseUrl}/auth/sso/acme`);
    await page.waitForURL((url) => url.origin === server.baseUrl && url.pathname.startsWith('/app/orgs/acme'));
    expect(await textOnceShown(consoleScreen(page).heading, 'Overview')).toBe('Overview');
    expect((await sessionOf(context, server.baseUrl)).email).toBe('nina@acme.example');
    expect(problems).toEqual([]);
  }, 60_000);

  it("ends at /login?error=sso with the seed's message when the response is signed by another key", async () => {
    const { server, idp } = started();
    idp.signsIn('nina@acme.example', { signingKeys: await makeSamlKeys('someone-else') });
    const { context, page } = await openPage();
    await page.goto(`${server.baseUrl}/auth/sso/acme`);
    await page.waitForURL(
      (url) => url.origin === server.baseUrl && url.pathname === '/login' && url.searchParams.has('error'),
    );
    expect(pathOf(page)).toBe('/login?error=sso');
    expect(await textOnceShown(loginScreen(page).message, errorMessages.sso)).toBe(errorMessages.sso);
    expect((await sessionOf(context, server.baseUrl)).status).toBe(401);
  }, 30_000);
});
