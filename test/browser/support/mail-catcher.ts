// An SMTP server (smtp-server) on 127.0.0.1 that keeps every message the app sends, for SMTP_URL.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { waitFor } from './wait-for.js';

export type CaughtMail = { to: string[]; subject: string; text: string };

export type MailCatcher = {
  /** smtp://127.0.0.1:<port> */
  smtpUrl: string;
  mails: CaughtMail[];
  /** The first message to `address`, once it has arrived. */
  mailTo(address: string): Promise<CaughtMail>;
  close(): Promise<void>;
};

const decodeQuotedPrintable = (body: string): string =>
  Buffer.from(
    body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** A single-part text message as nodemailer writes it: headers, a blank line, the encoded body. */
export function parseMail(raw: string, to: string[]): CaughtMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { to, subject: header('Subject'), text: text.replace(/\r\n/g, '\n') };
}

/** `refused`: recipients answered 550 (no such mailbox) at RCPT TO, so that their mail fails for good. */
export async function startMailCatcher({ refused = [] }: { refused?: readonly string[] } = {}): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo({ address }, _session, callback) {
      if (refused.includes(address.toLowerCase()))
        callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const recipients = session.envelope.rcptTo.map(({ address }) => address.toLowerCase());
        mails.push(parseMail(Buffer.concat(chunks).toString('utf8'), recipients));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    mails,
    mailTo: (address) =>
      waitFor(`a mail to ${address}`, () => mails.find((mail) => mail.to.includes(address.toLowerCase()))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
