// Serves the SPA: the sign-in routes (docs/api.md, Sign-in), the console (docs/console.md, Routes), any other
// page a browser asks for outside the API, and its static files. Every HTML answer sets XSRF-TOKEN and
// is never cached. The console's pages are answered only to a signed-in browser.
import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { CONFIG, type Config } from '#config';
import { BrowserSessions } from '../auth/browser-sessions.service.js';
import { Memberships } from '../auth/memberships.service.js';
import { ProblemError } from '../http/problem-error.js';
import { isApiPath } from './api-paths.js';
import { pageConfigOf, SpaPage } from './spa-page.js';
import { sendStaticFile, staticFile } from './static-assets.js';
import { webRoot } from './web-root.js';

/** The seed's routes (section 2): /forgot, /reset/:token, /login/:error?, and /; the invitation link's page. */
const spaRoutes = [/^\/$/, /^\/login\/?$/, /^\/login\/[^/]+\/?$/, /^\/forgot\/?$/, /^\/reset\/[^/]+\/?$/, /^\/invite\/[^/]+\/?$/];
/** The console: /app and everything under it. */
const consolePath = '/app';
const consoleRoute = /^\/app(\/|$)/;
/** Console pages about an organization: a user who belongs to none is sent to the seed's 'account' message. */
const organizationPages = /^\/app(\/orgs(\/.*)?)?\/?$/;

@Injectable()
export class SpaMiddleware implements NestMiddleware {
  private readonly root = webRoot();
  private readonly page: SpaPage;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly sessions: BrowserSessions,
    private readonly memberships: Memberships,
  ) {
    this.page = new SpaPage(this.root, pageConfigOf(config), config.nodeEnv === 'production');
  }

  use(request: Request, response: Response, next: NextFunction): void {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      next();
      return;
    }
    if (request.path === '/' || consoleRoute.test(request.path)) {
      this.consoleRedirect(request)
        .then((location) => (location === undefined ? this.serve(request, response, next) : redirect(response, location)))
        .catch(next);
      return;
    }
    this.serve(request, response, next);
  }

  /**
   * Where a page load must go instead (docs/console.md, Routes): `/` with a live session to the console; a
   * console page without one to the login, which comes back here; a user who belongs to no organization
   * to the seed's message for exactly that (`/login?error=account`). The account page stays theirs.
   */
  private async consoleRedirect(request: Request): Promise<string | undefined> {
    const session = await this.sessions.live(request);
    if (request.path === '/') return session === undefined ? undefined : consolePath;
    if (session === undefined) return `/login?redirect=${encodeURIComponent(request.originalUrl)}`;
    if (organizationPages.test(request.path) && (await this.memberships.of(session.userId)).length === 0) return '/login?error=account';
    return undefined;
  }

  private serve(request: Request, response: Response, next: NextFunction): void {
    const file = staticFile(this.root, request.path);
    if (file !== undefined) {
      sendStaticFile(request, response, file);
      return;
    }
    // An API path (no page route starts like one) is passed on at once, without trying the page routes.
    if (isApiPath(request.path) || (!spaRoutes.some((route) => route.test(request.path)) && !consoleRoute.test(request.path) && !isHtmlRequest(request))) {
      next();
      return;
    }
    const html = this.page.html();
    if (html === undefined) {
      next(new ProblemError(503, 'SERVICE_UNAVAILABLE', 'The sign-in page is not built', 'Run `npm run build:web` (or `npm start`).'));
      return;
    }
    this.sessions.issueXsrf(request, response);
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
