// Where the browser tests leave their screenshots for CI's artifacts, and a whole page taken from its top.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repositoryRoot } from './chorus-server.js';

export const screenshots = join(repositoryRoot, '.ci', 'artifacts', 'screenshots');

/** `<name>-<viewport width>.png`, the whole page from its top. */
export async function shootWholePage(page: Page, name: string): Promise<void> {
  mkdirSync(screenshots, { recursive: true });
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: join(screenshots, `${name}-${page.viewportSize()?.width ?? 0}.png`), fullPage: true });
}
