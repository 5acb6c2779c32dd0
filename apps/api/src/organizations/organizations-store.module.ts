import { Module } from '@nestjs/common';
import { OrganizationRepository } from './organization-repository.js';
import { OrganizationStateCache } from './organization-state-cache.js';

/** Organizations as folded from their streams, through one state cache per process. */
@Module({
  providers: [{ provide: OrganizationStateCache, useFactory: () => new OrganizationStateCache() }, OrganizationRepository],
  exports: [OrganizationRepository],
})
export class OrganizationsStoreModule {}
