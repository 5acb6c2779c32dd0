// The directory's refusals in the customer's words (docs/directory.md).
import type { Problem } from '../../api/contract';
import { refusalMessage } from '../../api/refusals';

export function directoryRefusal(problem: Problem): string {
  if (problem.code === 'ENTERPRISE_PLAN_REQUIRED') return 'Directory provisioning comes with the enterprise plans.';
  if (problem.code === 'LIMIT_EXCEEDED' && problem.resource === 'scimTokens')
    return 'An organization has at most 10 tokens: revoke one it no longer uses first.';
  if (problem.code === 'LAST_OWNER')
    return 'This mapping would leave the organization without an owner: map a group with an owner in it to Owner first.';
  if (problem.code === 'FORBIDDEN') return 'Only owners change this.';
  const pointer = Array.isArray(problem.errors)
    ? (problem.errors[0] as { pointer?: unknown } | undefined)?.pointer
    : undefined;
  if (problem.code === 'VALIDATION_FAILED' && pointer === '#/name')
    return 'Give the token a name, e.g. the identity provider that holds it.';
  return refusalMessage(problem);
}
