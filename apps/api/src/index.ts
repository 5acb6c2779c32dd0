// The public module of apps/api (`#api`): what the command line, the tests and the benchmarks may use.
// Nothing outside apps/api imports its files by path (.dependency-cruiser.cjs, api-only-through-its-public-module).

// The service: the HTTP app, and its modules without a listener (the command line).
export { AppModule, type AppModuleOptions } from './app.module.js';
export { createApp, type CreateAppOptions } from './create-app.js';
export { createPino } from './logging/pino.js';
export { StructuredLogger } from './logging/structured-logger.service.js';

// Answers and refusals.
export { ProblemError } from './http/problem-error.js';
export { toProblem, type Problem, type ProblemDocument } from './http/problem.js';
export { commandAnswer, jsonSafe, type CommandAnswer, type CommandResult } from './organizations/command-result.js';

// Organization commands (through the CommandBus) and what they accept.
export { AddMemberCommand, AddSiteCommand, ChangeOrganizationCommand, CreateOrganizationCommand, type NewMember } from './organizations/organizations.js';
export { memberOrSiteIdSchema, organizationIdSchema } from './http/organization-ids.js';
export { assignPlanRequest, chorusRequest, createOrganizationRequest } from './organizations/organization-requests.js';
// The organization command path outside Nest (benchmarks, scripted histories).
export { Organizations, OrganizationStateCache } from './organizations/organizations.js';

// Enterprise single sign-on.
export { ConfigureSsoCommand } from './sso/configure-sso.command.js';
export { configureSsoRequest, type ConfigureSsoRequest } from './sso/sso-requests.js';
export { ssoSignOnStream, type SsoFailureReason } from './sso/sso-sign-on-failures.js';
export { ssoDomainStreamPrefix } from '#domain';

// Access.
export { API_KEY_CACHE_MS, ApiKeys, type ApiKeySummary, type CreatedApiKey, type RevokedApiKey } from './access/api-keys/api-keys.service.js';
export type { ApiKeyScope } from '#domain';

// Sign-in: the identity lib as the service wires it, and the clock e2e tests pin.
export { IDENTITY, IdentityClock } from './auth/identity.provider.js';
// Invitations owed by MemberAdded, mailed by a reaction.
export { MEMBER_INVITATIONS, type MemberInvitations, type InvitationMailAnswer } from './organizations/member-invitations.js';

// Billing.
export { signBillingPayload } from './billing/billing-signature.js';
export { BillingLedger } from './billing/billing-ledger.js';
export { billingStream } from '#domain';
export { BillingEffects, organizationEventId } from './billing/billing-effects.js';

// Audit.
export { stateQuery } from './audit/audit-requests.js';
export { GetOrganizationStateQuery } from './audit/get-organization-state.query.js';
export { historyEvent, type HistoryEvent } from './audit/history-event.js';
export { HistoryExport } from './audit/history-export.js';
export { HistoryInWords } from './audit/history-in-words.js';
export { ApiKeyNames } from './audit/api-key-names.js';
export { EXPORT_FORMATS, exportLine, type ExportFormat } from './audit/history-export-format.js';
export { TIMELINE_FIELDS, type TimelineEntry } from './audit/timeline-entry.js';
export { readOrganizationHistory } from './audit/organization-history.js';
export { organizationStateAt, type OrganizationStateAt } from './audit/organization-state-at.js';

// The API's reference (/docs), and the words of each route the route-diff test checks.
export { openApiDocument, openApiPath, routeKey, undocumentedRoutes, type OpenApiDocument } from './openapi/openapi-document.js';
export { Operation, type OperationText } from './http/operation.decorator.js';

// The first-run demo, the start-up banner and the SPA's files.
export { DemoSeed, demoOrganizationId, demoOwnerEmail, type DemoSignIn } from './demo/demo-seed.service.js';
export { startUpBanner } from './start-up/start-up-banner.js';
export { webRoot } from './web/web-root.js';
export { SsoDomainVerification } from './sso/sso-domain-verification.js';
