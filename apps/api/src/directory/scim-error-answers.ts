// Errors on /scim/v2 in SCIM's error schema (RFC 7644 3.12), registered with ErrorAnswers by the directory module:
// identity providers read that shape, not problem+json.
import { HttpException } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '#domain';
import { WrongExpectedRevisionError } from '#event-store';
import type { ErrorAnswer } from '../http/error-answers.js';
import { ProblemError } from '../http/problem-error.js';
import { isJsonParseFailure } from '../http/problem-document.js';
import { ERROR_SCHEMA, SCIM_MEDIA_TYPE, SCIM_PATH, ScimError, type ScimType } from './scim-messages.js';

const errorBody = (status: number, detail: string, scimType?: ScimType): ErrorAnswer => ({
  status,
  contentType: SCIM_MEDIA_TYPE,
  body: { schemas: [ERROR_SCHEMA], status: String(status), ...(scimType === undefined ? {} : { scimType }), detail },
});

function fromDomainError(error: DomainError): ErrorAnswer | undefined {
  switch (error.code) {
    case 'DUPLICATE':
      return errorBody(409, error.message, 'uniqueness');
    case 'LAST_OWNER':
      return errorBody(409, error.message, 'mutability');
    case 'LIMIT_EXCEEDED':
      return errorBody(409, `${error.message} Raise the organization’s users limit, or deprovision someone first.`);
    case 'NOT_FOUND':
      return errorBody(404, error.message);
    case 'VALIDATION_FAILED':
      return errorBody(400, error.message, 'invalidValue');
    case 'FORBIDDEN':
    case 'ENTERPRISE_PLAN_REQUIRED':
      return errorBody(403, error.message);
    default:
      return undefined;
  }
}

/** Errors on /scim/v2 in SCIM's error schema; anything unforeseen stays a logged problem+json 500. */
export function answerScimErrors(exception: unknown, request: Request): ErrorAnswer | undefined {
  if (!request.path.startsWith(`${SCIM_PATH}/`) && request.path !== SCIM_PATH) return undefined;
  if (exception instanceof ScimError) return errorBody(exception.status, exception.detail, exception.scimType);
  if (exception instanceof DomainError) return fromDomainError(exception);
  // A race is decided again by the command itself; only a stream that kept changing through every attempt gets here,
  // and identity providers retry a 503.
  if (exception instanceof WrongExpectedRevisionError) {
    return {
      ...errorBody(503, 'The directory changed while this request was decided: send it again.'),
      headers: { 'Retry-After': '1' },
    };
  }
  if (isJsonParseFailure(exception)) return errorBody(400, 'The request body is not valid JSON.', 'invalidSyntax');
  if (exception instanceof ProblemError) return errorBody(exception.getStatus(), exception.detail ?? exception.title);
  if (exception instanceof HttpException && exception.getStatus() < 500)
    return errorBody(exception.getStatus(), exception.message);
  return undefined;
}
