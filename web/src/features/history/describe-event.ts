// An organization event and its actor in words ("Member added: ann@example.com as admin").
import type { AddOn, HistoryEvent, Member } from '../../api/contract';
import { ADD_ON_NAMES } from '../../api/words';

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

const addOnName = (value: unknown): string => ADD_ON_NAMES[value as AddOn] ?? text(value);

/** `emails`: user id -> address, for events that name a member by id only (MemberRemoved). */
export function describeEvent(event: HistoryEvent, emails: ReadonlyMap<string, string> = new Map()): string {
  const data = event.data;
  switch (event.type) {
    case 'OrganizationCreated':
      return `Organization created: ${text(data.name)}`;
    case 'PlanAssigned':
      return `Plan assigned: ${text(data.line) === 'chorus' ? 'Chorus' : 'Classic'} ${text(data.plan)}${data.serviceLevel ? `, ${text(data.serviceLevel)} service` : ''}`;
    case 'AddOnPurchased':
      return `Add-on purchased: ${addOnName(data.addOn)} × ${text(data.quantity)}`;
    case 'AddOnCancelled':
      return `Add-on cancelled: ${addOnName(data.addOn)} × ${text(data.quantity)}`;
    case 'ChorusEnabled':
      return 'Chorus turned on';
    case 'ChorusDisabled':
      return 'Chorus turned off';
    case 'LimitsConfigured':
      return `Limits configured: ${Object.entries(data)
        .map(([key, value]) => `${key} ${value === null ? 'from the plan' : text(value) || String(value)}`)
        .join(', ')}`;
    case 'MemberAdded':
      return `Member added: ${text(data.email)} as ${text(data.role)}`;
    case 'MemberRemoved':
      return `Member removed: ${emails.get(text(data.userId)) ?? text(data.userId)}`;
    case 'MemberRoleChanged':
      return `Role changed: ${emails.get(text(data.userId)) ?? text(data.userId)} is ${text(data.role)} now`;
    case 'SiteAdded':
      return `Site added: ${text(data.name)} (${text(data.hostname)})`;
    case 'SiteRemoved':
      return `Site removed: ${text(data.siteId)}`;
    case 'QualityAssuranceDomainAdded':
      return `QA domain added: ${text(data.domain)}`;
    case 'QualityAssuranceDomainRemoved':
      return `QA domain removed: ${text(data.domain)}`;
    case 'WebAnalyticsDomainAdded':
      return `Web analytics domain added: ${text(data.domain)}`;
    case 'WebAnalyticsDomainRemoved':
      return `Web analytics domain removed: ${text(data.domain)}`;
    case 'SsoConfigured': {
      const domains = Array.isArray(data.domains) ? data.domains.map(text).join(', ') : '';
      // Never the client secret, not even sealed.
      return `Single sign-on configured: ${text(data.issuer)} for ${domains}${data.enforce === true ? ', required' : ''}`;
    }
    case 'SsoDisabled':
      return 'Single sign-on turned off';
    default:
      return event.type;
  }
}

export function describeActor(actor: string | undefined, members: readonly Member[]): string {
  if (actor === undefined) return 'Unknown';
  if (actor === 'billing') return 'Billing';
  if (actor === 'cli') return 'Command line';
  if (actor === 'system') return 'System';
  // Issue 19: a member added just in time by the organization's single sign-on.
  if (actor.startsWith('sso:')) return 'Single sign-on';
  if (actor.startsWith('api-key:')) return `API key ${actor.slice('api-key:'.length)}`;
  if (actor.startsWith('user:')) {
    const userId = actor.slice('user:'.length);
    return members.find((member) => member.userId === userId)?.email ?? 'A former member';
  }
  return actor;
}
