// Invitations (docs/console.md, Members): a member added by an address nobody has registered with is mailed
// a single-use link `/invite/<token>`, valid 7 days. The page asks for a password under the reset's
// policy, registers the person under the id reserved for their address (so every membership given to
// it is theirs) and signs them in. The token is the reserved id and 256 bits derived from the MemberAdded
// it answers (deriveUserToken: an HMAC under a key from SESSION_SECRET), so that an invitation recorded
// but not yet mailed can be mailed again with the same link; only its hash is kept.
import type { TwoStepRequirement } from '../sign-in/password-sign-in.js';
import { eventMetadata, handleCommand, loadStream, type CommandContext, type LoadedStream, type StreamFold } from '#application';
import { type EventStore } from '#event-store';
import type { Clock } from '../clock.js';
import { DomainError, InvalidToken, invitationStream, type InvitationEvent, evolveInvitations, mailDuty, nextMailAllowedAt, noInvitations, validInvitation, type InvitationState, type PendingInvitation, type UndeliveredInvitation } from '#domain';
import type { IdentityLogger } from '../logger.js';
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

const invitationFold: StreamFold<InvitationState, InvitationEvent> = { initialState: noInvitations(), evolve: evolveInvitations };

export const invitationLifetimeMs = 7 * 24 * 3_600_000;

const hourMs = 3_600_000;

export type InvitationRequest = {
  /** The id USER_DIRECTORY gave the member: the one reserved for the address. */
  userId: string;
  email: string;
  organizationId: string;
  organizationName: string;
  /** The address of the person who added the member, if a person did. */
  invitedBy?: string;
  /** The MemberAdded this answers: however often it is handled, it gets one invitation (one link). */
  memberAddedEventId: string;
};

/**
 * sent: mailed now; resent: an invitation recorded but not marked mailed (its sender stopped, or this
 * sender tries again) mailed now, with the same link; notified: the address already has an account, and was
 * told it was added; failed: the mail was refused for good (InvitationFailed, not tried again); duplicate:
 * this MemberAdded's mail was handled already.
 */
export type InvitationOutcome = 'sent' | 'resent' | 'notified' | 'failed' | 'duplicate';

/** This organization has mailed this person as often as an hour allows: nothing recorded, ask again at `until`. */
export class InvitationDelayed extends Error {
  constructor(readonly until: Date) {
    super(`Too many mails from this organization to this person this hour: not before ${until.toISOString()}`);
  }
}

/** Another node claimed this mail and may be sending it: nothing recorded, ask again at `until` (it is then done, or the claim ran out). */
export class InvitationClaimedElsewhere extends Error {
  constructor(
    readonly sender: string,
    readonly until: Date,
  ) {
    super(`Another node (${sender}) is mailing this invitation: ask again at ${until.toISOString()}`);
  }
}

export type InvitationDetails = { email: string; organizationName: string; expiresAt: string };

export type InvitationOptions = {
  publicUrl: string;
  productName: string;
  /** This node's name in the invitations it records and mails (kept across restarts: loadNodeName). */
  sender: string;
  /** How long a node's claim on a mail holds before another node takes it over (MAIL_CLAIM_SECONDS). */
  mailClaimMs: number;
};

/** Recorded and neither mailed nor failed yet: the one outcome still to record. */
const unsettled = (state: InvitationState, tokenHash: string): boolean =>
  state.owed.some((owed) => owed.tokenHash === tokenHash && !owed.mailed && !owed.failed);

const invalidInvitation = () => new InvalidToken('This invitation link is unknown, used or expired.');

export class Invitations {
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
    /** HKDF-derived from SESSION_SECRET (purpose 'invitation-links'): a link is HMAC(key, MemberAdded id), so it can be mailed again. */
    private readonly linkKey: Buffer,
  ) {}

  /**
   * Mails a member added by an address: an invitation when it has no account yet (InvitationSent, the
   * link's hash, at most once per MemberAdded), a notice that they were added when it has one
   * (MembershipNoticeSent); then records InvitationMailed, or InvitationFailed when the mail is refused
   * for good. Safe to call again for the same MemberAdded, on any node (a reaction delivers at least once):
   * one node at a time holds the mail (the recording names it; mailDuty), and mails again only what its
   * holder left unmailed: this node's own (claimed anew once half its claim has gone), or another's whose
   * claim ran out (InvitationMailClaimed first).
   * Throws InvitationDelayed over the organization's hourly limit for this person, InvitationClaimedElsewhere
   * while another node holds it, and what a mail that may pass later failed with.
   */
  async invite(request: InvitationRequest, context: CommandContext): Promise<InvitationOutcome> {
    const registered = (await this.users.load(request.userId)).state.status === 'registered';
    const { token, tokenHash } = deriveUserToken(request.userId, this.linkKey, request.memberAddedEventId);
    const stream = invitationStream(request.userId);
    const { sender, mailClaimMs } = this.options;
    let verdict = { kind: 'settled' } as { kind: 'record' | 'claim' | 'send' | 'settled' } | { kind: 'delayed' | 'theirs'; until: Date; sender?: string };
    const handled = await handleCommand(
      this.store,
      stream,
      (state): InvitationEvent[] => {
        const now = this.clock.now();
        const at = now.toISOString();
        const owed = state.owed.find((candidate) => candidate.memberAddedEventId === request.memberAddedEventId);
        if (owed !== undefined) {
          const duty = mailDuty(owed, sender, now, mailClaimMs);
          verdict = duty.kind === 'theirs' ? { ...duty, sender: owed.sender ?? 'unnamed' } : duty;
          return duty.kind === 'claim' ? [{ type: 'InvitationMailClaimed', data: { tokenHash: owed.tokenHash, sender, at } }] : [];
        }
        const allowedAt = nextMailAllowedAt(state, request.organizationId, now);
        if (allowedAt > now) {
          verdict = { kind: 'delayed', until: allowedAt };
          return [];
        }
        verdict = { kind: 'record' };
        const { organizationId, organizationName, email, memberAddedEventId } = request;
        if (registered) return [{ type: 'MembershipNoticeSent', data: { organizationId, organizationName, email, tokenHash, at, memberAddedEventId, sender } }];
        const expiresAt = new Date(now.getTime() + invitationLifetimeMs).toISOString();
        return [{ type: 'InvitationSent', data: { organizationId, organizationName, email, tokenHash, expiresAt, at, memberAddedEventId, sender } }];
      },
      // A person's first invitation is the usual case: decided on an empty stream without reading it; a
      // stream that exists fails that append and is read and decided on as usual.
      { ...invitationFold, metadata: eventMetadata(context), known: { state: noInvitations(), revision: undefined, position: undefined } },
    );
    const decided = verdict;
    if (decided.kind === 'delayed') throw new InvitationDelayed(decided.until);
    if (decided.kind === 'theirs') throw new InvitationClaimedElsewhere(decided.sender ?? 'unnamed', decided.until);
    if (decided.kind === 'settled') return 'duplicate';
    const owed = handled.state.owed.find((candidate) => candidate.memberAddedEventId === request.memberAddedEventId);
    // A claim mails the link recorded with the invitation (the same MemberAdded derives the same token).
    if (owed === undefined || owed.tokenHash !== tokenHash) return 'duplicate';
    const outcome: InvitationOutcome = decided.kind !== 'record' ? 'resent' : owed.notice ? 'notified' : 'sent';
    const details = { to: request.email, productName: this.options.productName, organizationName: request.organizationName, invitedBy: request.invitedBy };
    try {
      await this.mailer.send(
        owed.notice
          ? membershipNoticeMail({ ...details, link: `${this.options.publicUrl}/login` })
          : invitationMail({ ...details, link: `${this.options.publicUrl}/invite/${token}`, validDays: invitationLifetimeMs / (24 * hourMs) }),
      );
    } catch (error) {
      if (!isPermanentMailFailure(error)) throw error;
      await this.recordFailed(stream, tokenHash, request, error, handled, context);
      return 'failed';
    }
    await this.recordMailed(stream, tokenHash, request.organizationId, handled, context);
    return outcome;
  }

  private async recordFailed(
    stream: string,
    tokenHash: string,
    request: InvitationRequest,
    error: unknown,
    known: LoadedStream<InvitationState>,
    context: CommandContext,
  ): Promise<void> {
    const { responseCode } = error as { responseCode?: unknown };
    const failed: InvitationEvent = {
      type: 'InvitationFailed',
      data: {
        tokenHash,
        organizationId: request.organizationId,
        email: request.email,
        ...(typeof responseCode === 'number' ? { reason: 'mail_server_refused', responseCode } : { reason: 'address_refused' }),
        at: this.clock.now().toISOString(),
      },
    };
    const about = { userId: request.userId, organizationId: request.organizationId, correlationId: context.correlationId };
    this.logger.warn({ ...about, err: error }, 'Invitation mail refused for good: not sent');
    await handleCommand(this.store, stream, (state): InvitationEvent[] => (unsettled(state, tokenHash) ? [failed] : []), {
      ...invitationFold,
      metadata: eventMetadata(context),
      known: { state: known.state, revision: known.revision, position: known.position },
    });
  }

  /**
   * InvitationMailed, decided on the stream as the invitation's own command left it: one append and no
   * read when nothing came after it (handleCommand's `known`; a stream moved on meanwhile is read again).
   */
  private async recordMailed(
    stream: string,
    tokenHash: string,
    organizationId: string,
    known: LoadedStream<InvitationState>,
    context: CommandContext,
  ): Promise<void> {
    const mailed: InvitationEvent = { type: 'InvitationMailed', data: { tokenHash, at: this.clock.now().toISOString(), organizationId } };
    await handleCommand(this.store, stream, (state): InvitationEvent[] => (unsettled(state, tokenHash) ? [mailed] : []), {
      ...invitationFold,
      metadata: eventMetadata(context),
      known: { state: known.state, revision: known.revision, position: known.position },
    });
  }

  /** Of these people, those whose last mail from this organization was refused for good (and none went out since). */
  async undelivered(organizationId: string, userIds: readonly string[]): Promise<Array<UndeliveredInvitation & { userId: string }>> {
    const load = async (userId: string) => ({ userId, state: (await loadStream(this.store, invitationStream(userId), invitationFold)).state });
    const people = await Promise.all(userIds.map(load));
    const ours = (failure: UndeliveredInvitation) => failure.organizationId === organizationId;
    return people.flatMap(({ userId, state }) => state.failures.filter(ours).map((failure) => ({ userId, ...failure })));
  }

  /** What the invitation page shows before the person chooses a password; INVALID_TOKEN otherwise. */
  async describe(token: string): Promise<InvitationDetails> {
    const { invitation } = await this.usable(token);
    return { email: invitation.email, organizationName: invitation.organizationName, expiresAt: invitation.expiresAt };
  }

  /**
   * Registers the invited person with this password and opens their first session. Single use: the
   * user's stream can be created once, so of two simultaneous uses one registers and the other is
   * INVALID_TOKEN, like a link used before or past its 7 days.
   */
  /** `twoStepRequired`: an organization of the person requires two-step sign-in, so the session opens half open, to set a factor up. */
  async accept(token: string, password: string, context: CommandContext, twoStepRequired?: TwoStepRequirement): Promise<OpenedSession> {
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
    const accepted: InvitationEvent = {
      type: 'InvitationAccepted',
      data: { tokenHash, organizationId: invitation.organizationId, at: this.clock.now().toISOString() },
    };
    await handleCommand(this.store, invitationStream(userId), (state): InvitationEvent[] => (state.accepted ? [] : [accepted]), {
      ...invitationFold,
      metadata: eventMetadata(asInvitee),
    });
    const mustEnrol = twoStepRequired?.(userId) === true;
    return this.sessions.open(userId, 'invitation', asInvitee, mustEnrol ? 'enrolment' : undefined);
  }

  private async usable(token: string): Promise<{ userId: string; tokenHash: string; invitation: PendingInvitation }> {
    const read = readUserToken(token);
    if (read === undefined) throw invalidInvitation();
    const { state } = await loadStream(this.store, invitationStream(read.userId), invitationFold);
    const invitation = validInvitation(state, read.tokenHash, this.clock.now());
    if (invitation === undefined) throw invalidInvitation();
    // Registered meanwhile (another invitation, Google): the link has done its work.
    if ((await this.users.load(read.userId)).state.status === 'registered') throw invalidInvitation();
    // The address must still lead to this person, or the password would go to someone else's account.
    if ((await this.claims.find('email', normalizeEmail(invitation.email))) !== read.userId) throw invalidInvitation();
    return { userId: read.userId, tokenHash: read.tokenHash, invitation };
  }
}
