// MEMBER_INVITATIONS for the organization routes: the identity lib's invitations, with the organization's
// name from its own stream and the inviting person's address. A mail that cannot be sent does not undo the
// membership: it is logged, and the answer says so.
import type { FactoryProvider } from '@nestjs/common';
import type { Logger } from 'pino';
import type { Identity } from '#identity';
import { PINO } from '../logging/pino.js';
import { MEMBER_INVITATIONS, type MemberInvitations } from '../organizations/member-invitations.js';
import { Organizations } from '../organizations/organizations.js';
import { IDENTITY } from './identity.provider.js';

export const memberInvitationsProvider: FactoryProvider<MemberInvitations> = {
  provide: MEMBER_INVITATIONS,
  inject: [IDENTITY, Organizations, PINO],
  useFactory: (identity: Identity, organizations: Organizations, logger: Logger): MemberInvitations => ({
    async invite({ organizationId, userId, email }, context) {
      const { actor, correlationId } = context;
      try {
        const { state } = await organizations.load(organizationId);
        const organizationName = state.exists ? state.name : organizationId;
        const invitedBy = actor.startsWith('user:') ? (await identity.directory.profile(actor.slice('user:'.length)))?.email : undefined;
        return await identity.invitations.invite({ userId, email, organizationId, organizationName, ...(invitedBy === undefined ? {} : { invitedBy }) }, context);
      } catch (error) {
        logger.error({ err: error, correlationId, organizationId, userId }, 'invitation mail not sent');
        return 'failed';
      }
    },
  }),
};
