import type { Organization, Role, Subscription } from '../../../api/contract';
import { WayForward } from '../../../components/console/way-forward';
import { Notice } from '../../../components/ui/notice';
import { formatDay } from '../../../lib/date-time';

export function subscriptionStatusText(subscription: Subscription): string {
  switch (subscription.status) {
    case 'trialing':
      return subscription.trialEndsAt === null ? 'Trial' : `Trial until ${formatDay(subscription.trialEndsAt)}`;
    case 'active':
      return 'Active';
    case 'past_due':
      return 'Payment overdue';
    case 'ended':
      return subscription.endedAt === null ? 'Ended' : `Ended on ${formatDay(subscription.endedAt)}`;
  }
}

/** ["Ends on", "31 December 2026"], "Renews on", "First charge on"; null when nothing happens next. */
export function subscriptionNext(subscription: Subscription): [label: string, day: string] | null {
  if (subscription.status === 'ended') return null;
  if (subscription.endsOn !== null) return ['Ends on', formatDay(subscription.endsOn)];
  if (subscription.currentPeriod === null) return null;
  return [
    subscription.status === 'trialing' ? 'First charge on' : 'Renews on',
    formatDay(subscription.currentPeriod.end),
  ];
}

export function SubscriptionFacts({ subscription }: { subscription: Subscription | null | undefined }) {
  if (subscription === null || subscription === undefined) return null;
  const next = subscriptionNext(subscription);
  return (
    <>
      <div className="fact">
        <dt>Subscription</dt>
        <dd>{subscriptionStatusText(subscription)}</dd>
      </div>
      {next !== null && (
        <div className="fact">
          <dt>{next[0]}</dt>
          <dd>{next[1]}</dd>
        </div>
      )}
    </>
  );
}

export function SubscriptionNotice({ organization, role }: { organization: Organization; role: Role }) {
  const subscription = organization.subscription;
  if (subscription === null || subscription === undefined) return null;
  if (subscription.status === 'past_due') {
    return (
      <div className="overview__notice">
        <Notice tone="warning">
          <p className="notice__title">Payment overdue</p>
          <p>
            The last payment failed. The plan stays in force while the payment is tried again; update the payment
            details to keep it.
          </p>
          <WayForward goal="payment" role={role} organization={organization} />
        </Notice>
      </div>
    );
  }
  if (subscription.status !== 'ended' && subscription.endsOn !== null) {
    return (
      <div className="overview__notice">
        <Notice tone="info">
          <p className="notice__title">Your plan ends on {formatDay(subscription.endsOn)}</p>
          <p>
            The subscription was cancelled. Until then everything works as now; afterwards nothing can be added until a
            plan is chosen again.
          </p>
          <WayForward goal="renew" role={role} organization={organization} />
        </Notice>
      </div>
    );
  }
  return null;
}
