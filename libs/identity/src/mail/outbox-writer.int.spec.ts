import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutboxWriter } from './outbox-writer.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-outbox-writer-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const message = (index: number) => ({ from: 'Chorus <no-reply@chorus.localhost>', to: `member-${index}@example.com`, subject: `Invitation ${index}`, text: `Open https://chorus.example/invite/${index}` });

describe('the outbox writer (a worker thread)', () => {
  it('answers each of many messages sent at once with its own files, written before the answer', async () => {
    const outbox = join(dataDir, 'outbox');
    const writer = new OutboxWriter(outbox);
    const written = await Promise.all(Array.from({ length: 40 }, (_, index) => writer.write(message(index))));

    expect(new Set(written.map(({ file }) => file)).size).toBe(40);
    expect(readdirSync(outbox)).toHaveLength(80);
    written.forEach(({ file, textFile }, index) => {
      expect(readFileSync(file, 'utf8')).toMatch(new RegExp(`To: member-${index}@example\\.com[\\s\\S]*Subject: Invitation ${index}\\n`));
      expect(readFileSync(textFile, 'utf8')).toBe(`To: member-${index}@example.com\nSubject: Invitation ${index}\n\nOpen https://chorus.example/invite/${index}\n`);
    });
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
});
