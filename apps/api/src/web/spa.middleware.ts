// Serves the sign-in SPA: its routes (API.md, Sign-in), any other page a browser asks for outside
// the API, and its static files. Every HTML answer sets XSRF-TOKEN and is never cached.
import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { CONFIG, type Config } from '#config';
import { BrowserSessions } from '../auth/browser-sessions.service.js';
import { ProblemError } from '../http/problem-error.js';
import { pageConfigOf, SpaPage } from './spa-page.js';
import { sendStaticFile, staticFile } from './static-assets.js';
import { webRoot } from './web-root.js';

/** The seed's routes (section 2): /forgot, /reset/:token, /login/:error?, and /. */
const spaRoutes = [/^\/$/, /^\/login\/?$/, /^\/login\/[^/]+\/?$/, /^\/forgot\/?$/, /^\/reset\/[^/]+\/?$/];
/** Paths of the HTTP API: a browser asking for one gets the API's answer, not the SPA. */
const apiPrefixes = ['/organizations', '/billing', '/health', '/session', '/sessions', '/auth', '/assets'];

@Injectable()
export class SpaMiddleware implements NestMiddleware {
  private readonly root = webRoot();
  private readonly page: SpaPage;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly sessions: BrowserSessions,
  ) {
    this.page = new SpaPage(this.root, pageConfigOf(config), config.nodeEnv === 'production');
  }

  use(request: Request, response: Response, next: NextFunction): void {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      next();
      return;
    }
    const file = staticFile(this.root, request.path);
    if (file !== undefined) {
      sendStaticFile(response, request.path, file, request.method === 'HEAD');
      return;
    }
    if (!spaRoutes.some((route) => route.test(request.path)) && !this.isOtherPage(request)) {
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

  /** A page outside the API that a browser navigates to (it asks for text/html). */
  private isOtherPage(request: Request): boolean {
    const path = request.path;
    if (apiPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return false;
    return (request.get('accept') ?? '').includes('text/html');
  }
}
