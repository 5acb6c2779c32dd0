import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Config } from '#config';
import type { DestinationStream } from 'pino';
import type { NextFunction, Request, Response } from 'express';
import { AppModule } from './app.module.js';
import { applyHttpServerLimits } from './http/http-server-limits.js';
import { mountUsageCallers } from './entitlements/usage.controller.js';
import { BODY_LIMIT, JSON_MEDIA_TYPES, requireJsonBody } from './http/json-body.js';
import { enterRequestContext, startRequest } from './http/request-context.middleware.js';
import { createPino } from './logging/pino.js';
import { requestLogger } from './logging/request-log.js';
import { ChorusMetrics } from './metrics/chorus-metrics.js';
import { recordHttpAnswer } from './metrics/http-metrics.js';
import { StructuredLogger } from './logging/structured-logger.service.js';
import { apiSecurityHeadersOf, securityHeadersFor, securityHeadersOf } from './http/security-headers.js';
import { XsrfMiddleware } from './auth/xsrf.middleware.js';
import { SpaMiddleware } from './web/spa.middleware.js';

export type CreateAppOptions = {
  logDestination?: DestinationStream;
};

/** `rawBody: true`: /billing/events checks signatures on the JSON body's bytes. */
export async function createApp(config: Config, options: CreateAppOptions = {}): Promise<NestExpressApplication> {
  const logger = createPino({ level: config.logLevel, destination: options.logDestination });
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, { runMode: 'server', logger }),
    {
      bodyParser: false,
      rawBody: true,
      bufferLogs: true,
      abortOnError: false,
    },
  );
  app.useLogger(app.get(StructuredLogger));
  app.disable('x-powered-by');
  // Nothing revalidates ETags (API answers are read again, static-assets.ts sends the SPA), so hashing each body is
  // pure cost.
  app.set('etag', false);
  // X-Forwarded-For only from the proxies TRUST_PROXY names (none by default: a forged header changes nothing).
  app.set('trust proxy', config.trustProxy);
  applyHttpServerLimits(app.getHttpServer(), config.http);
  const metrics = app.get(ChorusMetrics);
  const pageHeaders = securityHeadersOf(config);
  app.use(
    startRequest({
      logger: requestLogger(config, logger),
      securityHeaders: securityHeadersFor(pageHeaders, apiSecurityHeadersOf(pageHeaders)),
      recordAnswer: (request, response, seconds) => recordHttpAnswer(metrics, request, response, seconds),
      trustProxy: config.trustProxy,
    }),
  );
  // The caller is known before its body (up to 1 MiB) is read.
  mountUsageCallers(app);
  app.use(requireJsonBody);
  app.useBodyParser('json', { limit: BODY_LIMIT, type: JSON_MEDIA_TYPES });
  app.use(enterRequestContext);
  // Plain Express middleware: Nest's `forRoutes('{*path}')` would decode the whole path once per middleware and
  // request.
  for (const middleware of [app.get(XsrfMiddleware), app.get(SpaMiddleware)]) {
    app.use((request: Request, response: Response, next: NextFunction) => middleware.use(request, response, next));
  }
  await app.init();
  return app;
}
