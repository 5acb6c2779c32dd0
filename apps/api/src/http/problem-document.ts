// Every failure as one RFC 9457 problem document with a stable code (docs/api.md, Errors).
import { HttpException } from '@nestjs/common';
import { z } from 'zod';
import { DomainError, RateLimited, type DomainErrorCode } from '#domain';
import {
  AppendTooLargeError,
  EventStoreTimeoutError,
  StreamDeletedError,
  WrongExpectedRevisionError,
} from '#event-store';
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

// INVALID_QUANTITY is 409: well-formed, but conflicting with the organization's state (malformed is VALIDATION_FAILED).
const domainStatus: Record<DomainErrorCode, number> = {
  VALIDATION_FAILED: 400,
  INVALID_HOSTNAME: 400,
  INVALID_TOKEN: 400,
  WRONG_PASSWORD: 400,
  INVALID_CODE: 400,
  CODE_ALREADY_USED: 400,
  SSO_DOMAIN_PUBLIC: 400,
  SAML_RESPONSE_REFUSED: 400,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  // 403, not 401: the session stands; the change needs more than it.
  REAUTHENTICATION_REQUIRED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  DUPLICATE: 409,
  NO_PLAN: 409,
  LIMIT_EXCEEDED: 409,
  FEATURE_DISABLED: 409,
  INVALID_QUANTITY: 409,
  LAST_OWNER: 409,
  ENTERPRISE_PLAN_REQUIRED: 409,
  SSO_DOMAIN_TAKEN: 409,
  TWO_STEP_REQUIRED: 409,
  NO_SECOND_FACTOR: 409,
  SSO_DISCOVERY_FAILED: 422,
  RATE_LIMITED: 429,
};

const domainTitle: Record<DomainErrorCode, string> = {
  VALIDATION_FAILED: 'The request is not valid',
  INVALID_HOSTNAME: 'The hostname is not valid',
  INVALID_TOKEN: 'The link is not valid',
  WRONG_PASSWORD: 'The current password is not correct',
  INVALID_CODE: 'The code is not correct',
  CODE_ALREADY_USED: 'The code was used already',
  SSO_DOMAIN_PUBLIC: 'A public mail domain cannot use single sign-on',
  SSO_DISCOVERY_FAILED: 'The issuer could not be discovered',
  SAML_RESPONSE_REFUSED: 'The SAML response is refused',
  TWO_STEP_REQUIRED: 'Two-step sign-in is required',
  NO_SECOND_FACTOR: 'No second factor is set up',
  INVALID_CREDENTIALS: 'Incorrect username or password',
  FORBIDDEN: 'Not allowed',
  REAUTHENTICATION_REQUIRED: 'Confirm it is you',
  NOT_FOUND: 'Not found',
  ALREADY_EXISTS: 'It already exists',
  DUPLICATE: 'It is already in use',
  NO_PLAN: 'The organization has no plan',
  LIMIT_EXCEEDED: 'A limit is reached',
  FEATURE_DISABLED: 'The feature is not enabled',
  INVALID_QUANTITY: 'The quantity is not possible',
  LAST_OWNER: 'The last owner cannot leave',
  ENTERPRISE_PLAN_REQUIRED: 'An enterprise plan is required',
  SSO_DOMAIN_TAKEN: 'The domain signs in through another organization',
  RATE_LIMITED: 'Too many attempts',
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

function fromDomainError(error: DomainError): Problem {
  const { field } = error.details;
  const extensions: ProblemExtensions = { ...error.details };
  if (typeof field === 'string' && (error.code === 'VALIDATION_FAILED' || error.code === 'WRONG_PASSWORD'))
    extensions.errors = [{ pointer: `#/${field}`, detail: error.message }];
  return {
    document: problem(domainStatus[error.code], error.code, domainTitle[error.code], error.message, extensions),
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

export function toProblem(error: unknown): Problem {
  if (error instanceof ProblemError) return { document: problemDocumentOf(error), unexpected: false };
  if (error instanceof DomainError) return fromDomainError(error);
  if (error instanceof WrongExpectedRevisionError) {
    return {
      document: problem(
        409,
        'CONCURRENCY_CONFLICT',
        'Changed concurrently',
        'The organization kept changing while this command was decided; try again.',
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
  return {
    document: problem(
      500,
      'INTERNAL',
      'Internal error',
      'Something went wrong on our side. Quote the correlation id when reporting it.',
    ),
    unexpected: true,
  };
}
