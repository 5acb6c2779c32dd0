import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { XsrfMiddleware } from '../auth/xsrf.middleware.js';
import { SpaMiddleware } from './spa.middleware.js';

/**
 * The browser's edge, in this order for every request: the XSRF check, then the sign-in SPA and
 * its files from dist/web. (Security headers are set first of all, in createApp.)
 */
@Module({ providers: [SpaMiddleware] })
export class WebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    const everything = { path: '{*path}', method: RequestMethod.ALL };
    consumer.apply(XsrfMiddleware, SpaMiddleware).forRoutes(everything);
  }
}
