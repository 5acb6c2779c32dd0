import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ApiKeyResolver } from './api-keys/api-key.resolver.js';
import { ApiKeys } from './api-keys/api-keys.service.js';
import { PrincipalResolvers } from './principal-resolvers.service.js';

/**
 * Who may call what: principal resolution and API keys, for AccessGuard. The guard is put on each route
 * @RequireAccess marks, and made in the module of that route's controller: this module is global so
 * that what the guard needs (the resolvers; ORGANIZATION_ROLES comes from the organizations' own global module) is
 * there in every module.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [ApiKeys, ApiKeyResolver, PrincipalResolvers],
  exports: [ApiKeys, PrincipalResolvers],
})
export class AccessModule {}
