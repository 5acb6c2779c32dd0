// CONTRACT (types fixed; `organizationView` in organization-view.ts computes this shape).
// The read-side shape of an organization (docs/api.md, GET /organizations/:id, without `position`):
// the one definition that the projection, the time-travel state and the API all use.
import type {
  AddOn,
  ChorusFeatures,
  ChorusPlan,
  ClassicPlan,
  Limit,
  ServiceLevel,
  SiteFeatures,
} from '../plans/catalogue.js';
import type { LimitedResource } from '../errors.js';
import type { SubscriptionTerms } from '../billing/subscription.js';
import type { MemberRole } from './member-roles.js';

export type SubscriptionView = Omit<SubscriptionTerms, 'subscriptionId'>;

export type PerResource<T> = Record<LimitedResource, T>;

export type OrganizationView = {
  id: string;
  name: string;
  /** The Classic line plan, or null. */
  plan: ClassicPlan | null;
  chorus: boolean;
  chorusDetails: { plan: ChorusPlan | null; parallelUse: boolean | null };
  chorusFeatures: ChorusFeatures;
  features: { multiSite: boolean };
  serviceLevel: ServiceLevel;
  addOns: Partial<Record<AddOn, number>>;
  /** Which plan's limits apply: the Chorus plan when Chorus is enabled, else the Classic plan. */
  governingPlan: { line: 'classic' | 'chorus'; plan: string } | null;
  limits: {
    configured: PerResource<Limit>;
    hard: PerResource<Limit>;
    /** null = unlimited. */
    effective: PerResource<Limit>;
    override: boolean;
    /** How many more are in use than the effective limit allows (after a downgrade): 0 when within it. */
    exceededBy: PerResource<number>;
  };
  usage: PerResource<number>;
  canAdd: PerResource<boolean>;
  trafficPerMonth: number | null;
  members: { userId: string; email: string; role: MemberRole; chorusUser: boolean }[];
  sites: {
    siteId: string;
    name: string;
    /** Unicode form for display. */
    hostname: string;
    features: SiteFeatures;
    report: { weekly: boolean; monthly: boolean };
    live: boolean;
  }[];
  qualityAssurance: { domains: string[] };
  webAnalytics: { domains: string[] };
  /** Enterprise single sign-on: whether the plan includes it, and its settings (never the client secret). */
  /** The payment provider's subscription (its status and dates), or null when there is none. */
  subscription: SubscriptionView | null;
  /** Whether every member must pass a second step at password sign-in. */
  twoStepSignIn: { required: boolean };
  sso: {
    available: boolean;
    /** domains in Unicode form; domainStates: one per domain, in the same order. */
    settings: { issuer: string; clientId: string; domains: string[]; enforce: boolean; trustProviderMfa: boolean; domainStates: SsoDomainState[] } | null;
  };
};

/**
 * Where the proof of control of an SSO domain stands, and the DNS record that proves it (a TXT record,
 * public in DNS anyway). unverified with no record: listed before verification existed; saving gives one.
 */
export type SsoDomainState = {
  domain: string;
  status: 'pending' | 'verified' | 'unverified';
  since: string | null;
  /** A verified domain whose record was not found since then: unverified once the grace period has passed. */
  recordMissingSince: string | null;
  record: { name: string; type: 'TXT'; value: string } | null;
};
