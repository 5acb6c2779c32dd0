// The invitation e-mail: sent when a member is added by an address nobody has registered with.
import type { MailMessage } from './mailer.js';

export type InvitationMailOptions = {
  to: string;
  productName: string;
  organizationName: string;
  /** The address of whoever added the member, when a person did (not an API key or the command line). */
  invitedBy: string | undefined;
  link: string;
  validDays: number;
};

export function invitationMail({
  to,
  productName,
  organizationName,
  invitedBy,
  link,
  validDays,
}: InvitationMailOptions): MailMessage {
  return {
    to,
    subject: `You are invited to ${organizationName} on ${productName}`,
    text: [
      'Hello,',
      '',
      `${invitedBy ?? 'An administrator'} added you to ${organizationName} on ${productName}.`,
      `Choose your password here within ${validDays} days, and you are in:`,
      '',
      link,
      '',
      'The link works once. If you did not expect this invitation, ignore this e-mail: no account is made without you.',
    ].join('\n'),
  };
}
