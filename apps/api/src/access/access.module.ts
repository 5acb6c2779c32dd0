import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OrganizationStreamsModule } from '../organizations/organization-streams.module.js';
import { ApiKeyResolver } from './api-keys/api-key.resolver.js';
import { ApiKeys } from './api-keys/api-keys.service.js';
import { PrincipalResolvers } from './principal-resolvers.service.js';

/**
 * Who may call what: principal resolution and API keys, for AccessGuard. The guard is put on each route
 * @RequireAccess marks, and made in the module of that route's controller: this module is global so
 * that what the guard needs (the resolvers, the organizations' store) is there in every module.
 */
@Global()
@Module({
  imports: [DiscoveryModule, OrganizationStreamsModule],
  providers: [ApiKeys, ApiKeyResolver, PrincipalResolvers],
  exports: [ApiKeys, PrincipalResolvers, OrganizationStreamsModule],
})
export class AccessModule {}
