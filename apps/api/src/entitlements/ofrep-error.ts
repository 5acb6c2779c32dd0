// OFREP's errors (open-feature/protocol): `{key, errorCode, errorDetails}`, the key named for a single flag
// (the stock provider reads an error only when it names the key), without it for a bulk evaluation.
import type { ErrorAnswerer } from '../http/error-answers.js';
import { isJsonParseFailure } from '../http/problem-document.js';
import { ProblemError } from '../http/problem-error.js';

export type OfrepErrorCode = 'PARSE_ERROR' | 'TARGETING_KEY_MISSING' | 'INVALID_CONTEXT' | 'FLAG_NOT_FOUND' | 'GENERAL';

export class OfrepError extends ProblemError {
  constructor(
    status: 400 | 404,
    readonly ofrepCode: OfrepErrorCode,
    readonly ofrepDetails: string,
    readonly flagKey?: string,
  ) {
    super(status, ofrepCode, ofrepCode, ofrepDetails);
  }

  body(): { key?: string; errorCode: OfrepErrorCode; errorDetails: string } {
    return {
      ...(this.flagKey === undefined ? {} : { key: this.flagKey }),
      errorCode: this.ofrepCode,
      errorDetails: this.ofrepDetails,
    };
  }
}

/** A body the JSON parser refused, on an OFREP route: its PARSE_ERROR. */
export const ofrepParseError = (key?: string): OfrepError =>
  new OfrepError(400, 'PARSE_ERROR', 'The request body is not valid JSON.', key);

/**
 * The flag of a single-flag OFREP evaluation, read off the path (a body that does not parse is refused before routing).
 */
const flagKeyOf = (path: string): string | undefined => /^\/ofrep\/v1\/evaluate\/flags\/([^/]+)$/.exec(path)?.[1];

/** OFREP's callers (an SDK's provider, not a person) read its own error shape, also for a body that does not parse. */
export const answerOfrepErrors: ErrorAnswerer = (exception, request) => {
  const ofrep =
    exception instanceof OfrepError
      ? exception
      : request.path.startsWith('/ofrep/') && isJsonParseFailure(exception)
        ? ofrepParseError(flagKeyOf(request.path))
        : undefined;
  return ofrep === undefined ? undefined : { status: ofrep.getStatus(), body: ofrep.body() };
};
