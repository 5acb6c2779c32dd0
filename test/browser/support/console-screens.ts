// The console's pages as a user finds them: by role and accessible name (docs/console.md's quoted names).
import type { Page } from 'playwright-core';
import { loginScreen, visit } from './sign-in-screens.js';

export type ConsoleUser = { email: string; password: string };

/** Signs in through the login form (optionally with a redirect), as a person would. */
export async function logInThroughForm(page: Page, baseUrl: string, user: ConsoleUser, path = '/login'): Promise<void> {
  await visit(page, `${baseUrl}${path}`);
  const screen = loginScreen(page);
  await screen.username.fill(user.email);
  await screen.password.fill(user.password);
  await screen.logIn.click();
}

export function consoleScreen(page: Page) {
  const navigation = page.getByRole('navigation');
  return {
    heading: page.getByRole('heading', { level: 1 }),
    organizationName: page.locator('.org-name__text'),
    nav: (name: 'Overview' | 'Members' | 'Sites' | 'Domains' | 'SSO' | 'History' | 'Webhooks' | 'Directory') =>
      navigation.getByRole('link', { name, exact: true }),
    navigation,
    userMenu: page.getByRole('button', { name: /\(account menu\)$/ }),
    accountLink: page.getByRole('link', { name: 'Account', exact: true }),
    signOut: page.getByRole('button', { name: 'Sign out', exact: true }),
    limit: (name: string) => page.getByRole('progressbar', { name, exact: true }).first(),
    alert: page.getByRole('alert').filter({ hasText: /\S/ }),
    status: page.getByRole('status').filter({ hasText: /\S/ }),
  };
}

export function membersScreen(page: Page) {
  const form = page.getByRole('form', { name: 'Add member' });
  return {
    form,
    email: form.getByLabel('E-mail', { exact: true }),
    role: form.getByLabel('Role', { exact: true }),
    add: form.getByRole('button', { name: 'Add member' }),
    message: form.getByRole('alert'),
    status: form.getByRole('status'),
    list: page.getByRole('list', { name: 'Members' }),
    member: (email: string) =>
      page.getByRole('list', { name: 'Members' }).getByRole('listitem').filter({ hasText: email }),
    remove: (email: string) => page.getByRole('button', { name: `Remove ${email}` }),
  };
}

export function sitesScreen(page: Page) {
  const form = page.getByRole('form', { name: 'Add site' });
  return {
    name: form.getByLabel('Name', { exact: true }),
    hostname: form.getByLabel('Hostname', { exact: true }),
    add: form.getByRole('button', { name: 'Add site' }),
    message: form.getByRole('alert'),
    list: page.getByRole('list', { name: 'Sites' }),
  };
}

export function accountScreen(page: Page) {
  return {
    sessions: page.getByRole('list', { name: 'Sessions' }).getByRole('listitem'),
    thisBrowser: page.getByRole('list', { name: 'Sessions' }).getByRole('listitem').filter({ hasText: 'This browser' }),
    signOutOther: page.getByRole('list', { name: 'Sessions' }).getByRole('button', { name: /^Sign out/ }),
    signOutEverywhereElse: page.getByRole('button', { name: 'Sign out everywhere else' }),
    currentPassword: page.getByLabel('Current password', { exact: true }),
    newPassword: page.getByLabel('New password', { exact: true }),
    confirmation: page.getByLabel('Confirm new password', { exact: true }),
    change: page.getByRole('button', { name: 'Change password' }),
  };
}

/** Whether the page scrolls sideways (at 390 px nothing may). */
export const scrollsSideways = (page: Page): Promise<boolean> =>
  page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');

export function ssoScreen(page: Page) {
  const form = page.getByRole('form', { name: 'Single sign-on settings' });
  return {
    issuer: form.getByLabel('Issuer URL', { exact: true }),
    clientId: form.getByLabel('Client ID', { exact: true }),
    clientSecret: form.getByLabel('Client secret', { exact: true }),
    domains: form.getByLabel('Domains', { exact: true }),
    enforce: form.getByRole('checkbox', { name: /^Require single sign-on/ }),
    turnOn: form.getByRole('button', { name: 'Turn on single sign-on' }),
    save: form.getByRole('button', { name: 'Save changes' }),
    message: form.getByRole('alert'),
    status: form.getByRole('status'),
    /** The domains' proof of control: one list item per domain, its TXT record, "Check now". */
    domain: (name: string) =>
      page.getByRole('list', { name: 'Domain verification' }).getByRole('listitem').filter({ hasText: name }),
    recordValue: (name: string) =>
      page
        .getByRole('group', { name: `DNS record for ${name}` })
        .locator('code')
        .last(),
    checkNow: (name: string) => page.getByRole('button', { name: `Check now ${name}` }),
    linkAccount: page.getByRole('link', { name: 'Link my account' }),
  };
}
