import { Module } from '@nestjs/common';
import { SpaMiddleware } from './spa.middleware.js';

/** The SPA and its files from dist/web (SpaMiddleware, mounted by createApp after the XSRF check). */
@Module({ providers: [SpaMiddleware] })
export class WebModule {}
