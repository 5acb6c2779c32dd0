// OFREP's errors (open-feature/protocol): `{key, errorCode, errorDetails}`, the key named for a single flag
// (the stock provider reads an error only when it names the key), without it for a bulk evaluation.
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
    return { ...(this.flagKey === undefined ? {} : { key: this.flagKey }), errorCode: this.ofrepCode, errorDetails: this.ofrepDetails };
  }
}

/** A body the JSON parser refused, on an OFREP route: its PARSE_ERROR. */
export const ofrepParseError = (key?: string): OfrepError => new OfrepError(400, 'PARSE_ERROR', 'The request body is not valid JSON.', key);
