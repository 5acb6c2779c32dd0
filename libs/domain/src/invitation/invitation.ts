// One person's invitations, folded from their stream.
import { mailClaimDuty, type MailDuty } from '../mail/mail-claim.js';
import type { InvitationEvent, InvitationFailureReason } from './invitation-events.js';

export type PendingInvitation = { tokenHash: string; organizationId: string; organizationName: string; email: string; expiresAt: string };

export type InvitationState = {
  /** Links sent and not yet used; an accepted invitation spends them all (the person is registered then). */
  pending: PendingInvitation[];
  /** When mails were sent, and for which organization (the newest few), for the per-organization limit. */
  sent: Array<{ at: string; organizationId: string }>;
  accepted: boolean;
  /** The newest invitations that answer a MemberAdded, by its id, and whether their mail went out. */
  owed: OwedInvitation[];
  /** Per organization, its last mail to this person that was refused for good, until one of its mails goes out. */
  failures: UndeliveredInvitation[];
};

/** A mail refused for good (InvitationFailed), as the organization's owners and admins see it. */
export type UndeliveredInvitation = { organizationId: string; email: string; reason: InvitationFailureReason; responseCode?: number; at: string };

/**
 * notice: a registered person told they were added (MembershipNoticeSent), not an invitation with a link;
 * sender and claimedAt: the node mailing it now, since when (the recording, or its last InvitationMailClaimed).
 */
export type OwedInvitation = {
  memberAddedEventId: string;
  tokenHash: string;
  at: string;
  mailed: boolean;
  failed: boolean;
  notice: boolean;
  sender: string | undefined;
  claimedAt: string;
};

/** Owed invitations (and mails sent) a state remembers: far more than a replay after a restart goes back over. */
const rememberedOwed = 50;

export const noInvitations = (): InvitationState => ({ pending: [], sent: [], accepted: false, owed: [], failures: [] });

/**
 * Mails one person may receive per hour from one organization (adding and removing them again): more
 * wait for the hour to pass. Counted per organization, so that one organization's churn never delays another's.
 */
export const invitationMailsPerHourPerOrganization = 3;

const hourMs = 3_600_000;

/** When this organization may next mail this person (now or later), by invitationMailsPerHourPerOrganization. */
export function nextMailAllowedAt(state: InvitationState, organizationId: string, now: Date): Date {
  const recent = state.sent.filter((sent) => sent.organizationId === organizationId && now.getTime() - new Date(sent.at).getTime() < hourMs);
  if (recent.length < invitationMailsPerHourPerOrganization) return now;
  const oldest = recent[recent.length - invitationMailsPerHourPerOrganization];
  return new Date(new Date(oldest?.at ?? now).getTime() + hourMs);
}

export function evolveInvitations(state: InvitationState, event: InvitationEvent): InvitationState {
  switch (event.type) {
    case 'InvitationSent': {
      const { tokenHash, organizationId, organizationName, email, expiresAt, at, memberAddedEventId, sender } = event.data;
      return {
        ...state,
        pending: [
          ...state.pending.filter((invitation) => new Date(invitation.expiresAt).getTime() > new Date(at).getTime()),
          { tokenHash, organizationId, organizationName, email, expiresAt },
        ],
        sent: [...state.sent, { at, organizationId }].slice(-rememberedOwed),
        owed:
          memberAddedEventId === undefined
            ? state.owed
            : [...state.owed, { memberAddedEventId, tokenHash, at, mailed: false, failed: false, notice: false, sender, claimedAt: at }].slice(-rememberedOwed),
      };
    }
    case 'MembershipNoticeSent': {
      const { tokenHash, organizationId, at, memberAddedEventId, sender } = event.data;
      return {
        ...state,
        sent: [...state.sent, { at, organizationId }].slice(-rememberedOwed),
        owed: [...state.owed, { memberAddedEventId, tokenHash, at, mailed: false, failed: false, notice: true, sender, claimedAt: at }].slice(-rememberedOwed),
      };
    }
    case 'InvitationMailClaimed': {
      const { tokenHash, sender, at } = event.data;
      return { ...state, owed: state.owed.map((owed) => (owed.tokenHash === tokenHash ? { ...owed, sender, claimedAt: at } : owed)) };
    }
    case 'InvitationMailed': {
      const { organizationId } = event.data;
      return {
        ...state,
        owed: state.owed.map((owed) => (owed.tokenHash === event.data.tokenHash ? { ...owed, mailed: true } : owed)),
        failures: organizationId === undefined ? state.failures : state.failures.filter((failure) => failure.organizationId !== organizationId),
      };
    }
    case 'InvitationFailed': {
      const { organizationId, email, reason, responseCode, at } = event.data;
      const failure: UndeliveredInvitation = { organizationId, email, reason, ...(responseCode === undefined ? {} : { responseCode }), at };
      return {
        ...state,
        failures: [...state.failures.filter((known) => known.organizationId !== organizationId), failure],
        // A refused link is no use to anyone: it leaves the pending ones.
        pending: state.pending.filter((invitation) => invitation.tokenHash !== event.data.tokenHash),
        owed: state.owed.map((owed) => (owed.tokenHash === event.data.tokenHash ? { ...owed, failed: true } : owed)),
      };
    }
    case 'InvitationAccepted':
      return { ...state, pending: [], accepted: true };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** Who mails an owed invitation now (mail-claim.ts): its claim is the sender and time its events recorded. */
export function mailDuty(owed: OwedInvitation, sender: string, now: Date, claimMs: number): MailDuty {
  return mailClaimDuty(owed.mailed || owed.failed, { sender: owed.sender ?? '', claimedAt: owed.claimedAt }, sender, now, claimMs);
}

/** The invitation a token's hash names, if it is still good at `now`. */
export function validInvitation(state: InvitationState, tokenHash: string, now: Date): PendingInvitation | undefined {
  return state.pending.find((invitation) => invitation.tokenHash === tokenHash && new Date(invitation.expiresAt).getTime() > now.getTime());
}
