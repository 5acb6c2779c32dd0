// The mail a person with an account receives when added to an organization: the counterpart of the
// invitation, so that adding anyone mails someone and the add says nothing about who has an account.
import type { MailMessage } from './mailer.js';

export type MembershipNoticeMailOptions = {
  to: string;
  productName: string;
  organizationName: string;
  /** The address of whoever added the member, when a person did (not an API key or the command line). */
  invitedBy: string | undefined;
  /** The sign-in page. */
  link: string;
};

export function membershipNoticeMail({
  to,
  productName,
  organizationName,
  invitedBy,
  link,
}: MembershipNoticeMailOptions): MailMessage {
  return {
    to,
    subject: `You were added to ${organizationName} on ${productName}`,
    text: [
      'Hello,',
      '',
      `${invitedBy ?? 'An administrator'} added you to ${organizationName} on ${productName}.`,
      'Sign in as usual to find it in your organizations:',
      '',
      link,
      '',
      'If you did not expect this, ask whoever added you, or ignore this e-mail.',
    ].join('\n'),
  };
}
