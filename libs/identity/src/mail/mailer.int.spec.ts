import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { IdentityLogger } from '../logger.js';
import { createMailer, isPermanentMailFailure, linksIn, MailAddressRefused } from './mailer.js';
import { resetMail } from './reset-mail.js';

const logged: { details: object; message: string }[] = [];
const logger: IdentityLogger = {
  info: (details, message) => logged.push({ details, message }),
  warn: (details, message) => logged.push({ details, message }),
  error: (details, message) => logged.push({ details, message }),
};
let dataDir: string;
const from = 'Chorus <no-reply@chorus.localhost>';
// As long as a real one: the origin, /reset/ and a 64-character token.
const resetLink = `http://localhost:3000/reset/${'Ab_9-'.repeat(12)}xyz0`;

/** The .eml and the .txt the outbox received for one message, by the .eml's name. */
function outboxFiles(outbox: string, eml: string) {
  const text = eml.replace(/\.eml$/, '.txt');
  return { eml: join(outbox, eml), txt: join(outbox, text) };
}

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-mail-'));
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the mailer', () => {
  it('without SMTP_URL writes the message to DATA_DIR/outbox (0600) and its links to the log, never the address', async () => {
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Chorus <no-reply@chorus.localhost>',
      dataDir,
      logger,
      logMessageText: true,
    });
    await mailer.send({ to: 'ada@example.com', subject: 'Hello', text: 'Open https://chorus.example/reset/abc' });
    const files = readdirSync(join(dataDir, 'outbox'));
    expect(files.sort()).toEqual([expect.stringMatching(/\.eml$/), expect.stringMatching(/\.txt$/)]);
    const file = join(dataDir, 'outbox', files[0] ?? '');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/To: ada@example\.com[\s\S]*https:\/\/chorus\.example\/reset\/abc/);
    expect(logged.at(-1)?.details).toMatchObject({ file, links: ['https://chorus.example/reset/abc'] });
    expect(JSON.stringify(logged.at(-1))).not.toContain('ada@example.com');
  });

  it('also writes each link whole, where the quoted-printable .eml folds it: in a .txt beside it (0600) and in the log line', async () => {
    const outboxDir = mkdtempSync(join(tmpdir(), 'chorus-mail-links-'));
    try {
      const mailer = createMailer({ smtpUrl: undefined, from, dataDir: outboxDir, logger, logMessageText: true });
      await mailer.send(resetMail({ to: 'ada@example.com', productName: 'Chorus', link: resetLink, validMinutes: 60 }));

      const outbox = join(outboxDir, 'outbox');
      const emls = readdirSync(outbox).filter((name) => name.endsWith('.eml'));
      expect(readdirSync(outbox).sort()).toEqual([emls[0], emls[0]?.replace(/\.eml$/, '.txt')].sort());
      const { eml, txt } = outboxFiles(outbox, emls[0] ?? '');
      // Why the .txt exists: the .eml holds the link only with a soft line break in it.
      expect(readFileSync(eml, 'utf8')).not.toContain(resetLink);
      expect(readFileSync(eml, 'utf8')).toMatch(/=\n/);
      expect(readFileSync(txt, 'utf8').split('\n')).toContain(resetLink);
      expect(readFileSync(txt, 'utf8')).toMatch(/^To: ada@example\.com\nSubject: Reset your Chorus password\n\n/);
      expect(statSync(txt).mode & 0o777).toBe(0o600);
      expect(logged.at(-1)?.details).toMatchObject({ file: eml, textFile: txt, links: [resetLink] });
    } finally {
      rmSync(outboxDir, { recursive: true, force: true });
    }
  });

  it('in production keeps the link out of the log (it signs its holder in) but still writes the .txt', async () => {
    const outboxDir = mkdtempSync(join(tmpdir(), 'chorus-mail-production-'));
    try {
      const mailer = createMailer({ smtpUrl: undefined, from, dataDir: outboxDir, logger, logMessageText: false });
      await mailer.send(resetMail({ to: 'ada@example.com', productName: 'Chorus', link: resetLink, validMinutes: 60 }));

      const txt = readdirSync(join(outboxDir, 'outbox')).find((name) => name.endsWith('.txt')) ?? '';
      expect(readFileSync(join(outboxDir, 'outbox', txt), 'utf8')).toContain(resetLink);
      expect(JSON.stringify(logged.at(-1))).not.toContain('/reset/');
      expect(logged.at(-1)?.message).toBe('Mail written to the outbox, not sent: SMTP_URL is not set');
    } finally {
      rmSync(outboxDir, { recursive: true, force: true });
    }
  });

  it.each([
    ['Open https://chorus.example/reset/abc.', ['https://chorus.example/reset/abc']],
    ['(see http://a.example/x?y=1), then https://b.example/z', ['http://a.example/x?y=1', 'https://b.example/z']],
    ['twice: https://a.example/1 https://a.example/1', ['https://a.example/1']],
    ['no link here, only ftp://a.example/', []],
  ])('finds the links in %j', (text, links) => {
    expect(linksIn(text)).toEqual(links);
  });

  it('with SMTP_URL sends through that server', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as { port: number };
    try {
      const mailer = createMailer({
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from: 'Chorus <no-reply@chorus.localhost>',
        dataDir,
        logger,
        logMessageText: false,
      });
      await mailer.send({ to: 'ada@example.com', subject: 'Over SMTP', text: 'hello over smtp' });
      expect(received).toEqual([expect.stringMatching(/Subject: Over SMTP[\s\S]*hello over smtp/)]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  // Addresses recorded before members' addresses were checked as the mailer reads them: nodemailer would mail someone
  // else.
  it.each(['x<y@elsewhere.example>', 'a,b@elsewhere.example', 'ada(c)@elsewhere.example', 'a@x:'])(
    'refuses %j before any mail server sees it, for good (EENVELOPE), over SMTP and to the outbox',
    async (to) => {
      const recipients: string[] = [];
      const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        onRcptTo(address, _session, callback) {
          recipients.push(address.address);
          callback();
        },
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.server.address() as { port: number };
      const outboxDir = mkdtempSync(join(tmpdir(), 'chorus-mail-refused-'));
      try {
        for (const smtpUrl of [`smtp://127.0.0.1:${port}`, undefined]) {
          const mailer = createMailer({ smtpUrl, from, dataDir: outboxDir, logger, logMessageText: false });
          const refused = await mailer.send({ to, subject: 'Refused', text: 'never sent' }).then(
            () => undefined,
            (error: unknown) => error,
          );
          expect(refused).toBeInstanceOf(MailAddressRefused);
          expect(isPermanentMailFailure(refused)).toBe(true);
        }
        expect(recipients).toEqual([]);
        expect(existsSync(join(outboxDir, 'outbox')) ? readdirSync(join(outboxDir, 'outbox')) : []).toEqual([]);
      } finally {
        rmSync(outboxDir, { recursive: true, force: true });
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  );
});
