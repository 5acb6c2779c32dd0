import { MemberSecurity } from './member-security.js';
import { Module } from '@nestjs/common';
import { AuditCorrelationsController } from './audit-correlations.controller.js';
import { GetCorrelationHandler } from './get-correlation.handler.js';
import { GetOrganizationHistoryHandler } from './get-organization-history.handler.js';
import { GetOrganizationStateHandler } from './get-organization-state.handler.js';
import { OrganizationAuditController } from './organization-audit.controller.js';
import { ActorNameLookup } from './actor-name-lookup.js';
import { ApiKeyNames } from './api-key-names.js';
import { DirectoryModule } from '../directory/directory.module.js';
import { HistoryProofModule } from '../history-proof/history-proof.module.js';
import { HistoryExport } from './history-export.js';
import { OrganizationHistoryController } from './organization-history.controller.js';
import { OrganizationTimeline } from './organization-timeline.js';

/**
 * Auditors' reads: an organization's history, its state at any point, correlations across organizations,
 * and the audit explorer's timeline, changes, usage over time and exports.
 */
@Module({
  imports: [DirectoryModule, HistoryProofModule],
  controllers: [OrganizationAuditController, AuditCorrelationsController, OrganizationHistoryController],
  providers: [
    GetOrganizationHistoryHandler,
    GetOrganizationStateHandler,
    GetCorrelationHandler,
    ApiKeyNames,
    ActorNameLookup,
    OrganizationTimeline,
    HistoryExport,
    MemberSecurity,
  ],
  exports: [HistoryExport],
})
export class AuditModule {}
