// The shapes the console reads from the HTTP API (docs/api.md, docs/service.md). The answers' shapes are
// written out here rather than imported from the server, so a server change shows up in review; the
// vocabulary inside them (roles, resources, features, site features, add-ons, service levels) is the domain's own,
// imported from its pure contract files so the two cannot drift.
import type { LimitedResource } from '@libs/domain/errors';
import type { MemberRole } from '@libs/domain/organization/events';
import type { AddOn, ChorusFeature, ServiceLevel, SiteFeatures } from '@libs/domain/plans/catalogue';

export { CHORUS_FEATURES } from '@libs/domain/plans/catalogue';
export type { AddOn, ChorusFeature, LimitedResource, ServiceLevel, SiteFeatures };
export type Role = MemberRole;
export type PerResource<T> = Record<LimitedResource, T>;
/** null = unlimited. */
export type Limit = number | null;
/** A global position or revision: a number while it is a safe integer, a decimal string beyond. */
export type Position = number | string;

export type SessionUser = { id: string; email: string; username: string | null };
export type Membership = { id: string; name: string; role: Role };
export type SessionAnswer = { user: SessionUser; organizations: Membership[] };

export type Member = { userId: string; email: string; role: Role; chorusUser: boolean; invited: boolean };
/** GET /organizations/:id/members: one page, in the order they joined; `next` is the following page's `after`. */
export type MembersPage = { organizationId: string; members: Member[]; total: number; next: string | null };

export type SiteDefaults = { features: SiteFeatures; report: { weekly: boolean; monthly: boolean }; live: boolean };
export type Site = { siteId: string; name: string; hostname: string } & SiteDefaults;

export type Organization = {
  id: string;
  name: string;
  plan: string | null;
  chorus: boolean;
  chorusDetails: { plan: string | null; parallelUse: boolean | null };
  chorusFeatures: Record<ChorusFeature, boolean>;
  features: { multiSite: boolean };
  serviceLevel: ServiceLevel;
  addOns: Partial<Record<AddOn, number>>;
  governingPlan: { line: 'classic' | 'chorus'; plan: string } | null;
  /** The governing plan's defaults for new sites; null without a plan. */
  siteDefaults: SiteDefaults | null;
  /**
   * exceededBy: how many more are in use than the effective limit allows, after a downgrade (absent from older
   * servers).
   */
  limits: {
    configured: PerResource<Limit>;
    hard: PerResource<Limit>;
    effective: PerResource<Limit>;
    override: boolean;
    /** Where the configured limit is an operator's setting, which plans and add-ons leave as it is. */
    setByOperator?: PerResource<boolean>;
    exceededBy?: PerResource<number>;
  };
  usage: PerResource<number>;
  canAdd: PerResource<boolean>;
  trafficPerMonth: number | null;
  /**
   * This calendar month's traffic (UTC) against the allowance (null: unlimited), and when 80% and 100% were reached.
   */
  traffic: { period: string; used: number; allowance: number | null; reached: { threshold: 80 | 100; at: string }[] };
  /** How many members there are: the console reads them page by page (MembersPage), never all at once. */
  memberCount: number;
  /** Whom to ask for what only an owner may do. */
  owners: { userId: string; email: string }[];
  sites: Site[];
  qualityAssurance: { domains: string[] };
  webAnalytics: { domains: string[] };
  /** Enterprise single sign-on: whether the plan includes it, and its settings (never the client secret). */
  sso: { available: boolean; settings: SsoSettings | null };
  /** The Stripe subscription's status and dates (docs/billing.md); null without one, absent from older servers. */
  subscription?: Subscription | null;
  /** Whether every member must pass a second step at password sign-in; absent from older servers. */
  twoStepSignIn?: { required: boolean };
  revision: Position;
  position: Position;
};

export type Subscription = {
  provider: 'stripe';
  status: 'trialing' | 'active' | 'past_due' | 'ended';
  trialEndsAt: string | null;
  /** A cancellation at the period's end is scheduled: the plan stays until then. */
  endsOn: string | null;
  currentPeriod: { start: string; end: string } | null;
  endedAt: string | null;
};

/**
 * An organization's identity provider, through OpenID Connect or SAML 2.0; domains in Unicode form, domainStates one
 * per domain.
 */
export type SsoSettings = OidcSsoSettings | SamlSsoSettings;

export type SsoProtocol = NonNullable<SsoSettings['protocol']>;

type SsoCommonSettings = {
  domains: string[];
  enforce: boolean;
  trustProviderMfa: boolean;
  domainStates: SsoDomainState[];
};

/** Never the client secret: only that one is saved. protocol absent: a server of before SAML (OpenID Connect only). */
export type OidcSsoSettings = { protocol?: 'oidc'; issuer: string; clientId: string } & SsoCommonSettings;

/** The provider as its metadata said (metadataUrl null: pasted as XML); certificates by SHA-256 (hex) and expiry. */
export type SamlSsoSettings = {
  protocol: 'saml';
  idpEntityId: string;
  ssoUrl: string;
  metadataUrl: string | null;
  certificates: { sha256: string; notAfter: string }[];
  allowIdpInitiated: boolean;
} & SsoCommonSettings;

/**
 * Where the proof of control of an SSO domain stands, and the TXT record that proves it (null: save again to get one).
 */
export type SsoDomainState = {
  domain: string;
  status: 'pending' | 'verified' | 'unverified';
  since: string | null;
  recordMissingSince: string | null;
  record: { name: string; type: 'TXT'; value: string } | null;
  /** The role its people join with on signing in; null: by invitation only. */
  joinRole: 'owner' | 'admin' | 'member' | 'auditor' | null;
};

/**
 * POST /organizations/:id/sso/domains/:domain/verify: what DNS said (unknown: it did not answer) and the status after.
 */
export type SsoDomainCheck = {
  domain: string;
  lookup: 'found' | 'absent' | 'unknown';
  status: SsoDomainState['status'];
};

export type NotificationRecipients = {
  organizationId: string;
  recipients: Omit<Member, 'invited'>[];
  position: Position;
};

/** Every command's answer (docs/api.md): where the change was recorded, for reading it back. */
export type CommandAnswer = { id: string; revision: Position; position: Position };

export type SignInMethod = 'password' | 'google' | 'invitation' | 'sso';
export type AccountSession = {
  id: string;
  method: SignInMethod;
  startedAt: string;
  lastActiveAt: string;
  expiresAt: string;
  userAgent: string | null;
  current: boolean;
  /** The password was right, the second step not passed yet; absent from older servers. */
  secondStepPending?: boolean;
};

export type HistoryEvent = {
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: { actor?: string; correlationId?: string; [key: string]: unknown };
  revision: Position;
  position: Position;
  recordedAt: string;
};
export type HistoryPage = {
  organizationId: string;
  events: HistoryEvent[];
  nextFromRevision: Position;
  hasMore: boolean;
};

/**
 * `singleSignOn`: where to join instead of choosing a password (an organization enforces its single sign-on for the
 * address).
 */
export type InvitationDetails = {
  email: string;
  organizationName: string;
  expiresAt: string;
  singleSignOn: string | null;
};

/** A refusal as the API answers it (RFC 9457 problem+json with a stable code and its details). */
export type Problem = {
  status: number;
  code: string;
  detail: string;
  [extension: string]: unknown;
};
