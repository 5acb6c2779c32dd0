// The invitations of one person (stream `invitation-<userId>`, the id reserved for their address when
// a member was added by it). Audited like every other change: the metadata says who invited, under the
// correlation id of the request that added the member.

/** Only the SHA-256 of the link's token is kept: the mail holds the sole copy of the token. */
export type InvitationSent = {
  type: 'InvitationSent';
  data: {
    organizationId: string;
    organizationName: string;
    email: string;
    tokenHash: string;
    expiresAt: string;
    at: string;
    /** The MemberAdded it answers (absent in invitations sent before they were a reaction): one invitation per MemberAdded. */
    memberAddedEventId?: string;
    /** The node that recorded it and mails it (absent before nodes were named): see InvitationMailClaimed. */
    sender?: string;
  };
};
/**
 * A registered person was added to an organization: they are told so by mail, as a new person is invited
 * (no link: they sign in as usual). tokenHash names it as it names an invitation, for InvitationMailed.
 */
export type MembershipNoticeSent = {
  type: 'MembershipNoticeSent';
  data: { organizationId: string; organizationName: string; email: string; tokenHash: string; at: string; memberAddedEventId: string; sender?: string };
};
/**
 * A node takes on the mail of an invitation (or notice) recorded and not yet mailed: its own again (a retry,
 * or its previous run stopped), or another node's whose claim ran out (that node stopped). One claim wins per
 * stream revision, so one node at a time mails it.
 */
export type InvitationMailClaimed = { type: 'InvitationMailClaimed'; data: { tokenHash: string; sender: string; at: string } };
/** The mail of an InvitationSent (or a notice) went out (SMTP accepted it, or it is in the outbox); absent, a restart mails it again. */
export type InvitationMailed = { type: 'InvitationMailed'; data: { tokenHash: string; at: string; organizationId?: string } };
/** Why a mail can never go out: the mailer refused the address itself, or the mail server refused it for good (5xx). */
export type InvitationFailureReason = 'address_refused' | 'mail_server_refused';
/** The mail of an InvitationSent (or a notice) was refused for good: it is not sent again, and the organization's owners see it. */
export type InvitationFailed = {
  type: 'InvitationFailed';
  data: { tokenHash: string; organizationId: string; email: string; reason: InvitationFailureReason; responseCode?: number; at: string };
};
/** The person chose a password through the link and became a registered user. */
export type InvitationAccepted = { type: 'InvitationAccepted'; data: { tokenHash: string; organizationId: string; at: string } };

export type InvitationEvent = InvitationSent | MembershipNoticeSent | InvitationMailClaimed | InvitationMailed | InvitationFailed | InvitationAccepted;

export const invitationStreamPrefix = 'invitation-';
export const invitationStream = (userId: string): string => `${invitationStreamPrefix}${userId}`;
