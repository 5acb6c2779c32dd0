// Every refusal of the domain is a DomainError with a stable code; the API maps codes to HTTP.
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
  | 'ENTERPRISE_PLAN_REQUIRED';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Machine-readable details, safe to show to the caller (e.g. resource, limit, count). */
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
