// Where a refusal leads: a limit, a missing plan or Chorus left off is never the end of the sentence.
// Owners get the upgrade link (UPGRADE_URL) or whom to write to (SUPPORT_EMAIL); everyone else gets
// the organization's owners, who are the ones to ask.
import type { Organization, Role } from './contract';

/** What would get the organization past the refusal. */
export type Goal = 'raise' | 'plan' | 'enterprise' | 'chorus' | 'addOn' | 'payment' | 'renew';

export type Contact = { upgradeUrl: string | null; supportEmail: string | null; productName: string };

/** A sentence with at most one link in it: `before`, the link, `after`. */
export type WayForward = { before: string; link?: { href: string; label: string }; after?: string };

const ACTIONS: Record<Goal, string> = {
  raise: 'raise the limit',
  plan: 'choose a plan',
  enterprise: 'move to an Enterprise plan',
  chorus: 'turn Chorus on',
  addOn: 'add it',
  payment: 'update the payment details',
  renew: 'keep the subscription',
};

const LINK_LABELS: Record<Goal, string> = {
  raise: 'Change the plan or add-ons',
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

export const ownersOf = (organization: Organization): string[] =>
  organization.members.filter((member) => member.role === 'owner').map((member) => member.email);

export function wayForward(goal: Goal, role: Role, organization: Organization, contact: Contact): WayForward {
  const action = ACTIONS[goal];
  if (role !== 'owner') {
    const owners = ownersOf(organization);
    return { before: owners.length === 0 ? `Ask an owner of ${organization.name} to ${action}.` : `Ask an owner to ${action}: ${either(owners)}.` };
  }
  // Chorus is turned on by the people who run the service, not in a shop: the address comes first.
  const { supportEmail } = contact;
  const byMail =
    supportEmail === null ? undefined : { before: 'Write to ', link: { href: `mailto:${supportEmail}`, label: supportEmail }, after: ` to ${action}.` };
  const byLink = contact.upgradeUrl === null ? undefined : { before: '', link: { href: contact.upgradeUrl, label: LINK_LABELS[goal] } };
  return (goal === 'chorus' ? (byMail ?? byLink) : (byLink ?? byMail)) ?? { before: `Ask ${contact.productName} support to ${action}.` };
}

/** A Chorus plan is assigned but Chorus is off, so the plan is not in effect (docs/domain.md, which plan governs). */
export const chorusPlanIdle = (organization: Organization): boolean => !organization.chorus && organization.chorusDetails.plan !== null;
