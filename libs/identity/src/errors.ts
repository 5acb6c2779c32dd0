// Every refusal of the identity lib is an IdentityError with a stable code; the API maps codes to HTTP.
export type IdentityErrorCode =
  | 'VALIDATION_FAILED'
  | 'INVALID_CREDENTIALS'
  | 'RATE_LIMITED'
  | 'INVALID_TOKEN'
  | 'DUPLICATE'
  | 'NOT_FOUND'
  /** Change password: the current password given is not the account's. */
  | 'WRONG_PASSWORD';

export class IdentityError extends Error {
  constructor(
    readonly code: IdentityErrorCode,
    message: string,
    /** Machine-readable details, safe to show to the caller. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'IdentityError';
  }
}

export class InvalidCredentials extends IdentityError {
  constructor() {
    // The seed's one message for any failure of POST /login (section 8).
    super('INVALID_CREDENTIALS', 'Incorrect username or password.');
  }
}

export class RateLimited extends IdentityError {
  constructor(readonly retryAfterSeconds: number) {
    super('RATE_LIMITED', 'Too many attempts; try again later.', { retryAfterSeconds });
  }
}

export class InvalidToken extends IdentityError {
  constructor(message = 'This password reset link is unknown, used or expired.') {
    super('INVALID_TOKEN', message);
  }
}
