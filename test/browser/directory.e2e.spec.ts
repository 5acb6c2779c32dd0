// The console's Directory page (docs/console.md, Directory) in real Chromium against the real server: an owner makes a
// SCIM token with the keyboard alone (an empty name refused in words first), copies it from where it is shown once,
// and the identity provider's first call with it is answered; the owner maps a group to a role and lets the verified
// domain's people join on signing in. axe-core clean and nothing sideways on every state, at 1280 and 390 px;
// screenshots `directory-<state>-<width>.png` in a temp directory (DIRECTORY_SCREENSHOTS names another).
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DnsServer, dnsServerMissing } from '../support/dns-server.js';
import { IdentityProvider } from '../support/identity-provider.js';
import { accessibilityViolations } from './support/accessibility.js';
import { startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser } from './support/chromium.js';
import { closeAll } from './support/close-all.js';
import { signedInPage } from './support/console-pages.js';
import { consoleScreen, scrollsSideways, type ConsoleUser } from './support/console-screens.js';
import { textOnceShown, visibleText } from './support/sign-in-screens.js';

const shots = process.env.DIRECTORY_SCREENSHOTS ?? join(tmpdir(), 'chorus-directory-screens');
const olga: ConsoleUser = { email: 'olga@acme.example', password: 'harbour-lantern-4417' };

let server: ChorusServer | undefined;
let browser: TestBrowser | undefined;
let idp: IdentityProvider | undefined;
let dns: DnsServer | undefined;
let apiKey = '';

const started = () => {
  if (server === undefined || browser === undefined)
    throw new Error('The server or the browser did not start (see beforeAll)');
  return { server, browser };
};

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${started().server.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** axe-core clean, nothing sideways, and a whole-page screenshot from the top. */
async function judge(page: Page, name: string): Promise<void> {
  expect({ name, violations: await accessibilityViolations(page) }).toEqual({ name, violations: [] });
  expect({ name, sideways: await scrollsSideways(page) }).toEqual({ name, sideways: false });
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({
    path: join(shots, `directory-${name}-${page.viewportSize()?.width ?? 0}.png`),
    fullPage: true,
  });
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  const missing = dnsServerMissing();
  if (missing !== undefined) throw new Error(missing);
  browser = await launchChromium();
  idp = await IdentityProvider.start();
  dns = await DnsServer.start(['acme.example']);
  server = await startChorusServer({ DNS_SERVERS: dns.address });
  const created = await server.cli([
    'api-key:create',
    '--name',
    'directory browser tests',
    '--scopes',
    'organizations:read,organizations:write',
    '--json',
  ]);
  apiKey = (JSON.parse(created.stdout) as { key: string }).key;
  await server.createOrganization('Acme', 'acme', { line: 'classic', plan: 'enterprise' });
  await server.createUser({ ...olga, organizationId: 'acme', role: 'owner' });
  expect(
    (
      await api('PUT', '/organizations/acme/sso', {
        issuer: idp.issuer,
        clientId: 'chorusAcme',
        clientSecret: 'idp-secret-directory',
        domains: ['acme.example'],
      })
    ).status,
  ).toBe(200);
  const organization = (await (await api('GET', '/organizations/acme')).json()) as {
    sso: { settings: { domainStates: { record: { name: string; value: string } }[] } };
  };
  const record = organization.sso.settings.domainStates[0]!.record;
  await dns.serve({ [record.name]: [record.value] });
  expect((await api('POST', '/organizations/acme/sso/domains/acme.example/verify', {})).status).toBe(200);
}, 120_000);

afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  const provider = idp === undefined ? undefined : { close: () => (idp as IdentityProvider).stop() };
  await closeAll(browser, server, provider, dns === undefined ? undefined : { close: () => (dns as DnsServer).stop() });
}, 30_000);

describe('the Directory page', () => {
  it('makes a token with the keyboard, shows it once, and the identity provider’s first call with it is answered', async () => {
    const { server, browser } = started();
    const { context, page, problems } = await signedInPage(browser, server.baseUrl, olga, desktop);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const screen = consoleScreen(page);
    await screen.nav('Directory').click();
    expect(await textOnceShown(screen.heading, 'Directory')).toBe('Directory');
    expect(await page.title()).toBe('Directory · Acme · Chorus');
    await textOnceShown(page.getByText('No token yet: make one below for your identity provider.'), 'No token yet');
    expect(await visibleText(page.locator('.directory-connect code'))).toBe(`${server.baseUrl}/scim/v2`);
    await judge(page, 'empty');

    const form = page.getByRole('form', { name: 'New token' });
    await form.getByLabel('Token name').focus();
    await page.keyboard.press('Enter');
    expect(await textOnceShown(form.getByRole('alert'), 'Give the token a name')).toContain('Give the token a name');
    await judge(page, 'refused');
    await page.keyboard.type('Okta');
    await page.keyboard.press('Enter');

    const shown = page.getByRole('group', { name: 'Token “Okta”' });
    await shown.waitFor();
    expect(
      await shown.getByRole('heading').evaluate((element) => element === element.ownerDocument.activeElement),
    ).toBe(true);
    const token = await visibleText(shown.locator('code'));
    expect(token).toMatch(/^chscim_acme\.[0-9a-f]{24}\.[A-Za-z0-9_-]{43}$/);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);
    await judge(page, 'token-shown');
    const first = await fetch(`${server.baseUrl}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } });
    expect(first.status).toBe(200);
    expect(problems).toEqual([]);
  });

  it('maps a group to a role and lets the verified domain’s people join, at 1280 and 390 px', async () => {
    const { server, browser } = started();
    for (const size of [desktop, phone]) {
      const { page, problems } = await signedInPage(browser, server.baseUrl, olga, size);
      await page.goto(`${server.baseUrl}/app/orgs/acme/directory`);
      const mapping = page.getByRole('form', { name: 'Roles from groups' });
      await mapping.waitFor();
      if (size === desktop) {
        await mapping.getByRole('button', { name: 'Add a group' }).click();
        await mapping.getByLabel('Group 1', { exact: true }).fill('Chorus Admins');
        await mapping.getByLabel('Role for group 1').selectOption('admin');
        await mapping.getByRole('button', { name: 'Save the mapping' }).click();
        expect(await textOnceShown(mapping.getByRole('status'), 'Saved')).toContain('Saved.');
        const join = page.getByLabel('People of acme.example join');
        await join.selectOption('member');
        await page.getByRole('button', { name: 'Save for acme.example' }).click();
        expect(
          await textOnceShown(page.getByText('People of acme.example now join on signing in, as members.'), 'now join'),
        ).toContain('as members');
        // The identity provider's first call, made in the test before, is in the log.
        expect(await textOnceShown(page.getByRole('list', { name: 'Recent requests' }), 'GET /Users')).toContain(
          '200 Done',
        );
      } else {
        expect(await mapping.getByLabel('Group 1', { exact: true }).inputValue()).toBe('Chorus Admins');
        expect(await page.getByLabel('People of acme.example join').inputValue()).toBe('member');
      }
      await judge(page, 'mapped');
      expect(problems).toEqual([]);
    }
    const roles = (await (await api('GET', '/organizations/acme/scim/group-roles')).json()) as Record<string, string>;
    expect(roles).toEqual({ 'Chorus Admins': 'admin' });
  });
});
