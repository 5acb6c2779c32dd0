import type { LimitedResource, Organization, Role } from '../../../api/contract';
import {
  binding,
  exceededBy,
  included,
  leftText,
  overLimitText,
  planless as noPlanInEffect,
  raising,
  usageText,
} from '../../../api/limits';
import { RESOURCE_NAMES, planName } from '../../../api/words';
import { WayForward } from '../../../components/console/way-forward';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { TrafficThisMonth } from './traffic-this-month';

const RESOURCES: LimitedResource[] = ['users', 'contentSections', 'qualityAssuranceDomains', 'webAnalyticsDomains'];

/** The one thing about how a limit is set that the organization needs to know, if any. */
function note(organization: Organization, resource: LimitedResource): string | null {
  if (!included(organization, resource)) return null;
  const plan = organization.governingPlan;
  if (plan !== null && binding(organization, resource) === 'hard')
    return `The most the ${planName(plan.plan)} plan allows.`;
  return null;
}

/**
 * The four limits as the organization reads them: what is in use, a bar, and how many more fit. How the
 * figure is made (configured, hard, override: docs/domain.md, Limits) is the operator's business, not shown here.
 */
export function LimitList({ organization, role }: { organization: Organization; role: Role }) {
  const { limits, usage } = organization;
  return (
    <ul className="limits">
      {RESOURCES.map((resource) => {
        // Without a plan in effect nothing can be added, whatever "unlimited" the missing plan would suggest.
        const planless = noPlanInEffect(organization) && included(organization, resource);
        const text = usageText(organization, resource);
        // A full list says what would raise it here, and where to go (the web analytics cap is the product's: nothing
        // raises it).
        const over = !planless && exceededBy(organization, resource) > 0;
        const full = !planless && included(organization, resource) && !organization.canAdd[resource];
        const raise = full ? raising(organization, resource) : null;
        const extra = raise === null ? note(organization, resource) : null;
        return (
          <li className="limit" key={resource}>
            <div className="limit__head">
              <span className="limit__name">{RESOURCE_NAMES[resource]}</span>
              <span className="limit__usage">{text}</span>
            </div>
            {included(organization, resource) && !planless && (
              <ProgressBar
                label={RESOURCE_NAMES[resource]}
                value={usage[resource]}
                max={limits.effective[resource]}
                valueText={text}
              />
            )}
            <p className="limit__explanation">
              {planless ? 'Nothing more until a plan is in effect' : leftText(organization, resource)}
              {extra !== null && `. ${extra}`}
            </p>
            {/* Over after a downgrade: nothing was removed, and the way back is in the organization's hands. */}
            {over && <p className="limit__explanation">{overLimitText(organization, resource)}</p>}
            {raise !== null && !over && <p className="limit__explanation">{raise.sentence}</p>}
            {raise !== null && raise.goal !== null && (
              <WayForward goal={raise.goal} role={role} organization={organization} />
            )}
          </li>
        );
      })}
      <TrafficThisMonth organization={organization} role={role} />
    </ul>
  );
}
