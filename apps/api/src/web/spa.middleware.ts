// Serves the SPA: the sign-in routes (docs/api.md, Sign-in), the console (docs/console.md, Routes), any other
// page a browser asks for outside the API, and its static files. Every HTML answer sets XSRF-TOKEN and
// is never cached. The console's pages are answered only to a signed-in browser.
import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { CONFIG, type Config } from '#config';
import { ProblemError } from '../http/problem-error.js';
import { isApiPath } from '../http/api-paths.js';
import { consoleChunkLinks, consoleReadLinks, withHeadLinks } from './console-preloads.js';
import { PAGE_VISITORS, type ConsoleAnswer, type PageVisitors } from './page-visitors.js';
import { pageConfigOf, SpaPage } from './spa-page.js';
import { sendStaticFile, staticFile } from './static-assets.js';
import { webRoot } from './web-root.js';

/**
 * The seed's routes (section 2): /forgot, /reset/:token, /login/:error?, and /; the invitation link's page; agreeing to
 * a two-step reset.
 */
const spaRoutes = [
  /^\/$/,
  /^\/login\/?$/,
  /^\/login\/[^/]+\/?$/,
  /^\/forgot\/?$/,
  /^\/reset\/[^/]+\/?$/,
  /^\/invite\/[^/]+\/?$/,
  /^\/two-step-reset\/[^/]+\/?$/,
];
/** The console: /app and everything under it. */
const consoleRoute = /^\/app(\/|$)/;

@Injectable()
export class SpaMiddleware implements NestMiddleware {
  private readonly root = webRoot();
  private readonly page: SpaPage;

  constructor(
    @Inject(CONFIG) config: Config,
    @Inject(PAGE_VISITORS) private readonly visitors: PageVisitors,
  ) {
    this.page = new SpaPage(this.root, pageConfigOf(config), config.nodeEnv === 'production');
    this.consoleChunks = config.nodeEnv === 'production' ? consoleChunkLinks(this.root) : undefined;
  }

  /** Read once in production (like the page), on each page load otherwise (a rebuilt SPA has new chunk names). */
  private readonly consoleChunks: string[] | undefined;

  use(request: Request, response: Response, next: NextFunction): void {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      next();
      return;
    }
    if (request.path === '/' || consoleRoute.test(request.path)) {
      this.visitors
        .consoleAnswer(request)
        .then((answer) =>
          'redirect' in answer ? redirect(response, answer.redirect) : this.serve(request, response, next, answer),
        )
        .catch(next);
      return;
    }
    this.serve(request, response, next, { page: 'spa' });
  }

  private serve(request: Request, response: Response, next: NextFunction, answer: ConsoleAnswer): void {
    const file = staticFile(this.root, request.path);
    if (file !== undefined) {
      sendStaticFile(request, response, file);
      return;
    }
    // An API path (no page route starts like one) is passed on at once, without trying the page routes.
    if (
      isApiPath(request.path) ||
      (!spaRoutes.some((route) => route.test(request.path)) &&
        !consoleRoute.test(request.path) &&
        !isHtmlRequest(request))
    ) {
      next();
      return;
    }
    const page = this.page.html();
    const html =
      page === undefined || !('page' in answer) || answer.page !== 'console'
        ? page
        : withHeadLinks(page, [
            ...(this.consoleChunks ?? consoleChunkLinks(this.root)),
            ...consoleReadLinks(answer.organizationId),
          ]);
    if (html === undefined) {
      next(
        new ProblemError(
          503,
          'SERVICE_UNAVAILABLE',
          'The sign-in page is not built',
          'Run `npm run build:web` (or `npm start`).',
        ),
      );
      return;
    }
    this.visitors.issueXsrf(request, response);
    response.status(200);
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    response.setHeader('Cache-Control', 'no-store');
    response.send(html);
  }
}

/** A browser navigating to a page asks for text/html (outside the API, any such path is a page of the SPA). */
function isHtmlRequest(request: Request): boolean {
  return (request.get('accept') ?? '').includes('text/html');
}

function redirect(response: Response, location: string): void {
  response.setHeader('Cache-Control', 'no-store');
  response.redirect(302, location);
}
