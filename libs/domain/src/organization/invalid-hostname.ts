import { DomainError } from '../errors.js';

export const invalidHostname = (field: string, value: unknown): DomainError =>
  new DomainError('INVALID_HOSTNAME', `${field} is not a valid host name (it needs a dot, unless it is localhost).`, {
    field,
    value: typeof value === 'string' ? value : null,
  });
