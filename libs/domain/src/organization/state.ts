// The organization's state: only ever the fold of its events (see evolve.ts).
import type { OrganizationSubscription } from '../billing/subscription.js';
import type { LimitedResource } from '../errors.js';
import type { AddOn, ChorusPlan, ClassicPlan, ServiceLevel } from '../plans/catalogue.js';
import type { MemberRole } from './member-roles.js';
import type { Members } from './members.js';

export type { Member } from './members.js';
export type Site = { readonly siteId: string; readonly name: string; readonly hostname: string };

export type SsoDomainVerification = {
  readonly status: 'pending' | 'verified' | 'unverified';
  readonly token: string;
  readonly since: string;
  readonly missingSince: string | null;
};

/** What every protocol shares: the domains it signs in and how. */
type SsoCommon = {
  readonly domains: readonly string[];
  readonly enforce: boolean;
  readonly trustProviderMfa: boolean;
  readonly verification: Readonly<Record<string, SsoDomainVerification>>;
};

/** OpenID Connect; clientSecret sealed. */
export type OidcSsoSettings = SsoCommon & {
  readonly protocol: 'oidc';
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
};

/** A SAML identity provider's signing certificate: the DER in base64, as its metadata gives it. */
export type SamlCertificate = { readonly certificate: string; readonly sha256: string; readonly notAfter: string };

/** SAML 2.0: the identity provider as its metadata describes it. */
export type SamlSsoSettings = SsoCommon & {
  readonly protocol: 'saml';
  readonly idpEntityId: string;
  readonly ssoUrl: string;
  readonly certificates: readonly SamlCertificate[];
  readonly metadataUrl: string | null;
  readonly allowIdpInitiated: boolean;
};

export type SsoSettings = OidcSsoSettings | SamlSsoSettings;

export type NoOrganization = { readonly exists: false };

export type ExistingOrganization = {
  readonly exists: true;
  readonly id: string;
  readonly name: string;
  readonly plans: { readonly classic: ClassicPlan | null; readonly chorus: ChorusPlan | null };
  /** Set by the latest PlanAssigned that carries one. */
  readonly serviceLevel: ServiceLevel;
  readonly addOns: Readonly<Record<AddOn, number>>;
  readonly chorus: { readonly enabled: boolean; readonly parallelUse: boolean | null };
  readonly limits: {
    /** null: the plan-derived value applies. 0: configured as unlimited. */
    readonly configured: Readonly<Record<LimitedResource, number | null>>;
    readonly override: boolean;
  };
  /** Indexed by user id and by address: finding one never passes over the others. */
  readonly members: Members;
  readonly sites: readonly Site[];
  /** Hostnames and domains are kept in ASCII (punycode) form. */
  readonly qualityAssuranceDomains: readonly string[];
  readonly webAnalyticsDomains: readonly string[];
  readonly sso: SsoSettings | null;
  /** Percent, by month (YYYY-MM). */
  readonly trafficThresholdsReached?: Readonly<Record<string, readonly number[]>>;
  readonly subscription?: OrganizationSubscription;
  /** Only this customer's subscriptions change the organization. */
  readonly stripeCustomerId?: string;
  readonly twoStepSignInRequired?: boolean;
  /** Verified domains whose people join on signing in, with their role (DomainJoinSet); absent: by invitation. */
  readonly domainJoins?: Readonly<Record<string, MemberRole>>;
  /** The day (YYYY-MM-DD) a person last could not join for the users limit: the owners are mailed once a day. */
  readonly automaticJoinRefusedOn?: string;
};

export type OrganizationState = NoOrganization | ExistingOrganization;

export const initialOrganizationState: OrganizationState = Object.freeze({ exists: false });
