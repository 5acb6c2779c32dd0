// The mails of two-step sign-in: a recovery code was used, and an owner removed a member's second factors.
import type { MailMessage } from './mailer.js';

export function recoveryCodeUsedMail(options: { to: string; productName: string; remaining: number; link: string }): MailMessage {
  const { to, productName, remaining, link } = options;
  return {
    to,
    subject: `A recovery code was used to sign in to ${productName}`,
    text: [
      'Hello,',
      '',
      `someone signed in to your ${productName} account with your password and one of your recovery codes.`,
      `${remaining === 1 ? 'One recovery code is' : `${remaining} recovery codes are`} left; each works once.`,
      'If your authenticator app or passkey is lost, set up a new one and new recovery codes on your Account page.',
      '',
      'If this was not you, change your password at once and sign out everywhere else on your Account page:',
      '',
      link,
    ].join('\n'),
  };
}

export function secondFactorsResetMail(options: { to: string; productName: string; organizationName: string; link: string }): MailMessage {
  const { to, productName, organizationName, link } = options;
  return {
    to,
    subject: `Your ${productName} two-step sign-in was reset`,
    text: [
      'Hello,',
      '',
      `an owner of ${organizationName} removed the second factors of your ${productName} account: your authenticator app,`,
      'passkeys and recovery codes no longer work. Your password is unchanged.',
      'If your organization requires two-step sign-in, you will set up a new factor at your next sign-in:',
      '',
      link,
      '',
      `If you did not ask for this, tell the owners of ${organizationName}.`,
    ].join('\n'),
  };
}
