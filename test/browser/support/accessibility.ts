// axe-core run inside the page. Evaluated over the DevTools protocol, so the page's own CSP stays on
// (a <script> tag with axe's source would be refused by script-src 'self', as it should be).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from '@jest/globals';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One broken rule, as much as a failing test needs to say where and why. */
export type AccessibilityViolation = { rule: string; impact: string | null; help: string; elements: string[] };

export async function accessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(axeSource);
  return page.evaluate<AccessibilityViolation[]>(`
    axe.run(document, { resultTypes: ['violations'] }).then((results) =>
      results.violations.map((violation) => ({
        rule: violation.id,
        impact: violation.impact ?? null,
        help: violation.help,
        elements: violation.nodes.map((node) => node.target.join(' ') + ': ' + node.failureSummary),
      })),
    )
  `);
}

/** Fails naming `what` (the screen and its state) with every rule it breaks. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  expect({ what, violations: await accessibilityViolations(page) }).toEqual({ what, violations: [] });
}
