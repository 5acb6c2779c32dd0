/** Only the token's SHA-256 is kept: the mail holds the sole copy. */
export type InvitationSent = {
  type: 'InvitationSent';
  data: {
    organizationId: string;
    organizationName: string;
    email: string;
    tokenHash: string;
    expiresAt: string;
    at: string;
    /** Absent in older events, as is `sender`. */
    memberAddedEventId?: string;
    sender?: string;
  };
};
/** No link: tokenHash only names the notice, as it names an invitation, for InvitationMailed. */
export type MembershipNoticeSent = {
  type: 'MembershipNoticeSent';
  data: {
    organizationId: string;
    organizationName: string;
    email: string;
    tokenHash: string;
    at: string;
    memberAddedEventId: string;
    sender?: string;
  };
};
/** One claim wins per stream revision, so one node at a time mails it. */
export type InvitationMailClaimed = {
  type: 'InvitationMailClaimed';
  data: { tokenHash: string; sender: string; at: string };
};
/** Absent, a restart mails it again. */
export type InvitationMailed = {
  type: 'InvitationMailed';
  data: { tokenHash: string; at: string; organizationId?: string };
};
export type InvitationFailureReason = 'address_refused' | 'mail_server_refused';
export type InvitationFailed = {
  type: 'InvitationFailed';
  data: {
    tokenHash: string;
    organizationId: string;
    email: string;
    reason: InvitationFailureReason;
    responseCode?: number;
    at: string;
  };
};
export type InvitationAccepted = {
  type: 'InvitationAccepted';
  data: { tokenHash: string; organizationId: string; at: string };
};

export type InvitationEvent =
  | InvitationSent
  | MembershipNoticeSent
  | InvitationMailClaimed
  | InvitationMailed
  | InvitationFailed
  | InvitationAccepted;

export const invitationStreamPrefix = 'invitation-';
export const invitationStream = (userId: string): string => `${invitationStreamPrefix}${userId}`;
