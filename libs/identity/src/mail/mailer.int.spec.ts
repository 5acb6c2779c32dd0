import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { IdentityLogger } from '../logger.js';
import { createMailer } from './mailer.js';

const logged: { details: object; message: string }[] = [];
const logger: IdentityLogger = {
  info: (details, message) => logged.push({ details, message }),
  warn: (details, message) => logged.push({ details, message }),
  error: (details, message) => logged.push({ details, message }),
};
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-mail-'));
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the mailer', () => {
  it('without SMTP_URL writes the message to DATA_DIR/outbox (0600) and its text to the log', async () => {
    const mailer = createMailer({ smtpUrl: undefined, from: 'Chorus <no-reply@chorus.localhost>', dataDir, logger, logMessageText: true });
    await mailer.send({ to: 'ada@example.com', subject: 'Hello', text: 'Open https://chorus.example/reset/abc' });
    const files = readdirSync(join(dataDir, 'outbox'));
    expect(files).toEqual([expect.stringMatching(/\.eml$/)]);
    const file = join(dataDir, 'outbox', files[0] ?? '');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/To: ada@example\.com[\s\S]*https:\/\/chorus\.example\/reset\/abc/);
    expect(logged.at(-1)?.details).toMatchObject({ to: 'ada@example.com', file, text: expect.stringContaining('/reset/abc') });
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
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Chorus <no-reply@chorus.localhost>', dataDir, logger, logMessageText: false });
      await mailer.send({ to: 'ada@example.com', subject: 'Over SMTP', text: 'hello over smtp' });
      expect(received).toEqual([expect.stringMatching(/Subject: Over SMTP[\s\S]*hello over smtp/)]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
