// Debian's Chromium driven by playwright-core. A missing browser fails the tests (CI installs it), never skips them.
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type Viewport = { width: number; height: number };
export const desktop: Viewport = { width: 1280, height: 800 };
export const phone: Viewport = { width: 390, height: 844 };

/** How long one wait for the page may take: generous for a loaded CI machine, short of jest's own limits. */
const pageWaitMs = 10_000;

export type TestBrowser = {
  /** A new page in a context of its own (no cookies shared with other tests). */
  newPage(viewport?: Viewport): Promise<{ context: BrowserContext; page: Page }>;
  /** Closes the contexts opened since the last call (afterEach). */
  closePages(): Promise<void>;
  close(): Promise<void>;
};

/** One browser for a test file; playwright gives it a fresh temporary --user-data-dir and deletes it on close. */
export async function launchChromium(): Promise<TestBrowser> {
  try {
    accessSync(chromiumPath, constants.X_OK);
  } catch {
    throw new Error(
      `Chromium is not installed at ${chromiumPath}, and the browser tests need it. ` +
        "Install Debian's chromium (`apt-get install chromium`) or set CHROMIUM_PATH to a Chromium executable.",
    );
  }
  const browser: Browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, timeout: 60_000 });
  let contexts: BrowserContext[] = [];
  const closePages = async () => {
    const open = contexts;
    contexts = [];
    await Promise.all(open.map((context) => context.close()));
  };
  return {
    async newPage(viewport = desktop) {
      const context = await browser.newContext({ viewport });
      contexts.push(context);
      context.setDefaultTimeout(pageWaitMs);
      context.setDefaultNavigationTimeout(pageWaitMs);
      return { context, page: await context.newPage() };
    },
    closePages,
    async close() {
      await closePages().finally(() => browser.close());
    },
  };
}
