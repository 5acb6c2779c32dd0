import type { LimitedResource, Organization, Role } from '../../../api/contract';
import { binding, exceededBy, included, leftText, overLimitText, usageText } from '../../../api/limits';
import { RESOURCE_NAMES, formatNumber, planName } from '../../../api/words';
import { WayForward } from '../../../components/console/way-forward';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { TrafficThisMonth } from './traffic-this-month';

const RESOURCES: LimitedResource[] = ['users', 'contentSections', 'qualityAssuranceDomains', 'webAnalyticsDomains'];

/** The one thing about how a limit is set that the organization needs to know, if any. */
function note(organization: Organization, resource: LimitedResource): string | null {
  if (!included(organization, resource)) return null;
  const plan = organization.governingPlan;
  if (plan !== null && binding(organization, resource) === 'hard') return `The most the ${planName(plan.plan)} plan allows.`;
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
        const planless = organization.governingPlan === null && included(organization, resource);
        const text = planless ? `${formatNumber(usage[resource])} in use` : usageText(organization, resource);
        const extra = note(organization, resource);
        // A full list says where to go from here (the web analytics cap is the product's: nothing raises it).
        const full = !planless && included(organization, resource) && !organization.canAdd[resource] && resource !== 'webAnalyticsDomains';
        return (
          <li className="limit" key={resource}>
            <div className="limit__head">
              <span className="limit__name">{RESOURCE_NAMES[resource]}</span>
              <span className="limit__usage">{text}</span>
            </div>
            {included(organization, resource) && !planless && (
              <ProgressBar label={RESOURCE_NAMES[resource]} value={usage[resource]} max={limits.effective[resource]} valueText={text} />
            )}
            <p className="limit__explanation">
              {planless ? 'Nothing more until a plan is in effect' : leftText(organization, resource)}
              {extra !== null && `. ${extra}`}
            </p>
            {/* Over after a downgrade: nothing was removed, and the way back is in the organization's hands. */}
            {!planless && exceededBy(organization, resource) > 0 && <p className="limit__explanation">{overLimitText(organization, resource)}</p>}
            {full && <WayForward goal="raise" role={role} organization={organization} />}
          </li>
        );
      })}
      <TrafficThisMonth organization={organization} role={role} />
    </ul>
  );
}
