import { Module } from '@nestjs/common';
import { ErrorAnswers } from '../http/error-answers.js';
import { answerOfrepErrors } from './ofrep-error.js';
import { ChangeStreams } from './change-streams.js';
import { CredentialEnds } from './credential-ends.js';
import { EntitlementCallers } from './entitlement-callers.js';
import { EntitlementChanges } from './entitlement-changes.js';
import { EntitlementsController } from './entitlements.controller.js';
import { OfrepController } from './ofrep.controller.js';
import { OrganizationEntitlements } from './organization-entitlements.js';
import { UsageController } from './usage.controller.js';
import { UsageReports } from './usage-reports.js';

/** Entitlements for the product's own services: OFREP evaluation and pushed changes (docs/entitlements.md). */
@Module({
  controllers: [OfrepController, EntitlementsController, UsageController],
  providers: [
    EntitlementCallers,
    OrganizationEntitlements,
    EntitlementChanges,
    CredentialEnds,
    ChangeStreams,
    UsageReports,
  ],
  exports: [EntitlementCallers, OrganizationEntitlements, CredentialEnds],
})
export class EntitlementsModule {
  constructor(answers: ErrorAnswers) {
    answers.registerProtocol(answerOfrepErrors);
  }
}
