// Outgoing mail through nodemailer: SMTP when SMTP_URL is set; otherwise each message is written
// to DATA_DIR/outbox/<timestamp>-<id>.eml, with a readable .txt beside it and its links in the log,
// so a developer can follow a reset link.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { IdentityLogger } from '../logger.js';

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

/** The message as a person reads it: its addressee, subject and text, links unbroken. */
const readableCopy = (message: MailMessage): string => `To: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`;

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl !== undefined) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: options.from, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const outbox = outboxDirectory(options.dataDir);
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      mkdirSync(outbox, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}`;
      const file = join(outbox, `${name}.eml`);
      const textFile = join(outbox, `${name}.txt`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      writeFileSync(textFile, readableCopy(message), { mode: 0o600 });
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
