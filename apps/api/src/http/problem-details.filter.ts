import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { PINO } from '../logging/pino.js';
import { ErrorAnswers } from './error-answers.js';
import { requestContextOf } from './request-context.js';
import { toProblem } from './problem-document.js';

/** The one exception filter: every error of an HTTP request becomes application/problem+json. */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  constructor(
    @Inject(PINO) private readonly logger: Logger,
    private readonly answers: ErrorAnswers,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const correlationId = requestContextOf(request)?.correlationId;
    // A feature whose callers read its own error shape (OFREP's SDK providers) answers first.
    const own = this.answers.answer(exception, request);
    if (own !== undefined && !response.headersSent) {
      for (const [name, value] of Object.entries(own.headers ?? {})) response.setHeader(name, value);
      response
        .status(own.status)
        .type(own.contentType ?? 'application/json')
        .send(JSON.stringify(own.body));
      return;
    }
    const { document, unexpected, retryAfterSeconds } = toProblem(exception, this.answers);
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
