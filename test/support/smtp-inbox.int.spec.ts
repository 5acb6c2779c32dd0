// The test inbox outlives a client killed in the middle of a mail (the SIGKILL tests do that to Chorus).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { SmtpInbox } from './smtp-inbox.js';

let inbox: SmtpInbox;

beforeAll(async () => {
  inbox = await SmtpInbox.start();
});

afterAll(() => inbox.close());

it('keeps a connection reset inside a mail transaction as an error instead of throwing it', async () => {
  const { port } = new URL(inbox.url);
  const socket = connect(Number(port), '127.0.0.1');
  let answers = '';
  socket.on('data', (chunk: Buffer) => (answers += chunk.toString('utf8')));
  // Until the server's answers hold `count` final lines with this code.
  const answered = async (code: string, count = 1) => {
    while ((answers.match(new RegExp(`(^|\\r\\n)${code} `, 'g')) ?? []).length < count)
      await new Promise((resolve) => setTimeout(resolve, 10));
  };
  await answered('220');
  socket.write('EHLO test\r\nMAIL FROM:<chorus@example.test>\r\n');
  // EHLO's and MAIL FROM's: the session is inside a mail transaction.
  await answered('250', 2);
  // A process killed mid-session: its socket is reset, not closed.
  socket.resetAndDestroy();
  const deadline = Date.now() + 5_000;
  while (inbox.connectionErrors.length === 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  expect(inbox.connectionErrors.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['ECONNRESET']);
});
