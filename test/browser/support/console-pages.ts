// What the console's browser tests share: a page that records what went wrong in it, the same signed in
// through the login form, and an operator's API call (plans and Chorus are bought, not set in the console).
import type { BrowserContext, Page } from 'playwright-core';
import type { TestBrowser, Viewport } from './chromium.js';
import { consoleScreen, logInThroughForm, type ConsoleUser } from './console-screens.js';

export type WatchedPage = { context: BrowserContext; page: Page; problems: string[] };

export type Watch = {
  /** Statuses of the refusals a test provokes: Chromium logs every failed response as a console error. */
  allowedStatuses?: number[];
  /** Whether console errors count at all (uncaught page errors always do). */
  consoleErrors?: boolean;
};

export async function watchedPage(
  browser: TestBrowser,
  viewport: Viewport,
  { allowedStatuses = [], consoleErrors = true }: Watch = {},
): Promise<WatchedPage> {
  const { context, page } = await browser.newPage(viewport);
  const problems: string[] = [];
  const allowed = new RegExp(`status of (${allowedStatuses.join('|')})\\b`);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  if (consoleErrors) {
    page.on('console', (message) => {
      if (message.type() === 'error' && (allowedStatuses.length === 0 || !allowed.test(message.text())))
        problems.push(`console error: ${message.text()}`);
    });
  }
  return { context, page, problems };
}

/** A watched page signed in through the login form, on the console's first page. */
export async function signedInPage(
  browser: TestBrowser,
  baseUrl: string,
  user: ConsoleUser,
  viewport: Viewport,
  watch: Watch = {},
): Promise<WatchedPage> {
  const opened = await watchedPage(browser, viewport, watch);
  await logInThroughForm(opened.page, baseUrl, user);
  await opened.page.waitForURL((url) => url.pathname.startsWith('/app'));
  await consoleScreen(opened.page).heading.waitFor();
  return opened;
}

/** An API call with a key; anything but 2xx throws with the answer. */
export async function operatorCall<Answer = Record<string, unknown>>(
  baseUrl: string,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Answer;
}
