// CONTRACT (types fixed): the one read-side shape that the projection, the time-travel state and the API all use.
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
  plan: ClassicPlan | null;
  chorus: boolean;
  chorusDetails: { plan: ChorusPlan | null; parallelUse: boolean | null };
  chorusFeatures: ChorusFeatures;
  features: { multiSite: boolean };
  serviceLevel: ServiceLevel;
  addOns: Partial<Record<AddOn, number>>;
  /** The Chorus plan when Chorus is enabled, else the Classic plan. */
  governingPlan: { line: 'classic' | 'chorus'; plan: string } | null;
  limits: {
    configured: PerResource<Limit>;
    hard: PerResource<Limit>;
    /** null: unlimited. */
    effective: PerResource<Limit>;
    override: boolean;
    /** Plans and add-ons do not change an operator's setting. */
    setByOperator: PerResource<boolean>;
    /** After a downgrade, how many more are in use than allowed. */
    exceededBy: PerResource<number>;
  };
  usage: PerResource<number>;
  canAdd: PerResource<boolean>;
  trafficPerMonth: number | null;
  members: { userId: string; email: string; role: MemberRole; chorusUser: boolean }[];
  sites: {
    siteId: string;
    name: string;
    hostname: string;
    features: SiteFeatures;
    report: { weekly: boolean; monthly: boolean };
    live: boolean;
  }[];
  qualityAssurance: { domains: string[] };
  webAnalytics: { domains: string[] };
  subscription: SubscriptionView | null;
  twoStepSignIn: { required: boolean };
  sso: {
    available: boolean;
    /** Never the client secret. domainStates: one per domain, in the same order. */
    settings: SsoSettingsView | null;
  };
};

/** unverified with no record: listed before verification existed; saving gives one. */
type SsoCommonView = { domains: string[]; enforce: boolean; trustProviderMfa: boolean; domainStates: SsoDomainState[] };

export type SsoSettingsView =
  | ({ protocol: 'oidc'; issuer: string; clientId: string } & SsoCommonView)
  | ({
      protocol: 'saml';
      idpEntityId: string;
      ssoUrl: string;
      metadataUrl: string | null;
      certificates: { sha256: string; notAfter: string }[];
      allowIdpInitiated: boolean;
    } & SsoCommonView);

export type SsoDomainState = {
  domain: string;
  status: 'pending' | 'verified' | 'unverified';
  since: string | null;
  /** Unverified once the grace period has passed. */
  recordMissingSince: string | null;
  record: { name: string; type: 'TXT'; value: string } | null;
  /** The role its people join with on signing in (DomainJoinSet), once verified; null: by invitation only. */
  joinRole: MemberRole | null;
};
