import type { LimitedResource, Organization, Role } from '../../api/contract';
import { limitReachedText, whatRaisesIt } from '../../api/limits';
import { chorusPlanIdle } from '../../api/way-forward';
import { planName } from '../../api/words';
import { Notice } from '../ui/notice';
import { WayForward } from './way-forward';

type LimitNoticeProps = { organization: Organization; resource: LimitedResource; role: Role; refused?: boolean };

/**
 * Said before anyone types (docs/console.md, Members): the limit is reached, what raises it and who can; or
 * there is no plan in effect, and why. Nothing while one more fits.
 */
export function LimitNotice({ organization, resource, role, refused = false }: LimitNoticeProps) {
  // Once the server has refused, its words next to the form say what is wrong: one message, not two.
  if (organization.canAdd[resource] || refused) return null;
  if (organization.governingPlan === null) {
    const idle = chorusPlanIdle(organization);
    const plan = planName(organization.chorusDetails.plan ?? '');
    return (
      <Notice tone="warning">
        <p className="notice__title">{idle ? 'Chorus is off' : 'No plan yet'}</p>
        <p>
          {idle
            ? `Chorus is off, so ${organization.name}’s Chorus ${plan} plan is not in effect: nothing can be added until Chorus is turned on.`
            : `${organization.name} has no plan, so nothing can be added until one is chosen.`}
        </p>
        <WayForward goal={idle ? 'chorus' : 'plan'} role={role} organization={organization} />
      </Notice>
    );
  }
  return (
    <Notice tone="warning">
      <p className="notice__title">{limitReachedText(organization, resource)}</p>
      <p>{whatRaisesIt(organization, resource)}</p>
      {resource !== 'webAnalyticsDomains' && <WayForward goal="raise" role={role} organization={organization} />}
    </Notice>
  );
}
