// Without SMTP_URL each message is written to DATA_DIR/outbox, so a developer can follow a reset link.
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { inSpan, SpanKind } from '#application';
import type { IdentityLogger } from '../logger.js';
import { OutboxWriter } from './outbox-writer.js';

export type MailMessage = { to: string; subject: string; text: string };

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Only then is what nodemailer puts in the envelope what was asked for. */
export function readsAsOneAddress(address: string): boolean {
  const parsed = addressparser(address);
  const [only] = parsed;
  return (
    parsed.length === 1 && only !== undefined && !('group' in only) && only.address === address && only.name === ''
  );
}

export class MailAddressRefused extends Error {
  readonly code = 'EENVELOPE';
  constructor(address: string) {
    super(`Not one plain e-mail address: ${JSON.stringify(address)}`);
  }
}

/** Sending again cannot mend it: a local refusal or a 5xx. Anything else (a connection, a 4xx) may pass later. */
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
  /** Never in production: the text carries sign-in links. */
  logMessageText: boolean;
};

export const outboxDirectory = (dataDir: string): string => join(dataDir, 'outbox');

// Characters that end a sentence rather than a link ("Open https://x/reset/abc.").
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

/** The .eml is quoted-printable, which folds long lines, so a reset link cannot be copied from it. */
export function linksIn(text: string): string[] {
  const links = (text.match(/\bhttps?:\/\/[^\s<>"']+/g) ?? []).map((link) => link.replace(TRAILING_PUNCTUATION, ''));
  return [...new Set(links)];
}

/** Each send a `mail send` span (tracing on): neither address nor text is recorded (docs/privacy.md). */
export function tracedMailer(mailer: Mailer, transport: 'smtp' | 'outbox'): Mailer {
  return {
    send: (message) =>
      inSpan('mail send', { kind: SpanKind.CLIENT, attributes: { 'chorus.mail.transport': transport } }, () =>
        mailer.send(message),
      ),
  };
}

export function createMailer(options: MailerOptions): Mailer {
  return tracedMailer(untracedMailer(options), options.smtpUrl === undefined ? 'outbox' : 'smtp');
}

function untracedMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl !== undefined) {
    // Bounded: holding a mail past its sender's claim would let another node send it too.
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
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
      const { file, textFile } = await outbox.write({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
      // Logs carry no address (docs/privacy.md): who it is to, and the text, are in the files.
      const details = { subject: message.subject, file, textFile };
      // A reset link signs its holder in: in production it stays out of the log, in the 0600 files only.
      if (options.logMessageText) {
        options.logger.info(
          { ...details, links: linksIn(message.text) },
          'Mail written to the outbox (SMTP_URL is not set)',
        );
      } else {
        options.logger.warn(details, 'Mail written to the outbox, not sent: SMTP_URL is not set');
      }
    },
  };
}
