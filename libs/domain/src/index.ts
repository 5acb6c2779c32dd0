// The public surface of the pure domain: every export other parts may use.
export * from './decider.js';
export * from './errors.js';
export * from './organization/events.js';
export * from './organization/commands.js';
export * from './organization/view.js';
export * from './plans/catalogue.js';

export { initialOrganizationState } from './organization/state.js';
export type {
  ExistingOrganization,
  Member,
  NoOrganization,
  OrganizationState,
  Site,
  SsoDomainVerification,
  SsoSettings,
  OidcSsoSettings,
  SamlSsoSettings,
  SamlCertificate,
} from './organization/state.js';
export { evolve, foldOrganization } from './organization/evolve.js';
export { decide, refuseUnlessAllowed, type RoleCheckedCommand } from './organization/decisions.js';
export { organizationDecider, type RequestedOrganizationCommand } from './organization/decider.js';
export type { DecideContext } from './organization/decide-context.js';
export { MANAGING_ROLES, MEMBER_ROLES } from './organization/member-roles.js';
export { memberWithAddress } from './organization/member-lookup.js';
export { Members } from './organization/members.js';
export {
  automaticJoinRole,
  DOMAIN_JOINS,
  JOIN_ROLES,
  type DomainJoin,
} from './organization/decisions/set-domain-join.js';
export { memberRequester, operator, type Requester } from './organization/requester.js';
export {
  MAX_ADD_ON_QUANTITY,
  MAX_CONFIGURED_LIMIT,
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  type ValidationReason,
} from './organization/command-validation.js';
export { exceededBy, organizationView } from './organization/organization-view.js';
export { notificationRecipients } from './organization/notification-recipients.js';

export { CATALOGUE_PRODUCT_KEYS, createPlanCatalogue } from './plans/plan-catalogue.js';
export { findPlan } from './plans/find-plan.js';
export { resolveProduct, type ResolvedProduct } from './plans/resolve-product.js';
export { ADD_ON_EFFECTS, SERVICE_LEVEL_FEATURES, type AddOnEffect } from './plans/add-on-effects.js';
export {
  ADD_ONS,
  CHORUS_PLANS,
  CLASSIC_PLANS,
  LINES,
  SERVICE_LEVELS,
  isChorusPlan,
  isClassicPlan,
  isPlanOfLine,
} from './plans/plan-lines.js';

export { LIMITED_RESOURCES, WEB_ANALYTICS_DOMAIN_LIMIT } from './limits/limited-resources.js';
export { configuredLimit, effectiveLimit, isUnlimited, isWithin, normalizeLimit } from './limits/limit-arithmetic.js';
export { governingPlan } from './limits/governing-plan.js';
export {
  limitInputsOf,
  organizationLimits,
  usage,
  type LimitInputs,
  type OrganizationLimits,
} from './limits/organization-limits.js';
export { LIMIT_EVENT_TYPES, USAGE_EVENT_TYPES } from './limits/usage-events.js';
export { refusalToAdd } from './limits/refusal-to-add.js';
export { effectiveChorusFeatures } from './features/chorus-features.js';

export {
  parseHostname,
  readHostname,
  toUnicodeHostname,
  type Hostname,
  type HostnameFault,
} from './hostnames/parse-hostname.js';
export { isValidResetEmail } from './email/is-valid-reset-email.js';
export { isEmailAddress, emailAddressRefusal } from './email/email-address.js';

export {
  EVENT_TYPE_NAMES,
  NO_NAMES,
  eventSentence,
  isOrganizationEventType,
  namesIn,
  recordedEventSentence,
  typeInWords,
  type RecordNames,
} from './history/event-sentence.js';
export { diffOrganizations, type ChangeArea, type ChangeKind, type OrganizationChange } from './history/state-diff.js';
export { isListedSecondFactorEvent, memberSecuritySentence } from './history/member-security-sentence.js';
export {
  ADD_ON_NAMES,
  CHORUS_FEATURE_NAMES,
  LINE_NAMES,
  RESOURCE_NAMES,
  ROLE_WORDS,
  SERVICE_LEVEL_NAMES,
} from './history/history-words.js';
export {
  emailDomain,
  hasSsoPlan,
  isSsoVerificationToken,
  isVerifiedSsoDomain,
  ssoVerificationRecordName,
  isLoopbackHttpIssuer,
  isSealedSecret,
  MAX_SSO_DOMAINS,
  parseIssuer,
  parseSsoDomain,
  ssoDomainOf,
} from './sso/sso-rules.js';

export * from './api-key/api-key.js';
export * from './sso/sso-domain-claim.js';
export * from './sso/join-refusal-notice.js';
export * from './history/kept-checkpoints.js';
export * from './sso/saml-rules.js';
export * from './sso/saml-sign-on.js';
export * from './sso/sso-sign-on-failures.js';

export * from './user/events.js';
export * from './user/commands.js';
export * from './user/user.js';
export * from './user/second-factor-events.js';
export * from './user/second-factors.js';
export * from './user/factor-presence.js';
export { decideUser, userDecider, type UserDecision } from './user/decide.js';
export * from './user/identifier-claims.js';
export * from './session/session-events.js';
export * from './session/session.js';
export * from './sign-in/attempt-streak.js';
export * from './sign-in/sign-in-attempts.js';
export * from './invitation/invitation-events.js';
export * from './invitation/invitation.js';
export * from './mail/mail-claim.js';
export * from './entitlements/entitlements.js';
export * from './billing/billing-ledger.js';
export * from './billing/subscription.js';
export * from './billing/stripe-subscription.js';
export * from './usage/threshold-mail.js';
export * from './usage/traffic.js';
export { UNKNOWN_COMMAND_TYPE, UNKNOWN_EVENT_TYPE } from './testing/unknown-types.js';
export { EventSchemaError, EventSchemas, eventSchemas, UPCASTERS, type Upcaster } from './evolution/upcasters.js';
export * from './privacy/personal-data.js';
export * from './directory/directory.js';
export * from './directory/directory-actors-and-roles.js';
export * from './directory/directory-departures.js';
export * from './directory/directory-lookup.js';
export * from './directory/directory-not-found.js';
export * from './directory/scim-request-log.js';
export * from './webhooks/webhook-endpoints.js';
export * from './webhooks/webhook-deliveries.js';
export * from './webhooks/webhook-catalogue.js';
