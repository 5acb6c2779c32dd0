// Outgoing mail through nodemailer: SMTP when SMTP_URL is set; otherwise each message is written
// to DATA_DIR/outbox/<timestamp>.eml and to the log, so a developer can follow a reset link.
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
  const outbox = join(options.dataDir, 'outbox');
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      mkdirSync(outbox, { recursive: true, mode: 0o700 });
      const file = join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      const details = { to: message.to, subject: message.subject, file };
      if (options.logMessageText) options.logger.info({ ...details, text: message.text }, 'Mail written to the outbox (SMTP_URL is not set)');
      else options.logger.warn(details, 'Mail written to the outbox, not sent: SMTP_URL is not set');
    },
  };
}
