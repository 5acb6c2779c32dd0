import type { Organization, Role } from '../../../api/contract';
import { formatNumber } from '../../../api/words';
import { WayForward } from '../../../components/console/way-forward';
import { ProgressBar } from '../../../components/ui/progress-bar';

const monthFormat = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long' });

/** Periods are calendar months in UTC. */
const monthOf = (period: string): string => monthFormat.format(new Date(`${period}-01T00:00:00Z`));

function explanation(traffic: Organization['traffic']): string {
  const month = monthOf(traffic.period);
  if (traffic.allowance === null)
    return `No monthly allowance on this plan: traffic in ${month} is counted, never limited.`;
  const full = traffic.reached.find((crossing) => crossing.threshold === 100);
  if (full !== undefined)
    return `The allowance for ${month} was used up on ${dayFormat.format(new Date(full.at))}. Traffic is still counted; nothing is blocked.`;
  const high = traffic.reached.find((crossing) => crossing.threshold === 80);
  const left = `${formatNumber(Math.max(traffic.allowance - traffic.used, 0))} page views left in ${month}`;
  return high === undefined
    ? left
    : `80% of the allowance was reached on ${dayFormat.format(new Date(high.at))}: ${left}.`;
}

/** docs/console.md, Overview. */
export function TrafficThisMonth({ organization, role }: { organization: Organization; role: Role }) {
  const { traffic } = organization;
  const text =
    traffic.allowance === null
      ? `${formatNumber(traffic.used)} page views`
      : `${formatNumber(traffic.used)} of ${formatNumber(traffic.allowance)} page views`;
  return (
    <li className="limit limit--wide">
      <div className="limit__head">
        <span className="limit__name">Traffic this month</span>
        <span className="limit__usage">{text}</span>
      </div>
      {traffic.allowance !== null && (
        <ProgressBar label="Traffic this month" value={traffic.used} max={traffic.allowance} valueText={text} />
      )}
      <p className="limit__explanation">{explanation(traffic)}</p>
      {traffic.reached.length > 0 && <WayForward goal="raise" role={role} organization={organization} />}
    </li>
  );
}
