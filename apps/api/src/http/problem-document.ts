// Every failure as one RFC 9457 problem document with a stable code (docs/api.md, Errors).
import { HttpException } from '@nestjs/common';
import { z } from 'zod';
import { DomainError, RateLimited } from '#domain';
import {
  AppendTooLargeError,
  EventStoreTimeoutError,
  StreamDeletedError,
  WrongExpectedRevisionError,
} from '#event-store';
import type { RefusalLookup } from './error-answers.js';
import { invalidJsonBody } from './json-body.js';
import { ProblemError, type ProblemExtensions } from './problem-error.js';

export type ProblemDocument = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
} & ProblemExtensions;

/**
 * ProblemDocument's shape, for /docs/openapi.json's one `Problem` component: extension members (errors, limit, ...) are
 * open.
 */
export const problemDocumentSchema = z
  .looseObject({
    type: z.string().describe('A URN naming the code, e.g. urn:chorus:problem:validation-failed'),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    code: z.string().describe('Stable UPPER_SNAKE identifier, e.g. VALIDATION_FAILED, LIMIT_EXCEEDED'),
    errors: z
      .array(
        z.union([
          z.object({ pointer: z.string(), detail: z.string() }),
          z.object({ parameter: z.string(), detail: z.string() }),
        ]),
      )
      .optional()
      .describe('VALIDATION_FAILED: each refused field, by JSON pointer into the body or by parameter name'),
  })
  .describe('RFC 9457 problem details (application/problem+json), with a stable `code`');

export type Problem = {
  document: ProblemDocument;
  /** A fault of ours: log it in full, show the caller nothing of it. */
  unexpected: boolean;
  retryAfterSeconds?: number;
};

const httpCode: Record<number, [code: string, title: string]> = {
  400: ['BAD_REQUEST', 'Bad request'],
  401: ['UNAUTHENTICATED', 'Authentication required'],
  403: ['FORBIDDEN', 'Not allowed'],
  404: ['NOT_FOUND', 'Not found'],
  405: ['METHOD_NOT_ALLOWED', 'Method not allowed'],
  406: ['NOT_ACCEPTABLE', 'Not acceptable'],
  408: ['REQUEST_TIMEOUT', 'Request timeout'],
  409: ['CONFLICT', 'Conflict'],
  413: ['PAYLOAD_TOO_LARGE', 'The request body is too large'],
  415: ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type'],
  422: ['UNPROCESSABLE', 'Unprocessable request'],
  429: ['RATE_LIMITED', 'Too many requests'],
  503: ['SERVICE_UNAVAILABLE', 'Service unavailable'],
};

/** RFC 9457 allows non-dereferenceable type URIs. */
export function problemType(code: string): string {
  return `urn:chorus:problem:${code.toLowerCase().replaceAll('_', '-')}`;
}

function problem(
  status: number,
  code: string,
  title: string,
  detail: string,
  extensions: ProblemExtensions = {},
): ProblemDocument {
  return { ...extensions, type: problemType(code), title, status, detail, code };
}

function problemDocumentOf(error: ProblemError): ProblemDocument {
  return problem(error.getStatus(), error.code, error.title, error.detail ?? error.title, error.extensions);
}

/** body-parser's http-errors carry a `type` such as 'entity.parse.failed'; Nest keeps them as the cause. */
function bodyParserType(exception: HttpException): string | undefined {
  const cause: unknown = exception.cause;
  return typeof cause === 'object' && cause !== null && 'type' in cause && typeof cause.type === 'string'
    ? cause.type
    : undefined;
}

function httpExceptionDetail(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message: unknown = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.join('; ');
  return exception.message;
}

export const isJsonParseFailure = (exception: unknown): boolean =>
  (exception instanceof ProblemError && exception.code === 'INVALID_JSON') ||
  (exception instanceof HttpException && bodyParserType(exception) === 'entity.parse.failed');

function fromHttpException(exception: HttpException): ProblemDocument {
  const status = exception.getStatus();
  const parserType = bodyParserType(exception);
  if (parserType === 'entity.parse.failed') return problemDocumentOf(invalidJsonBody());
  if (parserType === 'entity.too.large') {
    const limit = (exception.cause as { limit?: unknown }).limit;
    return problem(
      413,
      'PAYLOAD_TOO_LARGE',
      'The request body is too large',
      `The request body exceeds ${String(limit)} bytes.`,
      { limit },
    );
  }
  const [code, title] = httpCode[status] ?? [`HTTP_${status}`, 'Request failed'];
  return problem(status, code, title, httpExceptionDetail(exception));
}

const internal: Problem = {
  document: problem(
    500,
    'INTERNAL',
    'Internal error',
    'Something went wrong on our side. Quote the correlation id when reporting it.',
  ),
  unexpected: true,
};

function fromDomainError(error: DomainError, refusals: RefusalLookup): Problem {
  const answer = refusals.refusalOf(error.code);
  // A refusal no feature answers is our bug: logged in full, a 500 to the caller.
  if (answer === undefined) return internal;
  const { field } = error.details;
  const extensions: ProblemExtensions = { ...error.details };
  if (typeof field === 'string' && answer.pointsAtField === true)
    extensions.errors = [{ pointer: `#/${field}`, detail: error.message }];
  return {
    document: problem(answer.status, error.code, answer.title, error.message, extensions),
    unexpected: false,
    ...(error instanceof RateLimited ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  };
}

const eventStoreRetryAfterSeconds = 1;

/** Faults of ours, so logged in full, yet each with its own status so a client can tell 409 from 413 from 503. */
function fromEventStoreError(error: unknown): Problem | undefined {
  if (error instanceof StreamDeletedError) {
    return {
      document: problem(
        409,
        'STREAM_DELETED',
        'The record was deleted',
        'This record was deleted in the event store, so it can no longer change; nothing was recorded. An operator has to look into it: quote the correlation id.',
      ),
      unexpected: true,
    };
  }
  if (error instanceof AppendTooLargeError) {
    return {
      document: problem(
        413,
        'APPEND_TOO_LARGE',
        'The change is too large to record',
        `The change is over the event store's limit of ${error.maxSize} bytes; nothing was recorded.`,
        {
          limit: error.maxSize,
        },
      ),
      unexpected: true,
    };
  }
  if (error instanceof EventStoreTimeoutError) {
    return {
      document: problem(
        503,
        'EVENT_STORE_TIMEOUT',
        'The event store did not answer in time',
        'The event store did not answer in time. A change may or may not have been recorded: read before repeating it.',
        { retryAfterSeconds: eventStoreRetryAfterSeconds },
      ),
      unexpected: true,
      retryAfterSeconds: eventStoreRetryAfterSeconds,
    };
  }
  return undefined;
}

/** `refusals`: the answers features registered for their refusal codes (ErrorAnswers). */
export function toProblem(error: unknown, refusals: RefusalLookup): Problem {
  if (error instanceof ProblemError) return { document: problemDocumentOf(error), unexpected: false };
  if (error instanceof DomainError) return fromDomainError(error, refusals);
  if (error instanceof WrongExpectedRevisionError) {
    return {
      document: problem(
        409,
        'CONCURRENCY_CONFLICT',
        'Changed concurrently',
        'What this request changes kept being changed by others while it was decided; try again.',
      ),
      unexpected: false,
    };
  }
  const fromStore = fromEventStoreError(error);
  if (fromStore !== undefined) return fromStore;
  if (error instanceof HttpException) {
    const document = fromHttpException(error);
    return { document, unexpected: document.status >= 500 };
  }
  return internal;
}
