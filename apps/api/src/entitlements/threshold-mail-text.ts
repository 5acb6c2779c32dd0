// The owners' mail about a traffic threshold, in the product's words (docs/entitlements.md, Usage reports).
import type { Config } from '#config';
import type { TrafficThresholdReached } from '#domain';

type Reached = TrafficThresholdReached['data'] & { organizationId: string; organizationName: string };

const count = (value: number): string => value.toLocaleString('en-US');
/** "2026-11" -> "November 2026": periods are calendar months in UTC. */
const monthOf = (period: string): string => new Date(`${period}-01T00:00:00Z`).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** Where an owner goes for a larger allowance: the pricing page or portal, else support by mail, else support. */
function wayForward(config: Pick<Config, 'upgradeUrl' | 'supportEmail' | 'productName'>): string {
  if (config.upgradeUrl !== undefined) return `To raise the allowance, change the plan or add-ons: ${config.upgradeUrl}`;
  if (config.supportEmail !== undefined) return `To raise the allowance, write to ${config.supportEmail}.`;
  return `To raise the allowance, ask ${config.productName} support.`;
}

export function thresholdMail(config: Pick<Config, 'upgradeUrl' | 'supportEmail' | 'productName' | 'publicUrl'>, reached: Reached): { subject: string; text: string } {
  const month = monthOf(reached.period);
  const full = reached.threshold === 100;
  const subject = full
    ? `${reached.organizationName} has used its traffic allowance for ${month}`
    : `${reached.organizationName} has used 80% of its traffic allowance for ${month}`;
  const text = [
    'Hello,',
    '',
    `${reached.organizationName} has counted ${count(reached.used)} of the ${count(reached.allowance)} page views its plan includes for ${month}` +
      ` (${reached.threshold}%).${full ? ' The allowance is used up.' : ''}`,
    'Traffic is still counted and nothing is blocked.',
    '',
    wayForward(config),
    '',
    `The organization's overview: ${config.publicUrl}/app/orgs/${encodeURIComponent(reached.organizationId)}`,
    '',
    `You receive this because you own ${reached.organizationName} in ${config.productName}.`,
  ].join('\n');
  return { subject, text };
}
