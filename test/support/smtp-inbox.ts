// A real SMTP server on 127.0.0.1 (smtp-server) that keeps every message it receives.
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string[]; raw: string };

export class SmtpInbox {
  readonly received: ReceivedMail[] = [];
  private waiting: ((mail: ReceivedMail) => void)[] = [];
  private readonly server: SMTPServer;
  /**
   * Errors of client connections (smtp-server emits them on the server): a Chorus process killed with SIGKILL
   * mid-session resets its socket ("read ECONNRESET"). Kept, not thrown: without a listener the emitter throws,
   * and jest reports the suite as failed after its tests have passed.
   */
  readonly connectionErrors: Error[] = [];
  /** While set, every message is answered 451 (try again later) and not kept: a mail server that is down for now. */
  refusing = false;
  /**
   * Recipients refused at RCPT TO, with the answer's code: 550 (no such mailbox: for good) or 451 (for now).
   * Every RCPT TO is counted in `recipientAttempts`, refused or not.
   */
  readonly refusedRecipients = new Map<string, number>();
  readonly recipientAttempts = new Map<string, number>();

  private constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        this.recipientAttempts.set(address.address, (this.recipientAttempts.get(address.address) ?? 0) + 1);
        const code = this.refusedRecipients.get(address.address);
        if (code === undefined) callback();
        else
          callback(
            Object.assign(new Error(code >= 500 ? 'No such mailbox' : 'Mailbox busy, try again later'), {
              responseCode: code,
            }),
          );
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (this.refusing) {
            callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
            return;
          }
          const mail = {
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          };
          this.received.push(mail);
          const next = this.waiting.shift();
          if (next !== undefined) next(mail);
          callback();
        });
      },
    });
  }

  static async start(): Promise<SmtpInbox> {
    const inbox = new SmtpInbox();
    inbox.server.on('error', (error: Error) => inbox.connectionErrors.push(error));
    await new Promise<void>((resolve) => inbox.server.listen(0, '127.0.0.1', resolve));
    return inbox;
  }

  get url(): string {
    const { port } = this.server.server.address() as { port: number };
    return `smtp://127.0.0.1:${port}`;
  }

  /** The first mail to `address` whose text holds `words`, once it has arrived (within 10 s); others are left. */
  async mailTo(address: string, words: string): Promise<ReceivedMail> {
    for (let waited = 0; waited < 10_000; waited += 50) {
      const mail = this.received.find(
        (received) => received.to.includes(address) && unfolded(received).includes(words),
      );
      if (mail !== undefined) return mail;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`No mail to ${address} saying "${words}"`);
  }

  /** The next message to arrive (or the oldest one not yet taken). */
  next(): Promise<ReceivedMail> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The raw message with quoted-printable soft line breaks undone, so long links read whole. */
export const unfolded = (mail: ReceivedMail): string => mail.raw.replace(/=\r?\n/g, '');

/** The reset link's token in a received mail. */
export function resetTokenIn(mail: ReceivedMail): string {
  const text = unfolded(mail);
  const match = /\/reset\/([A-Za-z0-9_-]{64})/.exec(text);
  if (match?.[1] === undefined) throw new Error(`No reset link in:\n${mail.raw}`);
  return match[1];
}
