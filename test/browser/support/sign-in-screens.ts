// The SPA's screens as a user finds them: by role, label and placeholder.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { forgotTexts, loginTexts } from './seed-texts.js';

export function loginScreen(page: Page) {
  return {
    heading: page.getByRole('heading', { level: 1 }),
    username: page.getByPlaceholder(loginTexts.usernamePlaceholder, { exact: true }),
    password: page.getByLabel('Password', { exact: true }),
    logIn: page.getByRole('button', { name: loginTexts.logIn, exact: true }),
    google: page.getByRole('button', { name: loginTexts.google, exact: true }),
    forgotLink: page.getByRole('link', { name: loginTexts.forgotLink, exact: true }),
    /** The form's message: always in the page (a live region), empty while there is nothing to say. */
    message: page.getByRole('alert'),
  };
}

export function forgotScreen(page: Page) {
  return {
    heading: page.getByRole('heading', { level: 1 }),
    subHeading: page.locator('h1 + p'),
    email: page.getByPlaceholder(forgotTexts.placeholder, { exact: true }),
    send: page.getByRole('button', { name: forgotTexts.send, exact: true }),
    backToLogIn: page.getByRole('link', { name: 'Back to log in', exact: true }),
  };
}

export function resetScreen(page: Page) {
  return {
    heading: page.getByRole('heading', { level: 1 }),
    subHeading: page.locator('h1 + p'),
    password: page.getByLabel('New password', { exact: true }),
    confirmation: page.getByLabel('Confirm new password', { exact: true }),
    change: page.getByRole('button', { name: 'Change password', exact: true }),
    message: page.getByRole('alert'),
    backToLogIn: page.getByRole('link', { name: 'Back to log in', exact: true }),
    requestNewLink: page.getByRole('link', { name: 'Request a new link', exact: true }),
  };
}

/** Opens a page of the SPA; a server that does not answer it with 200 fails at once, naming the status. */
export async function visit(page: Page, url: string): Promise<void> {
  const response = await page.goto(url);
  const status = response?.status();
  if (status !== 200) throw new Error(`GET ${url} answered ${status ?? 'nothing'} instead of the sign-in page`);
}

/** The element's text once it is visible, whitespace collapsed. */
export async function visibleText(locator: Locator): Promise<string> {
  await locator.waitFor({ state: 'visible' });
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

/** Waits until the element shows exactly `text` (a message that appears after a request), then answers it. */
export async function textOnceShown(locator: Locator, text: string): Promise<string> {
  await locator.filter({ hasText: text }).waitFor({ state: 'visible' });
  return visibleText(locator);
}

/** GET /session with the browser's cookies: who the browser is signed in as. */
export async function sessionOf(
  context: BrowserContext,
  baseUrl: string,
): Promise<{ status: number; email: string | undefined; organizations: string[] }> {
  const response = await context.request.get(`${baseUrl}/session`, { failOnStatusCode: false });
  if (response.status() !== 200) return { status: response.status(), email: undefined, organizations: [] };
  const body = (await response.json()) as { user: { email: string }; organizations: { id: string }[] };
  return { status: 200, email: body.user.email, organizations: body.organizations.map(({ id }) => id) };
}

/** The path and query the page is at now. */
export const pathOf = (page: Page): string => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};
