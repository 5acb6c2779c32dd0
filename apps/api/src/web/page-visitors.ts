// What the page server asks about the browser loading a page, answered by the module that knows sessions:
// where a console page load goes instead, and the XSRF token every HTML answer sets.
import type { Request, Response } from 'express';

export const PAGE_VISITORS = Symbol('PAGE_VISITORS');

/** Where a page load goes instead, or what the console page it gets starts by reading. */
export type ConsoleAnswer =
  { redirect: string } | { page: 'console'; organizationId: string | undefined } | { page: 'spa' };

export interface PageVisitors {
  /** `/` and the console's pages (docs/console.md, Routes): a redirect, or the page with what it reads first. */
  consoleAnswer(request: Request): Promise<ConsoleAnswer>;
  /** A fresh XSRF-TOKEN for this browser, set on every HTML answer. */
  issueXsrf(request: Request, response: Response): void;
}
