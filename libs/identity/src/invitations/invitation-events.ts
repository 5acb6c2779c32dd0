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
  };
};
/** The mail of an InvitationSent went out (SMTP accepted it, or it is in the outbox); absent, a restart mails it again. */
export type InvitationMailed = { type: 'InvitationMailed'; data: { tokenHash: string; at: string } };
/** The person chose a password through the link and became a registered user. */
export type InvitationAccepted = { type: 'InvitationAccepted'; data: { tokenHash: string; organizationId: string; at: string } };

export type InvitationEvent = InvitationSent | InvitationMailed | InvitationAccepted;

export const invitationStreamPrefix = 'invitation-';
export const invitationStream = (userId: string): string => `${invitationStreamPrefix}${userId}`;
