// The mails of two-step sign-in: a recovery code was used, the factors changed, an owner removed a member's
// second factors, or asked the person to confirm that they may.
import type { MailMessage } from './mailer.js';

export function recoveryCodeUsedMail(options: {
  to: string;
  productName: string;
  remaining: number;
  link: string;
}): MailMessage {
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

/** What a change of factors did, in the words of the mail and the history. */
export type FactorChange =
  | 'authenticator-app-added'
  | 'authenticator-app-removed'
  | 'passkey-added'
  | 'passkey-renamed'
  | 'passkey-removed'
  | 'recovery-codes-regenerated';

const CHANGED: Record<FactorChange, string> = {
  'authenticator-app-added': 'an authenticator app was set up',
  'authenticator-app-removed': 'the authenticator app was removed',
  'passkey-added': 'a passkey was added',
  'passkey-renamed': 'a passkey was renamed',
  'passkey-removed': 'a passkey was removed',
  'recovery-codes-regenerated': 'new recovery codes were made (the earlier ones no longer work)',
};

export function factorChangedMail(options: {
  to: string;
  productName: string;
  change: FactorChange;
  link: string;
}): MailMessage {
  const { to, productName, change, link } = options;
  return {
    to,
    subject: `Your ${productName} two-step sign-in changed`,
    text: [
      'Hello,',
      '',
      `on your ${productName} account, ${CHANGED[change]}.`,
      '',
      'If this was not you, change your password at once and sign out everywhere else on your Account page:',
      '',
      link,
    ].join('\n'),
  };
}

export function secondFactorsResetMail(options: {
  to: string;
  productName: string;
  organizationName: string;
  link: string;
  confirmed?: boolean;
}): MailMessage {
  const { to, productName, organizationName, link, confirmed = false } = options;
  return {
    to,
    subject: `Your ${productName} two-step sign-in was reset`,
    text: [
      'Hello,',
      '',
      confirmed
        ? `as you confirmed, the second factors of your ${productName} account were removed at the request of an owner of ${organizationName}:`
        : `an owner of ${organizationName} removed the second factors of your ${productName} account:`,
      'your authenticator app, passkeys and recovery codes no longer work. Your password is unchanged.',
      'If an organization of yours requires two-step sign-in, you will set up a new factor at your next sign-in:',
      '',
      link,
      '',
      `If you did not ask for this, tell the owners of ${organizationName}.`,
    ].join('\n'),
  };
}

/**
 * An owner asked to reset the factors of an account their organization does not answer for: only the person can agree.
 */
type ResetRequestMail = { to: string; productName: string; organizationName: string; link: string; validHours: number };

export function secondFactorsResetRequestMail(options: ResetRequestMail): MailMessage {
  const { to, productName, organizationName, link, validHours } = options;
  return {
    to,
    subject: `Confirm the reset of your ${productName} two-step sign-in`,
    text: [
      'Hello,',
      '',
      `an owner of ${organizationName} asked to remove the second factors of your ${productName} account (your authenticator app,`,
      'passkeys and recovery codes), for example because you lost your phone. Nothing changes unless you confirm here',
      `within ${validHours} hours, with your password:`,
      '',
      link,
      '',
      'If you did not ask for this, ignore this e-mail: your second factors stay, and tell the owners of',
      `${organizationName}.`,
    ].join('\n'),
  };
}
