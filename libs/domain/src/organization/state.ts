// The organization's state: only ever the fold of its events (see evolve.ts).
import type { OrganizationSubscription } from '../billing/subscription.js';
import type { LimitedResource } from '../errors.js';
import type { AddOn, ChorusPlan, ClassicPlan, ServiceLevel } from '../plans/catalogue.js';
import type { MemberRole } from './member-roles.js';

export type Member = { readonly userId: string; readonly email: string; readonly role: MemberRole; readonly chorusUser: boolean };
/** hostname in ASCII (punycode) form. */
export type Site = { readonly siteId: string; readonly name: string; readonly hostname: string };

/**
 * Where the proof of control of one SSO domain stands (its TXT record holds `token`). since: when it
 * entered this status; missingSince: when a verified domain's record was first found missing.
 */
export type SsoDomainVerification = {
  readonly status: 'pending' | 'verified' | 'unverified';
  readonly token: string;
  readonly since: string;
  readonly missingSince: string | null;
};

/** clientSecret sealed; domains in ASCII form; verification per listed domain that has a token. */
export type SsoSettings = {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly domains: readonly string[];
  readonly enforce: boolean;
  /** The provider's MFA stands in for Chorus's second step at sign-ons through it (SsoConfigured's trustProviderMfa). */
  readonly trustProviderMfa: boolean;
  readonly verification: Readonly<Record<string, SsoDomainVerification>>;
};

export type NoOrganization = { readonly exists: false };

export type ExistingOrganization = {
  readonly exists: true;
  readonly id: string;
  readonly name: string;
  readonly plans: { readonly classic: ClassicPlan | null; readonly chorus: ChorusPlan | null };
  /** Organization-wide; set by the latest PlanAssigned that carries one. */
  readonly serviceLevel: ServiceLevel;
  /** Active units per add-on (purchased minus cancelled). */
  readonly addOns: Readonly<Record<AddOn, number>>;
  /** parallelUse null: no parallel-use setting (seed section 6). */
  readonly chorus: { readonly enabled: boolean; readonly parallelUse: boolean | null };
  readonly limits: {
    /** null: not configured, the plan-derived value applies. 0: configured as unlimited. */
    readonly configured: Readonly<Record<LimitedResource, number | null>>;
    readonly override: boolean;
  };
  readonly members: readonly Member[];
  readonly sites: readonly Site[];
  /** ASCII (punycode) form. */
  readonly qualityAssuranceDomains: readonly string[];
  /** ASCII (punycode) form. */
  readonly webAnalyticsDomains: readonly string[];
  /** Enterprise single sign-on, or null when not configured. */
  readonly sso: SsoSettings | null;
  /** The thresholds of the traffic allowance (percent) reached, by month (YYYY-MM); absent before the first. */
  readonly trafficThresholdsReached?: Readonly<Record<string, readonly number[]>>;
  /** The payment provider's subscription; absent before the first. */
  readonly subscription?: OrganizationSubscription;
  /** The Stripe customer whose subscriptions alone change the organization (StripeCustomerBound); absent before its first. */
  readonly stripeCustomerId?: string;
  /** Every member signs in with a second step; absent: never required. */
  readonly twoStepSignInRequired?: boolean;
};

export type OrganizationState = NoOrganization | ExistingOrganization;

export const initialOrganizationState: OrganizationState = Object.freeze({ exists: false });
