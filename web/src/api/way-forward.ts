// Where a refusal leads: a limit, a missing plan or Chorus left off is never the end of the sentence.
// Owners get the upgrade link (UPGRADE_URL) or whom to write to (SUPPORT_EMAIL); everyone else gets
// the organization's owners, who are the ones to ask.
import type { Organization, Role } from './contract';

/**
 * What would get the organization past the refusal. raise: an add-on or a larger plan; largerPlan: only a larger
 * plan (the plan's hard limit binds); support: only Chorus (the limit is an operator's setting).
 */
export type Goal =
  'raise' | 'largerPlan' | 'support' | 'plan' | 'enterprise' | 'chorus' | 'addOn' | 'payment' | 'renew';

export type Contact = { upgradeUrl: string | null; supportEmail: string | null };

/** A sentence with at most one link in it: `before`, the link, `after`. */
export type WayForward = { before: string; link?: { href: string; label: string }; after?: string };

const ACTIONS: Record<Goal, string> = {
  raise: 'raise the limit',
  largerPlan: 'choose a larger plan',
  support: 'raise the limit',
  plan: 'choose a plan',
  enterprise: 'move to an Enterprise plan',
  chorus: 'turn Chorus on',
  addOn: 'add it',
  payment: 'update the payment details',
  renew: 'keep the subscription',
};

const LINK_LABELS: Record<Goal, string | null> = {
  raise: 'Change the plan or add-ons',
  largerPlan: 'Choose a larger plan',
  // A limit set for the organization is not for sale: only the support address leads anywhere.
  support: null,
  plan: 'Choose a plan',
  enterprise: 'Move to an Enterprise plan',
  chorus: 'Manage the subscription',
  addOn: 'Change the plan or add-ons',
  payment: 'Update the payment details',
  renew: 'Keep the subscription',
};

/** "a", "a or b", "a, b or c". */
export function either(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1) ?? ''}`;
}

export const ownersOf = (organization: Organization): string[] => organization.owners.map((owner) => owner.email);

/**
 * The next step, or null for an owner when neither UPGRADE_URL nor SUPPORT_EMAIL is set: "ask support" with no
 * way to reach it is no step at all.
 */
export function wayForward(goal: Goal, role: Role, organization: Organization, contact: Contact): WayForward | null {
  const action = ACTIONS[goal];
  if (role !== 'owner') {
    const owners = ownersOf(organization);
    return {
      before:
        owners.length === 0
          ? `Ask an owner of ${organization.name} to ${action}.`
          : `Ask an owner to ${action}: ${either(owners)}.`,
    };
  }
  // Chorus is turned on, and a set limit raised, by the people who run the service, not in a shop: the address comes
  // first.
  const { supportEmail, upgradeUrl } = contact;
  const label = LINK_LABELS[goal];
  const byMail =
    supportEmail === null
      ? undefined
      : { before: 'Write to ', link: { href: `mailto:${supportEmail}`, label: supportEmail }, after: ` to ${action}.` };
  const byLink = upgradeUrl === null || label === null ? undefined : { before: '', link: { href: upgradeUrl, label } };
  return (goal === 'chorus' || goal === 'support' ? (byMail ?? byLink) : (byLink ?? byMail)) ?? null;
}

/** The organization had a plan through its subscription, which ended: it has none now, not "none yet". */
export const planEnded = (organization: Organization): boolean => organization.subscription?.status === 'ended';

/** A Chorus plan is assigned but Chorus is off, so the plan is not in effect (docs/domain.md, which plan governs). */
export const chorusPlanIdle = (organization: Organization): boolean =>
  !organization.chorus && organization.chorusDetails.plan !== null;
