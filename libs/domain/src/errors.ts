// Every refusal, of an organization's decisions or of a user's, is a DomainError with a stable code; the API maps codes to HTTP.
export type LimitedResource = 'users' | 'contentSections' | 'qualityAssuranceDomains' | 'webAnalyticsDomains';

export type DomainErrorCode =
  | 'VALIDATION_FAILED'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'DUPLICATE'
  | 'NO_PLAN'
  | 'LIMIT_EXCEEDED'
  | 'FEATURE_DISABLED'
  | 'INVALID_HOSTNAME'
  | 'INVALID_QUANTITY'
  | 'LAST_OWNER'
  | 'FORBIDDEN'
  | 'ENTERPRISE_PLAN_REQUIRED'
  | 'SSO_DOMAIN_TAKEN'
  | 'INVALID_CREDENTIALS'
  | 'RATE_LIMITED'
  | 'INVALID_TOKEN'
  /** Change password: the current password given is not the account's. */
  | 'WRONG_PASSWORD'
  /** Two-step sign-in: a wrong code, or a passkey that did not verify. */
  | 'INVALID_CODE'
  /** An authenticator code of a time step already used (RFC 6238's one use). */
  | 'CODE_ALREADY_USED'
  /** An organization of the user requires two-step sign-in: the last factor cannot go. */
  | 'TWO_STEP_REQUIRED'
  /** Recovery codes, or passing a step by enrolling, need a second factor first. */
  | 'NO_SECOND_FACTOR'
  /** A change of factors must be confirmed in its request (password or code), or follow a recent sign-in. */
  | 'REAUTHENTICATION_REQUIRED';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Machine-readable details, safe to show to the caller (e.g. resource, limit, count; `field` names a refused field). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class LimitExceeded extends DomainError {
  constructor(readonly resource: LimitedResource, readonly limit: number, readonly count: number) {
    super('LIMIT_EXCEEDED', `The ${resource} limit of ${limit} is reached (${count} in use).`, { resource, limit, count });
  }
}

export class InvalidCredentials extends DomainError {
  constructor() {
    // The seed's one message for any failure of POST /login.
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
