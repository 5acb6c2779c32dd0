// What callers ask of an organization. Ids of new things (user, site) are chosen by the caller
// (the command handler), never inside the domain.
import type { AddOn, Line, PlanName, ServiceLevel } from '../plans/catalogue.js';
import type { LimitsConfigured, MemberRole } from './events.js';

export type CreateOrganization = { type: 'CreateOrganization'; data: { id: string; name: string } };
export type AssignPlan = { type: 'AssignPlan'; data: { line: Line; plan: PlanName; serviceLevel?: ServiceLevel } };
export type PurchaseAddOn = { type: 'PurchaseAddOn'; data: { addOn: AddOn; quantity?: number } };
/** quantity absent: cancel every active unit of that add-on. */
export type CancelAddOn = { type: 'CancelAddOn'; data: { addOn: AddOn; quantity?: number } };
export type EnableChorus = { type: 'EnableChorus'; data: { parallelUse?: boolean } };
export type DisableChorus = { type: 'DisableChorus'; data: Record<string, never> };
export type ConfigureLimits = { type: 'ConfigureLimits'; data: LimitsConfigured['data'] };
export type AddMember = {
  type: 'AddMember';
  data: { userId: string; email: string; role: MemberRole; chorusUser?: boolean };
};
export type RemoveMember = { type: 'RemoveMember'; data: { userId: string } };
export type ChangeMemberRole = { type: 'ChangeMemberRole'; data: { userId: string; role: MemberRole } };
/** hostname as the user typed it; the domain normalizes it (seed section 5). */
export type AddSite = { type: 'AddSite'; data: { siteId: string; name: string; hostname: string } };
export type RemoveSite = { type: 'RemoveSite'; data: { siteId: string } };
export type AddQualityAssuranceDomain = { type: 'AddQualityAssuranceDomain'; data: { domain: string } };
export type RemoveQualityAssuranceDomain = { type: 'RemoveQualityAssuranceDomain'; data: { domain: string } };
export type AddWebAnalyticsDomain = { type: 'AddWebAnalyticsDomain'; data: { domain: string } };
export type RemoveWebAnalyticsDomain = { type: 'RemoveWebAnalyticsDomain'; data: { domain: string } };
/**
 * clientSecret: sealed (see SsoConfigured), absent to keep the one configured. domains as typed; the
 * domain normalizes them. enforce absent: false.
 */
export type ConfigureSso = {
  type: 'ConfigureSso';
  data: { issuer: string; clientId: string; clientSecret?: string; domains: string[]; enforce?: boolean };
};
export type DisableSso = { type: 'DisableSso'; data: Record<string, never> };

export type OrganizationCommand =
  | CreateOrganization
  | AssignPlan
  | PurchaseAddOn
  | CancelAddOn
  | EnableChorus
  | DisableChorus
  | ConfigureLimits
  | AddMember
  | RemoveMember
  | ChangeMemberRole
  | AddSite
  | RemoveSite
  | AddQualityAssuranceDomain
  | RemoveQualityAssuranceDomain
  | AddWebAnalyticsDomain
  | RemoveWebAnalyticsDomain
  | ConfigureSso
  | DisableSso;

export type OrganizationCommandType = OrganizationCommand['type'];
