// Every refusal, of an organization's decisions or of a user's, is a DomainError with a stable code; the API maps codes
// to HTTP.
export type LimitedResource = 'users' | 'contentSections' | 'qualityAssuranceDomains' | 'webAnalyticsDomains';

/** Every refusal code; the API answers each as its feature registers it (a test holds them to this list). */
export const DOMAIN_ERROR_CODES = [
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'DUPLICATE',
  'NO_PLAN',
  'LIMIT_EXCEEDED',
  'FEATURE_DISABLED',
  'INVALID_HOSTNAME',
  'INVALID_QUANTITY',
  'LAST_OWNER',
  'FORBIDDEN',
  'ENTERPRISE_PLAN_REQUIRED',
  'SSO_DOMAIN_TAKEN',
  'INVALID_CREDENTIALS',
  'RATE_LIMITED',
  'INVALID_TOKEN',
  'WRONG_PASSWORD',
  'INVALID_CODE',
  'CODE_ALREADY_USED',
  'TWO_STEP_REQUIRED',
  'NO_SECOND_FACTOR',
  'REAUTHENTICATION_REQUIRED',
  'SSO_DOMAIN_PUBLIC',
  'SSO_DISCOVERY_FAILED',
  'SAML_RESPONSE_REFUSED',
] as const;

export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Safe to show to the caller. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** history/history-words.ts's RESOURCE_NAMES in lower case (that file imports this one; a test keeps them equal). */
export const LIMITED_RESOURCE_WORDS: Record<LimitedResource, string> = {
  users: 'users',
  contentSections: 'sites',
  qualityAssuranceDomains: 'QA domains',
  webAnalyticsDomains: 'web analytics domains',
};

export class LimitExceeded extends DomainError {
  constructor(
    readonly resource: LimitedResource,
    readonly limit: number,
    readonly count: number,
  ) {
    super('LIMIT_EXCEEDED', `The ${LIMITED_RESOURCE_WORDS[resource]} limit of ${limit} is reached (${count} in use).`, {
      resource,
      limit,
      count,
    });
  }
}

export class InvalidCredentials extends DomainError {
  constructor() {
    // One message for any failure, so that it tells nothing.
    super('INVALID_CREDENTIALS', 'Incorrect username or password.');
  }
}

export class RateLimited extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('RATE_LIMITED', 'Too many attempts; try again later.', { retryAfterSeconds });
  }
}

export class InvalidToken extends DomainError {
  constructor(message = 'This password reset link is unknown, used or expired.') {
    super('INVALID_TOKEN', message);
  }
}
