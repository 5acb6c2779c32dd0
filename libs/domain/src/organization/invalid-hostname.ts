import { DomainError } from '../errors.js';
import { readHostname, type Hostname, type HostnameFault } from '../hostnames/parse-hostname.js';

/** The real reason in the refusal's words; `reason` lets a form say it in its own. */
const WHY: Record<HostnameFault, string> = {
  empty: 'is empty',
  'too-long': 'is too long for a host name (253 characters at most)',
  scheme: 'starts with a scheme other than http:// or https://',
  space: 'has a space in it',
  credentials: 'has a user name or password in it (an @ before the host)',
  characters: 'has characters a host name cannot have',
  label: 'has a part that is not allowed (letters, digits and inner hyphens between the dots, at most 63 each)',
  'no-dot': 'needs a dot, unless it is localhost',
};

export const invalidHostname = (field: string, value: unknown, reason: HostnameFault = 'characters'): DomainError =>
  new DomainError('INVALID_HOSTNAME', `${field} is not a valid host name: it ${WHY[reason]}.`, {
    field,
    value: typeof value === 'string' ? value : null,
    reason,
  });

/** The hostname a command names, or the refusal that says why it names none. */
export function requireHostname(field: string, value: unknown): Hostname {
  const read = readHostname(value as string);
  if ('fault' in read) throw invalidHostname(field, value, read.fault);
  return read.hostname;
}
