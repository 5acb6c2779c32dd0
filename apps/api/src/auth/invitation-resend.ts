// "Resend invitation" (docs/console.md, Members): a pending member's invitation mailed again now, inside the
// request, so the answer can say whether it went. Each resend gets its own link (derived from a fresh id,
// as the reaction's is from the MemberAdded's); the earlier links stay valid until used or expired.
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, refuseUnlessAllowed, type OrganizationCommand } from '#domain';
import type { CommandContext } from '#application';
import { InvitationDelayed, type Identity } from '#identity';
import { ProblemError } from '../http/problem-error.js';
import type { CommandResult } from '../organizations/command-result.js';
import type { InvitationResend } from '../organizations/member-invitations.js';
import { Organizations, requesterOf } from '../organizations/organizations.service.js';
import { IDENTITY } from './identity.provider.js';

@Injectable()
export class MemberInvitationResend implements InvitationResend {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly organizations: Organizations,
  ) {}

  async resend(organizationId: string, userId: string, context: CommandContext): Promise<CommandResult> {
    const command: OrganizationCommand = { type: 'ResendInvitation', data: { userId } };
    // Before any mail: the roles rule (an admin and an owner's invitation: 403), and a member of this organization only
    // (404).
    const loaded = await this.organizations.load(organizationId);
    if (!loaded.state.exists)
      throw new DomainError('NOT_FOUND', `Organization ${organizationId} does not exist.`, { entity: 'organization' });
    refuseUnlessAllowed(command, loaded.state, requesterOf(context));
    const member = loaded.state.members.get(userId);
    if (member === undefined)
      throw new DomainError('NOT_FOUND', `User ${userId} is not a member.`, { entity: 'member', userId });
    // Someone who signed up has no invitation to wait for (the mailer would send them a notice instead).
    if ((await this.identity.directory.profile(userId)) !== undefined) {
      const detail = `${member.email} has an account already: there is no invitation to send.`;
      throw new ProblemError(409, 'ALREADY_REGISTERED', 'Already signed up', detail, { userId });
    }
    const invitedBy = context.actor.startsWith('user:')
      ? (await this.identity.directory.profile(context.actor.slice('user:'.length)))?.email
      : undefined;
    const request = {
      userId,
      email: member.email,
      organizationId,
      organizationName: loaded.state.name,
      memberAddedEventId: randomUUID(),
    };
    try {
      const outcome = await this.identity.invitations.invite(
        { ...request, ...(invitedBy === undefined ? {} : { invitedBy }) },
        context,
      );
      if (outcome === 'failed') {
        const detail = `The mail to ${member.email} was refused for good: check the address, remove them and add the right one.`;
        throw new ProblemError(422, 'INVITATION_UNDELIVERABLE', 'The invitation could not be delivered', detail, {
          userId,
        });
      }
    } catch (error) {
      // The invitations' own limit (a few mails from one organization to one person an hour): no mail bombing through
      // resends.
      if (!(error instanceof InvitationDelayed)) throw error;
      throw new ProblemError(
        429,
        'RATE_LIMITED',
        'Too many requests',
        `${member.email} was sent enough invitations this hour: try again later.`,
        {
          retryAfter: error.until.toISOString(),
        },
      );
    }
    // Recorded once the mail went: the organization's history says who had it sent again, and when.
    return this.organizations.handle(organizationId, command, context, { known: loaded });
  }
}
