import { Module } from '@nestjs/common';
import { ErrorAnswers } from '../http/error-answers.js';
import { organizationRefusals } from './organization-refusal-answers.js';
import { AddMemberHandler } from './add-member.handler.js';
import { AddSiteHandler } from './add-site.handler.js';
import { ChangeOrganizationHandler } from './change-organization.handler.js';
import { CreateOrganizationHandler } from './create-organization.handler.js';
import { DomainsController } from './domains.controller.js';
import { MembersController } from './members.controller.js';
import { OrganizationsController } from './organizations.controller.js';
import { OrganizationStreamsModule } from './organization-streams.module.js';
import { SitesController } from './sites.controller.js';

/**
 * The organization write side: the HTTP routes and the command handlers. One handler carries any domain
 * command; the others choose (a new organization's or site's id) or resolve (a member's user id) an id first.
 */
@Module({
  imports: [OrganizationStreamsModule],
  controllers: [OrganizationsController, MembersController, SitesController, DomainsController],
  providers: [ChangeOrganizationHandler, CreateOrganizationHandler, AddMemberHandler, AddSiteHandler],
  exports: [OrganizationStreamsModule],
})
export class OrganizationsModule {
  constructor(answers: ErrorAnswers) {
    answers.registerRefusals(organizationRefusals);
  }
}
