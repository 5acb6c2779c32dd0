// One person's invitations, folded from their stream.
import type { InvitationEvent } from './invitation-events.js';

export type PendingInvitation = { tokenHash: string; organizationId: string; organizationName: string; email: string; expiresAt: string };

export type InvitationState = {
  /** Links sent and not yet used; an accepted invitation spends them all (the person is registered then). */
  pending: PendingInvitation[];
  /** When invitations were sent (the newest few), for the per-person mail limit. */
  sentTimes: string[];
  accepted: boolean;
  /** The newest invitations that answer a MemberAdded, by its id, and whether their mail went out. */
  owed: OwedInvitation[];
};

export type OwedInvitation = { memberAddedEventId: string; tokenHash: string; at: string; mailed: boolean };

/** Owed invitations a state remembers: far more than a replay after a restart goes back over (one person, 5 mails an hour). */
const rememberedOwed = 50;

export const noInvitations = (): InvitationState => ({ pending: [], sentTimes: [], accepted: false, owed: [] });

/** Invitation mails one person may receive per hour, from every organization together. */
export const invitationMailsPerHour = 5;

export function evolveInvitations(state: InvitationState, event: InvitationEvent): InvitationState {
  switch (event.type) {
    case 'InvitationSent': {
      const { tokenHash, organizationId, organizationName, email, expiresAt, at, memberAddedEventId } = event.data;
      return {
        ...state,
        pending: [...state.pending.filter((invitation) => new Date(invitation.expiresAt).getTime() > new Date(at).getTime()), { tokenHash, organizationId, organizationName, email, expiresAt }],
        sentTimes: [...state.sentTimes, at].slice(-invitationMailsPerHour),
        owed: memberAddedEventId === undefined ? state.owed : [...state.owed, { memberAddedEventId, tokenHash, at, mailed: false }].slice(-rememberedOwed),
      };
    }
    case 'InvitationMailed':
      return { ...state, owed: state.owed.map((owed) => (owed.tokenHash === event.data.tokenHash ? { ...owed, mailed: true } : owed)) };
    case 'InvitationAccepted':
      return { ...state, pending: [], accepted: true };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** The invitation a token's hash names, if it is still good at `now`. */
export function validInvitation(state: InvitationState, tokenHash: string, now: Date): PendingInvitation | undefined {
  return state.pending.find((invitation) => invitation.tokenHash === tokenHash && new Date(invitation.expiresAt).getTime() > now.getTime());
}
