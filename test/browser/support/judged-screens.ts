// Opening a console page and judging it as the console tests do: axe-core clean, nothing sideways, and a
// whole-page screenshot named `<prefix>-<screen>-<width>.png` under .ci/artifacts/screenshots.
import { join } from 'node:path';
import { expect } from '@jest/globals';
import type { Page } from 'playwright-core';
import { accessibilityViolations } from './accessibility.js';
import { repositoryRoot } from './chorus-server.js';
import { consoleScreen, scrollsSideways } from './console-screens.js';
import { textOnceShown } from './sign-in-screens.js';
import { waitFor } from './wait-for.js';

export const screenshots = join(repositoryRoot, '.ci', 'artifacts', 'screenshots');

/** Goes to `path` and waits until the page's heading reads `heading` and it has stopped loading. */
export async function openConsolePage(page: Page, baseUrl: string, path: string, heading: string): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await textOnceShown(consoleScreen(page).heading, heading);
  await stoppedLoading(page);
}

/** Every spinner gone: the page's, and each of its lists' (Members has two). */
export function stoppedLoading(page: Page): Promise<true> {
  return waitFor('the page to stop loading', async () =>
    (await page.locator('.page-loading').count()) === 0 ? true : undefined,
  );
}

/** axe-core clean, nothing sideways, and a whole-page screenshot from the top. */
export async function judgeScreen(page: Page, prefix: string, name: string): Promise<void> {
  expect({ name, violations: await accessibilityViolations(page) }).toEqual({ name, violations: [] });
  expect({ name, sideways: await scrollsSideways(page) }).toEqual({ name, sideways: false });
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({
    path: join(screenshots, `${prefix}-${name}-${page.viewportSize()?.width ?? 0}.png`),
    fullPage: true,
  });
}
