import type { AddOn, Organization, Role } from '../../../api/contract';
import { canManage } from '../../../api/roles';
import { ADD_ON_NAMES, SERVICE_LEVEL_NAMES, formatNumber, planName } from '../../../api/words';
import { PageHeader } from '../../../components/layout/page-header';
import { Section } from '../../../components/layout/section';
import { ChorusFeatureList, SiteFeatureList } from './feature-list';
import { LimitList } from './limit-list';
import { NotificationRecipients } from './notification-recipients';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

function governing(organization: Organization): string {
  const plan = organization.governingPlan;
  if (plan === null) return `${organization.name} has no plan yet: nothing can be added until one is chosen.`;
  return `${organization.name}’s limits come from its ${plan.line === 'chorus' ? 'Chorus' : 'Classic'} ${planName(plan.plan)} plan.`;
}

/** docs/console.md, Overview: plans, limits, features and who is notified. */
export function Overview({ organization, role }: { organization: Organization; role: Role }) {
  const addOns = Object.entries(organization.addOns) as [AddOn, number][];
  const { chorusDetails } = organization;
  return (
    <>
      <PageHeader title="Overview">{governing(organization)}</PageHeader>
      <div className="overview">
        <Section className="overview__limits" title="Limits" description="What is in use, against the limit that applies.">
          <LimitList organization={organization} />
        </Section>

        <Section className="overview__plans" title="Plans">
          <dl className="facts">
            <div className="fact">
              <dt>Classic plan</dt>
              <dd>{organization.plan === null ? 'None' : planName(organization.plan)}</dd>
            </div>
            <div className="fact">
              <dt>Chorus plan</dt>
              <dd>{chorusDetails.plan === null ? 'None' : planName(chorusDetails.plan)}</dd>
            </div>
            <div className="fact">
              <dt>Chorus</dt>
              <dd>{organization.chorus ? 'On' : 'Off'}</dd>
            </div>
            <div className="fact">
              <dt>Parallel use</dt>
              <dd>{chorusDetails.parallelUse === null ? 'Not set' : yesNo(chorusDetails.parallelUse)}</dd>
            </div>
            <div className="fact">
              <dt>Service level</dt>
              <dd>{SERVICE_LEVEL_NAMES[organization.serviceLevel]}</dd>
            </div>
            <div className="fact">
              <dt>Traffic per month</dt>
              <dd>{organization.trafficPerMonth === null ? 'Unlimited' : `${formatNumber(organization.trafficPerMonth)} page views`}</dd>
            </div>
            <div className="fact fact--wide">
              <dt>Add-ons</dt>
              <dd>
                {addOns.length === 0 ? (
                  'None'
                ) : (
                  <ul className="plain-list">
                    {addOns.map(([addOn, quantity]) => (
                      <li key={addOn}>
                        {ADD_ON_NAMES[addOn]} × {quantity}
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </div>
          </dl>
        </Section>

        <Section className="overview__features" title="Chorus features" description={organization.chorus ? 'In effect for this organization.' : 'Chorus is off: none of its features is in effect.'}>
          <ChorusFeatureList features={organization.chorusFeatures} />
        </Section>

        <Section className="overview__sites" title="Sites" description="What a new site starts with on this plan.">
          <dl className="facts">
            <div className="fact">
              <dt>Several sites (multiSite)</dt>
              <dd>{organization.features.multiSite ? 'On' : 'Off'}</dd>
            </div>
            {organization.siteDefaults !== null && (
              <div className="fact">
                <dt>Reports</dt>
                <dd>
                  {[organization.siteDefaults.report.weekly && 'Weekly', organization.siteDefaults.report.monthly && 'Monthly'].filter(Boolean).join(' and ') || 'None'}
                </dd>
              </div>
            )}
          </dl>
          {organization.siteDefaults === null ? <p className="muted">No plan: sites have no features yet.</p> : <SiteFeatureList features={organization.siteDefaults.features} />}
        </Section>

        {canManage(role) && <NotificationRecipients organization={organization} />}
      </div>
    </>
  );
}
