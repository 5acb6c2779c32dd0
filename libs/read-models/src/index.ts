export {
  ReadModels,
  READ_MODELS,
  readModelProjections,
  type ProjectorMode,
  type ReadModelsOptions,
  type RebuildRequest,
  type StartOptions,
} from './read-models.js';
export type { ReadModelsLogger } from './read-models-logger.js';
export type { ProjectionHealth, ReadModelsHealth } from './health/read-models-health.js';
export type { ProjectionFailure, ProjectionState } from './checkpoints.js';
export type { ProjectionStatus } from './runner/projection-runner.js';
export type { ReplayProgress } from './rebuild/replay.js';
export type { RebuildResult } from './rebuild/rebuild-read-models.js';
export { MemoryReplay, type Drift, type TableCount, type Verification } from './rebuild/verify-read-models.js';
export { openReadModelDatabase, readModelsFile } from './read-model-database.js';
export { ReactionCheckpoints, type ReactionCheckpoint } from './reaction-checkpoints.js';
export {
  OrganizationQueries,
  sameOrganizationName,
  type CountedOrganization,
  type MemberCursor,
  type MembersPage,
  type Membership,
  type NotificationRecipients,
  type OrganizationOutline,
  type OrganizationReadModel,
  type OrganizationSummary,
} from './organization/organization.queries.js';
export { USAGE_ROWS_FROM_REVISION, usagePointAfter, type UsagePointRow } from './organization/organization-usage.js';
export { correlationProjection, correlationProjectionName } from './correlation/correlation.projection.js';
export { CorrelationQueries, type CorrelatedEventLocation } from './correlation/correlation.queries.js';
export { signInsProjection, signInsProjectionName } from './sign-ins/sign-ins.projection.js';
export { SignInQueries } from './sign-ins/sign-ins.queries.js';
export {
  organizationHistoryProjection,
  organizationHistoryProjectionName,
} from './organization-history/organization-history.projection.js';
export {
  MAX_LISTED_ACTORS,
  OrganizationHistoryQueries,
  type HistoryFilter,
  type HistoryIndexPage,
  type HistoryIndexPageRequest,
  type HistoryOrder,
  type IndexedOrganizationEvent,
  type RecordName,
} from './organization-history/organization-history.queries.js';
export {
  memberSecurityProjection,
  memberSecurityProjectionName,
} from './member-security/member-security.projection.js';
export { MemberSecurityQueries, type MemberSecurityEventLocation } from './member-security/member-security.queries.js';
