import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import nodemailer from 'nodemailer';
import { OutboxWriter } from './outbox-writer.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-outbox-writer-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const message = (index: number) => ({
  from: 'Chorus <no-reply@chorus.localhost>',
  to: `member-${index}@example.com`,
  subject: `Invitation ${index}`,
  text: `Open https://chorus.example/invite/${index}`,
});

describe('the outbox writer (a worker thread)', () => {
  it('answers each of many messages sent at once with its own files, written before the answer', async () => {
    const outbox = join(dataDir, 'outbox');
    const writer = new OutboxWriter(outbox);
    const written = await Promise.all(Array.from({ length: 40 }, (_, index) => writer.write(message(index))));

    expect(new Set(written.map(({ file }) => file)).size).toBe(40);
    expect(readdirSync(outbox)).toHaveLength(80);
    written.forEach(({ file, textFile }, index) => {
      expect(readFileSync(file, 'utf8')).toMatch(
        new RegExp(`To: member-${index}@example\\.com[\\s\\S]*Subject: Invitation ${index}\\n`),
      );
      expect(readFileSync(textFile, 'utf8')).toBe(
        `To: member-${index}@example.com\nSubject: Invitation ${index}\n\nOpen https://chorus.example/invite/${index}\n`,
      );
    });
  });

  // What nodemailer's stream transport wrote before (the outbox's format), but for its Message-ID and Date.
  it.each([
    [
      'an invitation (quoted-printable: a link longer than a line)',
      `Hello,\n\nChoose a password: https://chorus.example/invite/${'A'.repeat(64)}\n\nBye. \n`,
      'You are invited to Drain 12 on Chorus',
      'Chorus <no-reply@chorus.localhost>',
    ],
    ['plain short text without a final line break (7bit)', 'plain short text', 'short', 'no-reply@chorus.localhost'],
    [
      'accents, a tab, trailing spaces, a long encoded subject and sender name',
      'Déjà vu = égal\ttab \nline',
      'Vous êtes invité à « Société Générale » sur Chorus, une organisation au nom très long',
      'Chörus Ünïcode <no-reply@chorus.localhost>',
    ],
    [
      'mostly non-Latin text (base64), a quoted sender name',
      '日本語の本文です。'.repeat(20),
      '日本語の件名',
      '"Chorus, Inc." <no-reply@chorus.localhost>',
    ],
    ['CRLF and a lone CR', 'a\r\nb\rc\n', 'line breaks', 'Chorus <no-reply@chorus.localhost>'],
  ])('writes the same .eml as nodemailer would: %s', async (_case, text, subject, from) => {
    const mail = { from, to: 'ada@example.com', subject, text };
    const { file } = await new OutboxWriter(join(dataDir, 'outbox')).write(mail);
    const expected = await nodemailer
      .createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
      .sendMail(mail);
    const withoutIdAndDate = (eml: string) => eml.replace(/^(Message-ID|Date): .*\n/gm, '');
    expect(withoutIdAndDate(readFileSync(file, 'utf8'))).toBe(
      withoutIdAndDate((expected.message as Buffer).toString('utf8')),
    );
  });

  it('fails a message it could not write (its sender may try again) and writes the next one once it can', async () => {
    const outbox = join(dataDir, 'outbox');
    writeFileSync(outbox, 'a file where the outbox directory should be');
    const writer = new OutboxWriter(outbox);
    await expect(writer.write(message(1))).rejects.toThrow(/Mail not written to the outbox/);

    rmSync(outbox);
    const { file } = await writer.write(message(2));
    expect(readFileSync(file, 'utf8')).toContain('member-2@example.com');
  });

  it('fails only the messages of a worker that died: its exit, coming after a new worker took the next message, leaves that one be', async () => {
    const outbox = join(dataDir, 'outbox');
    const writer = new OutboxWriter(outbox);
    await writer.write(message(1));
    const first = (writer as unknown as { worker: Worker }).worker;
    const held = writer.write(message(2));
    // The first worker fails (as on an uncaught error): what it held is failed, the next message starts another.
    first.emit('error', new Error('worker crashed'));
    await expect(held).rejects.toThrow('worker crashed');
    const next = writer.write(message(3));
    // ...and then the first one's exit arrives.
    await first.terminate();

    const { file } = await next;
    expect(readFileSync(file, 'utf8')).toContain('member-3@example.com');
  });
});
