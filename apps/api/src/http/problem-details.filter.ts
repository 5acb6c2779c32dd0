import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { PINO } from '../logging/pino.js';
import { OfrepError, ofrepParseError } from '../entitlements/ofrep-error.js';
import { requestContextOf } from './request-context.js';
import { isJsonParseFailure, toProblem } from './problem.js';

/** The flag of a single-flag OFREP evaluation, read off the path (a body that does not parse is refused before routing). */
const flagKeyOf = (path: string): string | undefined => /^\/ofrep\/v1\/evaluate\/flags\/([^/]+)$/.exec(path)?.[1];

/** The one exception filter: every error of an HTTP request becomes application/problem+json. */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  constructor(@Inject(PINO) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const correlationId = requestContextOf(request)?.correlationId;
    // OFREP's callers read its own error shape (an SDK's provider, not a person).
    const ofrep = exception instanceof OfrepError ? exception : request.path.startsWith('/ofrep/') && isJsonParseFailure(exception) ? ofrepParseError(flagKeyOf(request.path)) : undefined;
    if (ofrep !== undefined && !response.headersSent) {
      response.status(ofrep.getStatus()).json(ofrep.body());
      return;
    }
    const { document, unexpected, retryAfterSeconds } = toProblem(exception);
    if (unexpected) {
      this.logger.error({ err: exception, correlationId, method: request.method }, 'request failed unexpectedly');
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    if (retryAfterSeconds !== undefined) response.setHeader('Retry-After', String(retryAfterSeconds));
    response
      .status(document.status)
      .type('application/problem+json')
      .send(JSON.stringify({ ...document, ...(correlationId === undefined ? {} : { correlationId }) }));
  }
}
