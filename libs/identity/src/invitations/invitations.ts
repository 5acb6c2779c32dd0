// Invitation links are derived from the MemberAdded they answer, so that one recorded but not yet mailed can be
// mailed again with the same link; only the hash is kept.
import type { TwoStepRequirement } from '../sign-in/password-sign-in.js';
import { handleCommand, loadStream, type CommandContext, type LoadedStream } from '#application';
import { type EventStore } from '#event-store';
import type { Clock } from '../clock.js';
import {
  DomainError,
  InvalidToken,
  invitationDecider,
  mailDuty,
  noInvitations,
  validInvitation,
  type InvitationCommand,
  type InvitationState,
  type PendingInvitation,
  type UndeliveredInvitation,
} from '#domain';
import type { IdentityLogger } from '../logger.js';
import { InvitationRecords } from './invitation-records.js';
import { invitationMail } from '../mail/invitation-mail.js';
import { isPermanentMailFailure, type Mailer } from '../mail/mailer.js';
import { membershipNoticeMail } from '../mail/membership-notice-mail.js';
import { passwordPolicyViolation } from '../passwords/password-policy.js';
import type { OpenedSession, Sessions } from '../sessions/sessions.js';
import { deriveUserToken, readUserToken } from '../tokens/user-token.js';
import { normalizeEmail } from '../user/identifiers.js';
import type { UserClaims } from '../user/user-claims.js';
import type { UserRegistration } from '../user/user-registration.js';
import type { Users } from '../user/users.js';

export type { UndeliveredInvitation } from '#domain';

export const invitationLifetimeMs = 7 * 24 * 3_600_000;

const hourMs = 3_600_000;

export type InvitationRequest = {
  /** The id reserved for the address. */
  userId: string;
  email: string;
  organizationId: string;
  organizationName: string;
  invitedBy?: string;
  /** However often it is handled, one MemberAdded gets one invitation (one link). */
  memberAddedEventId: string;
};

/**
 * resent: recorded but never marked mailed, mailed now with the same link; notified: the address already had an
 * account.
 */
export type InvitationOutcome = 'sent' | 'resent' | 'notified' | 'failed' | 'duplicate';

export { InvitationClaimedElsewhere, InvitationDelayed } from '#domain';

export type InvitationDetails = { email: string; organizationName: string; expiresAt: string };
/** Who the link is for and from where: for its caller to ask whether the membership it came with still stands. */
export type DescribedInvitation = InvitationDetails & { userId: string; organizationId: string };

export type InvitationOptions = {
  publicUrl: string;
  productName: string;
  /** This node's name, kept across restarts. */
  sender: string;
  /** How long a node's claim on a mail holds before another node takes it over. */
  mailClaimMs: number;
};

/** The one refusal of a link that cannot be used, whatever the reason: it tells nothing more. */
export const invalidInvitation = (): InvalidToken =>
  new InvalidToken('This invitation link is unknown, used or expired.');

export class Invitations {
  private readonly records: InvitationRecords;

  constructor(
    private readonly store: EventStore,
    private readonly users: Users,
    private readonly claims: UserClaims,
    private readonly registration: UserRegistration,
    private readonly sessions: Sessions,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly options: InvitationOptions,
    private readonly logger: IdentityLogger,
    /** HKDF-derived from SESSION_SECRET (purpose 'invitation-links'). */
    private readonly linkKey: Buffer,
  ) {
    this.records = new InvitationRecords(store);
  }

  /**
   * Safe to call again for the same MemberAdded on any node (reactions deliver at least once): one node at a
   * time holds the mail. Throws InvitationDelayed, InvitationClaimedElsewhere, and mail failures that may pass later.
   */
  async invite(request: InvitationRequest, context: CommandContext): Promise<InvitationOutcome> {
    const registered = (await this.users.load(request.userId)).state.status === 'registered';
    const { token, tokenHash } = deriveUserToken(request.userId, this.linkKey, request.memberAddedEventId);
    const { sender, mailClaimMs } = this.options;
    const { organizationId, organizationName, email, memberAddedEventId } = request;
    const now = this.clock.now();
    const command: InvitationCommand = {
      type: 'InviteMember',
      data: {
        organizationId,
        organizationName,
        email,
        memberAddedEventId,
        tokenHash,
        registered,
        sender,
        now,
        mailClaimMs,
        lifetimeMs: invitationLifetimeMs,
      },
    };
    // A person's first invitation is the usual case: decided on an empty stream without reading it.
    const known = { state: noInvitations(), revision: undefined, position: undefined };
    const handled = await this.records.record(request.userId, command, context, known);
    const recorded = handled.appended.find(
      (event) => event.type === 'InvitationSent' || event.type === 'MembershipNoticeSent',
    );
    const claimed = handled.appended.some((event) => event.type === 'InvitationMailClaimed');
    const stillOwed = handled.state.owed.find((candidate) => candidate.memberAddedEventId === memberAddedEventId);
    const holding =
      recorded === undefined &&
      !claimed &&
      stillOwed !== undefined &&
      mailDuty(stillOwed, sender, now, mailClaimMs).kind === 'send';
    if (recorded === undefined && !claimed && !holding) return 'duplicate';
    const owed = handled.state.owed.find((candidate) => candidate.memberAddedEventId === request.memberAddedEventId);
    // A claim mails the link recorded with the invitation (the same MemberAdded derives the same token).
    if (owed === undefined || owed.tokenHash !== tokenHash) return 'duplicate';
    const outcome: InvitationOutcome = recorded === undefined ? 'resent' : owed.notice ? 'notified' : 'sent';
    const details = {
      to: request.email,
      productName: this.options.productName,
      organizationName: request.organizationName,
      invitedBy: request.invitedBy,
    };
    try {
      await this.mailer.send(
        owed.notice
          ? membershipNoticeMail({ ...details, link: `${this.options.publicUrl}/login` })
          : invitationMail({
              ...details,
              link: `${this.options.publicUrl}/invite/${token}`,
              validDays: invitationLifetimeMs / (24 * hourMs),
            }),
      );
    } catch (error) {
      if (!isPermanentMailFailure(error)) throw error;
      await this.recordFailed(tokenHash, request, error, handled, context);
      return 'failed';
    }
    await this.recordMailed(request.userId, tokenHash, request.organizationId, handled, context);
    return outcome;
  }

  private async recordFailed(
    tokenHash: string,
    request: InvitationRequest,
    error: unknown,
    known: LoadedStream<InvitationState>,
    context: CommandContext,
  ): Promise<void> {
    const { responseCode } = error as { responseCode?: unknown };
    const failed: InvitationCommand = {
      type: 'RecordInvitationFailed',
      data: {
        tokenHash,
        organizationId: request.organizationId,
        email: request.email,
        ...(typeof responseCode === 'number'
          ? { reason: 'mail_server_refused', responseCode }
          : { reason: 'address_refused' }),
        at: this.clock.now().toISOString(),
      },
    };
    const about = {
      userId: request.userId,
      organizationId: request.organizationId,
      correlationId: context.correlationId,
    };
    this.logger.warn({ ...about, err: error }, 'Invitation mail refused for good: not sent');
    await this.records.record(request.userId, failed, context, known);
  }

  private async recordMailed(
    userId: string,
    tokenHash: string,
    organizationId: string,
    known: LoadedStream<InvitationState>,
    context: CommandContext,
  ): Promise<void> {
    const mailed: InvitationCommand = {
      type: 'RecordInvitationMailed',
      data: { tokenHash, at: this.clock.now().toISOString(), organizationId },
    };
    await this.records.record(userId, mailed, context, known);
  }

  /** Those whose last mail from this organization was refused for good (and none went out since). */
  async undelivered(
    organizationId: string,
    userIds: readonly string[],
  ): Promise<Array<UndeliveredInvitation & { userId: string }>> {
    const load = async (userId: string) => ({
      userId,
      state: (await loadStream(this.store, invitationDecider, userId)).state,
    });
    const people = await Promise.all(userIds.map(load));
    const ours = (failure: UndeliveredInvitation) => failure.organizationId === organizationId;
    return people.flatMap(({ userId, state }) =>
      state.failures.filter(ours).map((failure) => ({ userId, ...failure })),
    );
  }

  async describe(token: string): Promise<DescribedInvitation> {
    const { userId, invitation } = await this.usable(token);
    const { email, organizationName, expiresAt, organizationId } = invitation;
    return { email, organizationName, expiresAt, userId, organizationId };
  }

  /** Single use: the user's stream can be created once, so of two simultaneous uses one is INVALID_TOKEN. */
  async accept(
    token: string,
    password: string,
    context: CommandContext,
    twoStepRequired?: TwoStepRequirement,
  ): Promise<OpenedSession> {
    const { userId, tokenHash, invitation } = await this.usable(token);
    const violation = passwordPolicyViolation(password, { email: normalizeEmail(invitation.email), username: null });
    if (violation !== null) throw new DomainError('VALIDATION_FAILED', violation, { field: 'password' });
    const asInvitee: CommandContext = { ...context, actor: `user:${userId}` };
    try {
      const registered = await this.registration.register({ email: invitation.email, password }, asInvitee);
      if (registered.userId !== userId) throw new Error(`An invitation for ${userId} registered ${registered.userId}`);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'DUPLICATE') throw invalidInvitation();
      throw error;
    }
    const accepted: InvitationCommand = {
      type: 'AcceptInvitation',
      data: { tokenHash, organizationId: invitation.organizationId, at: this.clock.now().toISOString() },
    };
    await handleCommand(this.store, invitationDecider, userId, accepted, asInvitee);
    const mustEnrol = (await twoStepRequired?.(userId)) === true;
    return this.sessions.open(userId, 'invitation', asInvitee, mustEnrol ? 'enrolment' : undefined);
  }

  private async usable(token: string): Promise<{ userId: string; tokenHash: string; invitation: PendingInvitation }> {
    const read = readUserToken(token);
    if (read === undefined) throw invalidInvitation();
    const { state } = await loadStream(this.store, invitationDecider, read.userId);
    const invitation = validInvitation(state, read.tokenHash, this.clock.now());
    if (invitation === undefined) throw invalidInvitation();
    if ((await this.users.load(read.userId)).state.status === 'registered') throw invalidInvitation();
    // The address must still lead to this person, or the password would go to someone else's account.
    if ((await this.claims.find('email', normalizeEmail(invitation.email))) !== read.userId) throw invalidInvitation();
    return { userId: read.userId, tokenHash: read.tokenHash, invitation };
  }
}
