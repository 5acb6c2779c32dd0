// The server's outbox (DATA_DIR/outbox, used when SMTP_URL is not set): the reset link of a mail,
// read from the readable copy (.txt) the server writes beside each quoted-printable .eml.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './wait-for.js';

const resetLink = /https?:\/\/\S+\/reset\/[A-Za-z0-9_-]{64}/;

/** The reset link in the newest mail to `email` in the outbox, once one has been written. */
export function resetLinkInOutbox(dataDir: string, email: string): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  return waitFor(`a reset mail to ${email} in ${outbox}`, () => {
    let names: string[];
    try {
      names = readdirSync(outbox);
    } catch {
      return undefined;
    }
    const mails = names
      .filter((name) => name.endsWith('.txt'))
      .sort()
      .reverse()
      .map((name) => readFileSync(join(outbox, name), 'utf8'));
    const mail = mails.find((text) => text.startsWith(`To: ${email}\n`));
    return mail === undefined ? undefined : resetLink.exec(mail)?.[0];
  });
}
