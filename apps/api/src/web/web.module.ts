import { Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { XsrfMiddleware } from '../auth/xsrf.middleware.js';
import { SpaMiddleware } from './spa.middleware.js';

@Module({ providers: [SpaMiddleware] })
export class WebModule {}

/**
 * The browser's edge for every request: the XSRF check, then the SPA and its files from dist/web. Plain Express
 * middleware, since Nest's `forRoutes('{*path}')` would decode the whole path once per middleware and request.
 */
export function mountBrowserEdge(app: NestExpressApplication): void {
  for (const middleware of [app.get(XsrfMiddleware), app.get(SpaMiddleware)]) {
    app.use((request: Request, response: Response, next: NextFunction) => middleware.use(request, response, next));
  }
}
