// The password reset e-mail.
import type { MailMessage } from './mailer.js';

export function resetMail(options: {
  to: string;
  productName: string;
  link: string;
  validMinutes: number;
}): MailMessage {
  const { to, productName, link, validMinutes } = options;
  return {
    to,
    subject: `Reset your ${productName} password`,
    text: [
      'Hello,',
      '',
      `someone (hopefully you) asked to reset the password of your ${productName} account.`,
      `Choose a new password here within ${validMinutes} minutes:`,
      '',
      link,
      '',
      'The link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
  };
}
