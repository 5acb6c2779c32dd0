import type { LimitedResource, Organization, Problem, Role } from '../../api/contract';
import { raising } from '../../api/limits';
import { refusalMessage } from '../../api/refusals';
import { chorusPlanIdle, type Goal } from '../../api/way-forward';
import { WayForward } from './way-forward';

const isLimitedResource = (value: unknown): value is LimitedResource =>
  value === 'users' ||
  value === 'contentSections' ||
  value === 'qualityAssuranceDomains' ||
  value === 'webAnalyticsDomains';

/** Which next step a refusal calls for, if any: a limit, no plan, a plan without single sign-on. */
function goalOf(problem: Problem, organization: Organization): Goal | null {
  switch (problem.code) {
    case 'LIMIT_EXCEEDED':
      // Only what would raise it here (the web analytics cap is the product's: nothing does).
      return isLimitedResource(problem.resource) ? raising(organization, problem.resource).goal : null;
    case 'NO_PLAN':
      return chorusPlanIdle(organization) ? 'chorus' : 'plan';
    case 'ENTERPRISE_PLAN_REQUIRED':
      return chorusPlanIdle(organization) && organization.chorusDetails.plan === 'enterprise' ? 'chorus' : 'enterprise';
    case 'FEATURE_DISABLED':
      return 'addOn';
    default:
      return null;
  }
}

/** A refusal in words, and where it leads (inside a FormAlert: one message, not two). */
export function Refusal({ problem, organization, role }: { problem: Problem; organization: Organization; role: Role }) {
  const goal = goalOf(problem, organization);
  return (
    <>
      <p>{refusalMessage(problem, organization)}</p>
      {/* A space between the two sentences for text read or copied as one line. */}
      {goal !== null && ' '}
      {goal !== null && <WayForward goal={goal} role={role} organization={organization} />}
    </>
  );
}
