// The public module of apps/api (`#api`): nothing outside apps/api imports its files by path (.dependency-cruiser.cjs).

export { AppModule, type AppModuleOptions } from './app.module.js';
export { createApp, type CreateAppOptions } from './create-app.js';
export { createPino } from './logging/pino.js';
export { StructuredLogger } from './logging/structured-logger.service.js';

export { ProblemError } from './http/problem-error.js';
export { toProblem, type Problem, type ProblemDocument } from './http/problem-document.js';
export { ErrorAnswers, type RefusalLookup } from './http/error-answers.js';
export { commandAnswer, type CommandAnswer, type CommandResult } from './organizations/command-result.js';
export { jsonSafe } from './http/json-safe.js';
export { memberCursorText, validMembersPageQuery } from './read-models/members-page-query.js';

export { AddMemberCommand, type NewMember } from './organizations/add-member.command.js';
export { AddSiteCommand } from './organizations/add-site.command.js';
export { ChangeOrganizationCommand } from './organizations/change-organization.command.js';
export { CreateOrganizationCommand } from './organizations/create-organization.command.js';
export { memberOrSiteIdSchema, organizationIdSchema } from './http/organization-ids.js';
export { assignPlanRequest, chorusRequest, createOrganizationRequest } from './organizations/organization-requests.js';
// The organization command path outside Nest (benchmarks, scripted histories).
export { Organizations, OrganizationStateCache } from './organizations/organizations.service.js';

export { ConfigureSsoCommand } from './sso/configure-sso.command.js';
export { configureSsoRequest, type ConfigureSsoRequest } from './sso/sso-requests.js';
export { ssoDomainStreamPrefix } from '#domain';

export { DirectoryTokens } from './directory/directory-tokens.service.js';
export { DirectoryUsers } from './directory/directory-users.service.js';
export {
  API_KEY_CACHE_MS,
  ApiKeys,
  type ApiKeySummary,
  type CreatedApiKey,
  type RevokedApiKey,
} from './access/api-keys/api-keys.service.js';
export type { ApiKeyScope } from '#domain';

// Sign-in: the identity lib as the service wires it, and the clock e2e tests pin.
export { IDENTITY } from './auth/identity.provider.js';
export { AppClock } from './config/app-clock.js';
export {
  MEMBER_INVITATIONS,
  type MemberInvitations,
  type InvitationMailAnswer,
} from './organizations/member-invitations.js';

export { signBillingPayload } from './billing/billing-signature.js';
export { BillingLedger } from './billing/billing-ledger.service.js';
export { billingStream } from '#domain';
export { BillingEffects, organizationEventId } from './billing/billing-effects.js';

export { stateQuery } from './audit/audit-requests.js';
export { GetOrganizationStateQuery } from './audit/get-organization-state.query.js';
export { historyEvent, type HistoryEvent } from './audit/history-event.js';
export { HistoryExport } from './audit/history-export.js';
export { HistoryInWords } from './audit/history-in-words.js';
export { ActorNameLookup } from './audit/actor-name-lookup.js';
export { EXPORT_FORMATS, exportLine, type ExportFormat } from './audit/history-export-format.js';
export { TIMELINE_FIELDS, type TimelineEntry } from './audit/timeline-entry.js';
export { readOrganizationHistory } from './audit/organization-history.js';
export { organizationStateAt, type OrganizationStateAt } from './audit/organization-state-at.js';

// The API's reference (/docs), and the words of each route the route-diff test checks.
export {
  openApiDocument,
  openApiPath,
  routeKey,
  undocumentedRoutes,
  type OpenApiDocument,
} from './openapi/openapi-document.js';
export { Operation, type OperationText } from './http/operation.decorator.js';

export { DemoSeed, demoOrganizationId, demoOwnerEmail, type DemoSignIn } from './demo/demo-seed.service.js';
export { startUpBanner } from './start-up/start-up-banner.js';
export { webRoot } from './web/web-root.js';
export { SsoDomainVerification } from './sso/sso-domain-verification.js';
export { PersonalDataErasure, type ErasureResult } from './privacy/personal-data-erasure.js';
export { ERASURES_FILE, erasureRecords, erasuresFileOf, type ErasureRecord } from './privacy/erasure-records.js';
export { expiresAt, PersonalDataRetention } from './privacy/personal-data-retention.js';
export { PersonalDataExport, type PersonalDataCopy } from './privacy/personal-data-export.js';
export { webhookExample, webhookPayloadSchema, WEBHOOK_PAYLOADS } from './webhooks/webhook-payloads.js';
export { WEBHOOK_RUN } from './webhooks/endpoint-sender.js';
export { postgresOf, RESTORE_MARKER, restoreUnderWay } from './start-up/restore-under-way.js';
export { CheckpointRefusal, HistoryCheckpoints } from './history-proof/history-checkpoints.js';
