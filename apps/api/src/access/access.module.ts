import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { OrganizationsStoreModule } from '../organizations/organizations-store.module.js';
import { AccessGuard } from './access.guard.js';
import { ApiKeyResolver } from './api-keys/api-key.resolver.js';
import { ApiKeys } from './api-keys/api-keys.service.js';
import { PrincipalResolvers } from './principal-resolvers.service.js';

/** Who may call what: the global AccessGuard, principal resolution, and API keys. */
@Module({
  imports: [DiscoveryModule, OrganizationsStoreModule],
  providers: [ApiKeys, ApiKeyResolver, PrincipalResolvers, { provide: APP_GUARD, useClass: AccessGuard }],
  exports: [ApiKeys, PrincipalResolvers],
})
export class AccessModule {}
