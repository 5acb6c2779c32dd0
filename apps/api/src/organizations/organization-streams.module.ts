import { Module } from '@nestjs/common';
import { OrganizationStateCache } from './organizations.js';
import { Organizations } from './organizations.js';

/** Organizations as folded from their streams, through one state cache per process. */
@Module({
  providers: [{ provide: OrganizationStateCache, useFactory: () => new OrganizationStateCache() }, Organizations],
  exports: [Organizations],
})
export class OrganizationStreamsModule {}
