// The identity lib's refusals as problem+json (API.md, Errors and Sign-in).
import { IdentityError, RateLimited, type IdentityErrorCode } from '#identity';
import { ProblemError } from '../http/problem-error.js';

const status: Record<IdentityErrorCode, number> = {
  VALIDATION_FAILED: 400,
  INVALID_TOKEN: 400,
  INVALID_CREDENTIALS: 401,
  NOT_FOUND: 404,
  DUPLICATE: 409,
  RATE_LIMITED: 429,
  WRONG_PASSWORD: 400,
};

const title: Record<IdentityErrorCode, string> = {
  VALIDATION_FAILED: 'The request is not valid',
  INVALID_TOKEN: 'The link is not valid',
  INVALID_CREDENTIALS: 'Incorrect username or password',
  NOT_FOUND: 'Not found',
  DUPLICATE: 'It is already taken',
  RATE_LIMITED: 'Too many attempts',
  WRONG_PASSWORD: 'The current password is not correct',
};

/** An IdentityError as the ProblemError the exception filter answers; anything else unchanged. */
export function asProblem(error: unknown): unknown {
  if (!(error instanceof IdentityError)) return error;
  const field = error.details.field;
  const extensions: Record<string, unknown> =
    (error.code === 'VALIDATION_FAILED' || error.code === 'WRONG_PASSWORD') && typeof field === 'string' ? { errors: [{ pointer: `#/${field}`, detail: error.message }] } : {};
  if (error instanceof RateLimited) extensions.retryAfterSeconds = error.retryAfterSeconds;
  return new ProblemError(status[error.code], error.code, title[error.code], error.message, extensions);
}
