// Outgoing mail through nodemailer: SMTP when SMTP_URL is set; otherwise each message is written
// to DATA_DIR/outbox/<timestamp>-<id>.eml, with a readable .txt beside it and its links in the log,
// so a developer can follow a reset link (written by a worker thread: outbox-writer.ts).
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { IdentityLogger } from '../logger.js';
import { OutboxWriter } from './outbox-writer.js';

export type MailMessage = { to: string; subject: string; text: string };

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export type MailerOptions = {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  logger: IdentityLogger;
  /** Outside production the message text (with its link) goes to the log too. */
  logMessageText: boolean;
};

/** Where mail goes when SMTP_URL is not set. */
export const outboxDirectory = (dataDir: string): string => join(dataDir, 'outbox');

// Characters that end a sentence rather than a link ("Open https://x/reset/abc.").
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

/**
 * Every http(s) link in a message's text, whole and once each. The .eml is quoted-printable, which
 * folds lines over 76 characters with a soft break (`=`), so a reset link cannot be copied from it.
 */
export function linksIn(text: string): string[] {
  const links = (text.match(/\bhttps?:\/\/[^\s<>"']+/g) ?? []).map((link) => link.replace(TRAILING_PUNCTUATION, ''));
  return [...new Set(links)];
}

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl !== undefined) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: options.from, ...message });
      },
    };
  }
  const outbox = new OutboxWriter(outboxDirectory(options.dataDir));
  return {
    async send(message) {
      const { file, textFile } = await outbox.write({ from: options.from, to: message.to, subject: message.subject, text: message.text });
      const details = { to: message.to, subject: message.subject, file, textFile };
      // A reset link signs its holder in: in production it stays out of the log (shipped elsewhere), in the 0600 files only.
      if (options.logMessageText) {
        options.logger.info({ ...details, links: linksIn(message.text), text: message.text }, 'Mail written to the outbox (SMTP_URL is not set)');
      } else {
        options.logger.warn(details, 'Mail written to the outbox, not sent: SMTP_URL is not set');
      }
    },
  };
}
