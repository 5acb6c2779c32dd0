// Outgoing mail through nodemailer: SMTP when SMTP_URL is set; otherwise each message is written
// to DATA_DIR/outbox/<timestamp>-<id>.eml, with a readable .txt beside it and its links in the log,
// so a developer can follow a reset link (written by a worker thread: outbox-writer.ts).
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import type { IdentityLogger } from '../logger.js';
import { OutboxWriter } from './outbox-writer.js';

export type MailMessage = { to: string; subject: string; text: string };

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Whether nodemailer reads `address` back as exactly that one address (no name, no group, nothing
 * dropped or added): what it would put in the envelope is then what was asked for.
 */
export function readsAsOneAddress(address: string): boolean {
  const parsed = addressparser(address);
  const [only] = parsed;
  return parsed.length === 1 && only !== undefined && !('group' in only) && only.address === address && only.name === '';
}

/** The mail was refused before any mail server saw it: its recipient is not one plain address. */
export class MailAddressRefused extends Error {
  readonly code = 'EENVELOPE';
  constructor(address: string) {
    super(`Not one plain e-mail address: ${JSON.stringify(address)}`);
  }
}

/**
 * A failure that sending again cannot mend: an address or message the mailer refuses locally
 * (nodemailer's EENVELOPE, EMESSAGE), or a mail server's 5xx answer. Anything else (a connection,
 * a 4xx "try again later") may pass later.
 */
export function isPermanentMailFailure(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (typeof responseCode === 'number') return responseCode >= 500;
  return code === 'EENVELOPE' || code === 'EMESSAGE';
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
    // Bounded: a mail server that stops answering fails the send (tried again later) instead of holding a
    // mail past its sender's claim (MAIL_CLAIM_SECONDS), after which another node would send it too.
    const transport = nodemailer.createTransport({ url: options.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    return {
      async send(message) {
        if (!readsAsOneAddress(message.to)) throw new MailAddressRefused(message.to);
        await transport.sendMail({ from: options.from, ...message });
      },
    };
  }
  const outbox = new OutboxWriter(outboxDirectory(options.dataDir));
  return {
    async send(message) {
      if (!readsAsOneAddress(message.to)) throw new MailAddressRefused(message.to);
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
