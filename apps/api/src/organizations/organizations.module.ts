import { Module } from '@nestjs/common';
import { DomainsController } from './domains.controller.js';
import { MembersController } from './members.controller.js';
import { OrganizationCommandHandlers } from './organization-command-handlers.js';
import { OrganizationDecider } from './organization-decider.service.js';
import { OrganizationsController } from './organizations.controller.js';
import { OrganizationsStoreModule } from './organizations-store.module.js';
import { SitesController } from './sites.controller.js';

/** The organization write side: the HTTP routes, one handler per command, and the decider they share. */
@Module({
  imports: [OrganizationsStoreModule],
  controllers: [OrganizationsController, MembersController, SitesController, DomainsController],
  providers: [OrganizationDecider, ...OrganizationCommandHandlers],
  exports: [OrganizationsStoreModule],
})
export class OrganizationsModule {}
