import { Global, Module } from '@nestjs/common';
import { ORGANIZATION_ROLES, type OrganizationRoles } from '../access/organization-roles.js';
import { OrganizationStateCache } from './organizations.service.js';
import { Organizations } from './organizations.service.js';

export const organizationRoles = (organizations: Organizations): OrganizationRoles => ({
  exists: async (organizationId) => (await organizations.load(organizationId)).state.exists,
  roleOf: async (organizationId, userId) => {
    const { state } = await organizations.load(organizationId);
    return state.exists ? state.members.get(userId)?.role : undefined;
  },
});

/**
 * Organizations as folded from their streams, through one state cache per process; and what access asks of them,
 * everywhere.
 */
@Global()
@Module({
  providers: [
    { provide: OrganizationStateCache, useFactory: () => new OrganizationStateCache() },
    Organizations,
    { provide: ORGANIZATION_ROLES, inject: [Organizations], useFactory: organizationRoles },
  ],
  exports: [Organizations, ORGANIZATION_ROLES],
})
export class OrganizationStreamsModule {}
