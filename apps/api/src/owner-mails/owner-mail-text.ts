// The owners' mails, in the product's words: a traffic threshold (docs/entitlements.md, Usage reports), a
// failed payment and a trial ending (docs/billing.md).
import type { Config } from '#config';
import type {
  AutomaticJoinRefused,
  JoinRefusalNoticeOwed,
  OrganizationEvent,
  SubscriptionTrialEnding,
  TrafficThresholdReached,
  WebhookEndpointDisabled,
} from '#domain';

type About = { organizationId: string; organizationName: string };
type Reached = TrafficThresholdReached['data'] & About;
type MailConfig = Pick<Config, 'upgradeUrl' | 'supportEmail' | 'productName' | 'publicUrl'>;
export type OwnerMail = { subject: string; text: string };

const count = (value: number): string => value.toLocaleString('en-US');
/** "2026-11" -> "November 2026": periods are calendar months in UTC. */
const monthOf = (period: string): string =>
  new Date(`${period}-01T00:00:00Z`).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** Where an owner goes for a larger allowance: the pricing page or portal, else support by mail, else support. */
function wayForward(config: Pick<Config, 'upgradeUrl' | 'supportEmail' | 'productName'>): string {
  if (config.upgradeUrl !== undefined)
    return `To raise the allowance, change the plan or add-ons: ${config.upgradeUrl}`;
  if (config.supportEmail !== undefined) return `To raise the allowance, write to ${config.supportEmail}.`;
  return `To raise the allowance, ask ${config.productName} support.`;
}

export function thresholdMail(config: MailConfig, reached: Reached): OwnerMail {
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

const dayOf = (instant: string): string =>
  new Date(instant).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `page`: the organization's console page the mail points to (its overview unless said). */
const closing = (
  config: MailConfig,
  about: About,
  page: { name: string; path: string } = { name: 'overview', path: '' },
): string[] => [
  `The organization's ${page.name}: ${config.publicUrl}/app/orgs/${encodeURIComponent(about.organizationId)}${page.path}`,
  '',
  `You receive this because you own ${about.organizationName} in ${config.productName}.`,
];

function paymentFailedMail(config: MailConfig, about: About): OwnerMail {
  const where = config.upgradeUrl === undefined ? 'in your Stripe customer portal' : `at ${config.upgradeUrl}`;
  return {
    subject: `The payment for ${about.organizationName} failed`,
    text: [
      'Hello,',
      '',
      `Stripe could not take the latest payment for ${about.organizationName}'s subscription.`,
      'The plan stays in force while Stripe tries again; if every attempt fails, the subscription ends and members, sites and domains can no longer be added.',
      '',
      `Please check the payment details ${where}.`,
      '',
      ...closing(config, about),
    ].join('\n'),
  };
}

function trialEndingMail(
  config: MailConfig,
  about: About,
  { trialEndsAt }: SubscriptionTrialEnding['data'],
): OwnerMail {
  const day = dayOf(trialEndsAt);
  return {
    subject: `${about.organizationName}'s trial ends on ${day}`,
    text: [
      'Hello,',
      '',
      `The trial of ${about.organizationName}'s subscription ends on ${day}. From then on the subscription is charged as agreed at checkout.`,
      'Nothing needs doing to keep the plan if a payment method is set; to stop, cancel the subscription before that day.',
      '',
      ...closing(config, about),
    ].join('\n'),
  };
}

/** An organization event, or one of its other streams' that the owners hear of, or the notice to a refused person. */
export type OwnerMailEvent = OrganizationEvent | WebhookEndpointDisabled | JoinRefusalNoticeOwed;

function webhookDisabledMail(
  config: MailConfig,
  about: About,
  { endpointId, reason }: WebhookEndpointDisabled['data'],
  url: string | undefined,
): OwnerMail {
  return {
    subject: `A webhook endpoint of ${about.organizationName} was turned off`,
    text: [
      'Hello,',
      '',
      `${config.productName} turned off the webhook endpoint ${url ?? endpointId} of ${about.organizationName}. ${reason}`,
      'Nothing more is sent to it until it is turned on again; then it gets every event it missed, in order.',
      '',
      ...closing(config, about, { name: 'webhooks', path: '/webhooks' }),
    ].join('\n'),
  };
}

function joinRefusedMail(config: MailConfig, about: About, { domain }: AutomaticJoinRefused['data']): OwnerMail {
  return {
    subject: `Someone of ${domain} could not join ${about.organizationName}`,
    text: [
      'Hello,',
      '',
      `A person with an address of ${domain} signed in to ${config.productName}, and could not join ${about.organizationName}: its users limit is reached.`,
      'People of that domain join on their own when they sign in, as long as there is room. You hear of this at most once a day.',
      '',
      'To make room, remove members who no longer need access, or raise the limit with the plan or add-ons.',
      '',
      ...closing(config, about, { name: 'members', path: '/members' }),
    ].join('\n'),
  };
}

/**
 * The person's side of a refused join: why they are not in, that the owners know, and what to do; no count of the
 * organization's members (that is the owners' business), and nothing to click that a mail could fake.
 */
export function joinRefusedPersonMail(
  config: MailConfig,
  about: About,
  { domain }: JoinRefusalNoticeOwed['data'],
): OwnerMail {
  return {
    subject: `You could not join ${about.organizationName} yet`,
    text: [
      'Hello,',
      '',
      `You signed in to ${config.productName} with an address of ${domain}. People of ${domain} join ${about.organizationName} on their own when they sign in, ` +
        `but ${about.organizationName} has no room for another member just now: its users limit is reached. So you did not join it.`,
      '',
      `Its owners have been told. Once they make room, sign in again and you join ${about.organizationName}.`,
      '',
      `You receive this at most once a day, because you signed in with an address of ${domain}.`,
    ].join('\n'),
  };
}

/**
 * Whether a mail is owed: a threshold, a payment that just failed, a trial ending, a webhook endpoint turned off, a
 * refused join.
 */
export function owesOwnerMail(event: OwnerMailEvent): boolean {
  if (
    event.type === 'WebhookEndpointDisabled' ||
    event.type === 'AutomaticJoinRefused' ||
    event.type === 'JoinRefusalNoticeOwed'
  )
    return true;
  if (event.type === 'SubscriptionChanged')
    return event.data.status === 'past_due' && event.data.previousStatus !== 'past_due';
  // A month's threshold reached by reports that came in after the month ended tells the owners nothing they can act on.
  if (event.type === 'TrafficThresholdReached') return event.data.late !== true;
  return event.type === 'SubscriptionTrialEnding';
}

/** The mail the owners are owed for an organization event, or none (most events, and most subscription changes). */
export function ownerMail(
  config: MailConfig,
  about: About,
  event: OwnerMailEvent,
  webhookUrl?: string,
): OwnerMail | undefined {
  if (!owesOwnerMail(event)) return undefined;
  switch (event.type) {
    case 'WebhookEndpointDisabled':
      return webhookDisabledMail(config, about, event.data, webhookUrl);
    case 'TrafficThresholdReached':
      return thresholdMail(config, { ...about, ...event.data });
    case 'SubscriptionTrialEnding':
      return trialEndingMail(config, about, event.data);
    case 'AutomaticJoinRefused':
      return joinRefusedMail(config, about, event.data);
    // The person's, not the owners' (joinRefusedPersonMail).
    case 'JoinRefusalNoticeOwed':
      return undefined;
    default:
      return paymentFailedMail(config, about);
  }
}

/** The organization events ownerMail may answer a mail for. */
export const OWNER_MAIL_EVENT_TYPES = [
  'TrafficThresholdReached',
  'SubscriptionChanged',
  'SubscriptionTrialEnding',
  'WebhookEndpointDisabled',
  'AutomaticJoinRefused',
  'JoinRefusalNoticeOwed',
];
