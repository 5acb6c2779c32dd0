import { Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { XsrfMiddleware } from '../auth/xsrf.middleware.js';
import { SpaMiddleware } from './spa.middleware.js';

@Module({ providers: [SpaMiddleware] })
export class WebModule {}

/**
 * The browser's edge, in this order for every request: the XSRF check, then the sign-in SPA and its
 * files from dist/web. (Security headers are set first of all, in createApp.) createApp mounts them as
 * plain Express middleware, after the request context and before every route: through Nest's
 * `forRoutes('{*path}')` each was a wildcard route, whose match decoded the whole path, once per
 * middleware and request; that was about a tenth of /health's time (bench/http/request-features.mjs).
 */
export function mountBrowserEdge(app: NestExpressApplication): void {
  for (const middleware of [app.get(XsrfMiddleware), app.get(SpaMiddleware)]) {
    app.use((request: Request, response: Response, next: NextFunction) => middleware.use(request, response, next));
  }
}
