import type { LimitedResource, Organization, Role } from '../../api/contract';
import { limitReachedText, raising } from '../../api/limits';
import { chorusPlanIdle, planEnded } from '../../api/way-forward';
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
        <p className="notice__title">
          {idle ? 'Chorus is off' : planEnded(organization) ? 'The plan has ended' : 'No plan yet'}
        </p>
        <p>
          {idle
            ? `Chorus is off, so ${organization.name}’s Chorus ${plan} plan is not in effect: nothing can be added until Chorus is turned on.`
            : planEnded(organization)
              ? `${organization.name}’s plan ended with its subscription, so nothing can be added until a plan is chosen; nothing in use was removed.`
              : `${organization.name} has no plan, so nothing can be added until one is chosen.`}
        </p>
        <WayForward goal={idle ? 'chorus' : 'plan'} role={role} organization={organization} />
      </Notice>
    );
  }
  const { sentence, goal } = raising(organization, resource);
  return (
    <Notice tone="warning">
      <p className="notice__title">{limitReachedText(organization, resource)}</p>
      <p>{sentence}</p>
      {goal !== null && <WayForward goal={goal} role={role} organization={organization} />}
    </Notice>
  );
}
