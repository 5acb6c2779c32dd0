import { AddMemberHandler } from './commands/add-member.handler.js';
import { AddQualityAssuranceDomainHandler } from './commands/add-quality-assurance-domain.handler.js';
import { AddSiteHandler } from './commands/add-site.handler.js';
import { AddWebAnalyticsDomainHandler } from './commands/add-web-analytics-domain.handler.js';
import { AssignPlanHandler } from './commands/assign-plan.handler.js';
import { CancelAddOnHandler } from './commands/cancel-add-on.handler.js';
import { ConfigureLimitsHandler } from './commands/configure-limits.handler.js';
import { CreateOrganizationHandler } from './commands/create-organization.handler.js';
import { DisableChorusHandler } from './commands/disable-chorus.handler.js';
import { EnableChorusHandler } from './commands/enable-chorus.handler.js';
import { PurchaseAddOnHandler } from './commands/purchase-add-on.handler.js';
import { RemoveMemberHandler } from './commands/remove-member.handler.js';
import { RemoveQualityAssuranceDomainHandler } from './commands/remove-quality-assurance-domain.handler.js';
import { RemoveSiteHandler } from './commands/remove-site.handler.js';
import { RemoveWebAnalyticsDomainHandler } from './commands/remove-web-analytics-domain.handler.js';

/** One thin handler per organization command of DOMAIN.md; each goes through OrganizationDecider. */
export const OrganizationCommandHandlers = [
  CreateOrganizationHandler,
  AssignPlanHandler,
  PurchaseAddOnHandler,
  CancelAddOnHandler,
  EnableChorusHandler,
  DisableChorusHandler,
  ConfigureLimitsHandler,
  AddMemberHandler,
  RemoveMemberHandler,
  AddSiteHandler,
  RemoveSiteHandler,
  AddQualityAssuranceDomainHandler,
  RemoveQualityAssuranceDomainHandler,
  AddWebAnalyticsDomainHandler,
  RemoveWebAnalyticsDomainHandler,
];
