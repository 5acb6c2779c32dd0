import { Module } from '@nestjs/common';
import { AuditCorrelationsController } from './audit-correlations.controller.js';
import { GetCorrelationHandler } from './get-correlation.handler.js';
import { GetOrganizationHistoryHandler } from './get-organization-history.handler.js';
import { GetOrganizationStateHandler } from './get-organization-state.handler.js';
import { OrganizationAuditController } from './organization-audit.controller.js';

/** Auditors' reads: an organization's history, its state at any point, and correlations across organizations. */
@Module({
  controllers: [OrganizationAuditController, AuditCorrelationsController],
  providers: [
    GetOrganizationHistoryHandler,
    GetOrganizationStateHandler,
    GetCorrelationHandler,
  ],
})
export class AuditModule {}
