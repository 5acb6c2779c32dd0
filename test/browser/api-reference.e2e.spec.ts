// GET /docs in a real browser (docs/service.md, Operations): readable at desktop and phone widths,
// axe-clean, usable by keyboard, no script at all; screenshots under .ci/artifacts/screenshots/.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { accessibilityViolations } from './support/accessibility.js';
import { repositoryRoot, startChorusServer, type ChorusServer } from './support/chorus-server.js';
import { desktop, launchChromium, phone, type TestBrowser, type Viewport } from './support/chromium.js';

const screenshots = join(repositoryRoot, '.ci', 'artifacts', 'screenshots');

let browser: TestBrowser;
let server: ChorusServer;

beforeAll(async () => {
  browser = await launchChromium();
  server = await startChorusServer();
  mkdirSync(screenshots, { recursive: true });
}, 90_000);
afterEach(async () => {
  await browser.closePages();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the API reference page', () => {
  it.each([
    ['1280', desktop],
    ['390', phone],
  ] as [string, Viewport][])(
    'at %s px: styled, nothing sideways, no script, axe-clean, a screenshot saved',
    async (width, viewport) => {
      const { page } = await browser.newPage(viewport);
      const scripts: string[] = [];
      const failed: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(request.url());
      });
      page.on('response', (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      });
      const answer = await page.goto(`${server.baseUrl}/docs`);
      expect(answer?.status()).toBe(200);
      await expect(page.title()).resolves.toBe('Chorus API reference');
      // The stylesheet applied (CSP allows only this origin's files): operations sit on white cards.
      const card = await page.evaluate<string>(
        "getComputedStyle(document.querySelector('.operation')).backgroundColor",
      );
      expect(card).toBe('rgb(255, 255, 255)');
      const overflow = await page.evaluate<number>(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect(overflow).toBeLessThanOrEqual(0);
      expect(scripts).toEqual([]);
      // Bodies and parameters in words, not raw JSON schemas.
      const text = await page.locator('main').innerText();
      expect(text).not.toContain('{"type"');
      expect(text).toContain('one of "csv", "jsonl"');
      // Its icon is linked, so no /favicon.ico is asked for (and answered 404) on every load.
      await expect(page.evaluate<string>("document.querySelector('link[rel=icon]').href")).resolves.toBe(
        `${server.baseUrl}/favicon.svg`,
      );
      expect((await page.request.get(`${server.baseUrl}/favicon.svg`)).headers()['content-type']).toBe('image/svg+xml');
      expect(failed).toEqual([]);
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.screenshot({ path: join(screenshots, `api-reference-${width}.png`), fullPage: false });
      await page.screenshot({ path: join(screenshots, `api-reference-${width}-full.png`), fullPage: true });
    },
  );

  it('is usable by keyboard: Tab reaches the section links, Enter follows one', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${server.baseUrl}/docs`);
    await page.keyboard.press('Tab');
    const focused = () =>
      page.evaluate<string | null>("document.activeElement && document.activeElement.getAttribute('href')");
    await expect(focused()).resolves.toBe('/docs/openapi.json');
    await page.keyboard.press('Tab');
    const target = await focused();
    expect(target).toMatch(/^#tag-/);
    await page.keyboard.press('Enter');
    await expect(page.evaluate<string>('location.hash')).resolves.toBe(target);
  });
});
