import type { AddOn, Organization, Role } from '../../../api/contract';
import { canManage } from '../../../api/roles';
import { chorusPlanIdle, planEnded } from '../../../api/way-forward';
import { ADD_ON_NAMES, SERVICE_LEVEL_NAMES, formatNumber, planName } from '../../../api/words';
import { PageHeader } from '../../../components/layout/page-header';
import { Section } from '../../../components/layout/section';
import { WayForward } from '../../../components/console/way-forward';
import { Notice } from '../../../components/ui/notice';
import { ChorusFeatureList, SiteFeatureList } from './feature-list';
import { LimitList } from './limit-list';
import { NotificationRecipients } from './notification-recipients';
import { SubscriptionFacts, SubscriptionNotice } from './subscription-facts';

function governing(organization: Organization): string {
  const plan = organization.governingPlan;
  if (plan === null) {
    if (chorusPlanIdle(organization)) return `${organization.name} has a Chorus plan, but Chorus is off.`;
    return planEnded(organization) ? `${organization.name}’s plan has ended.` : `${organization.name} has no plan yet.`;
  }
  return `${organization.name} is on the ${plan.line === 'chorus' ? 'Chorus' : 'Classic'} ${planName(plan.plan)} plan.`;
}

function PlanProblem({ organization, role }: { organization: Organization; role: Role }) {
  const idle = chorusPlanIdle(organization);
  if (organization.governingPlan !== null && !idle) return null;
  const chorusPlan = planName(organization.chorusDetails.plan ?? '');
  const words = !idle
    ? planEnded(organization)
      ? `${organization.name}’s plan ended with its subscription, so nothing can be added until a plan is chosen; nothing in use was removed.`
      : `${organization.name} has no plan, so nothing can be added until one is chosen.`
    : organization.governingPlan === null
      ? `Chorus is off, so its ${chorusPlan} plan is not in effect: nothing can be added until Chorus is turned on.`
      : `Chorus is off, so its ${chorusPlan} plan is not in effect: the Classic plan’s limits apply until Chorus is turned on.`;
  return (
    <div className="overview__notice">
      <Notice tone="warning">
        <p className="notice__title">
          {idle ? 'Chorus is off' : planEnded(organization) ? 'The plan has ended' : 'No plan yet'}
        </p>
        <p>{words}</p>
        <WayForward goal={idle ? 'chorus' : 'plan'} role={role} organization={organization} />
      </Notice>
    </div>
  );
}

function chorusWords(organization: Organization): string {
  if (!organization.chorus) return 'Off';
  return organization.chorusDetails.parallelUse === true ? 'On, alongside Classic' : 'On';
}

export function Overview({ organization, role }: { organization: Organization; role: Role }) {
  const addOns = Object.entries(organization.addOns) as [AddOn, number][];
  const { chorusDetails } = organization;
  return (
    <>
      <PageHeader title="Overview">{governing(organization)}</PageHeader>
      <div className="overview">
        <PlanProblem organization={organization} role={role} />
        <SubscriptionNotice organization={organization} role={role} />
        <Section className="overview__limits" title="Limits" description="What is in use, and how much more fits.">
          <LimitList organization={organization} role={role} />
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
              <dd>{chorusWords(organization)}</dd>
            </div>
            <SubscriptionFacts subscription={organization.subscription} />
            <div className="fact">
              <dt>Service level</dt>
              <dd>{SERVICE_LEVEL_NAMES[organization.serviceLevel]}</dd>
            </div>
            <div className="fact">
              <dt>Traffic per month</dt>
              <dd>
                {organization.trafficPerMonth === null
                  ? 'Unlimited'
                  : `${formatNumber(organization.trafficPerMonth)} page views`}
              </dd>
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

        <Section
          className="overview__features"
          title="Chorus features"
          description={
            organization.chorus
              ? 'In effect for this organization.'
              : 'Chorus is off: none of its features is in effect.'
          }
        >
          <ChorusFeatureList features={organization.chorusFeatures} />
        </Section>

        <Section className="overview__sites" title="Sites" description="What a new site starts with on this plan.">
          <dl className="facts">
            <div className="fact">
              <dt>Several sites</dt>
              <dd>{organization.features.multiSite ? 'Yes' : 'No'}</dd>
            </div>
            {organization.siteDefaults !== null && (
              <div className="fact">
                <dt>Reports</dt>
                <dd>
                  {[
                    organization.siteDefaults.report.weekly && 'Weekly',
                    organization.siteDefaults.report.monthly && 'Monthly',
                  ]
                    .filter(Boolean)
                    .join(' and ') || 'None'}
                </dd>
              </div>
            )}
          </dl>
          {organization.siteDefaults === null ? (
            <p className="muted">No plan: sites have no features yet.</p>
          ) : (
            <SiteFeatureList features={organization.siteDefaults.features} />
          )}
        </Section>

        {canManage(role) && <NotificationRecipients organization={organization} />}
      </div>
    </>
  );
}
