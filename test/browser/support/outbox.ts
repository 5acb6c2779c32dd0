// The server's outbox (DATA_DIR/outbox, used when SMTP_URL is not set): a link of a mail, read from the
// readable copy (.txt) the server writes beside each quoted-printable .eml.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './wait-for.js';

const resetLink = /https?:\/\/\S+\/reset\/[A-Za-z0-9_-]{64}/;
const twoStepResetLink = /https?:\/\/\S+\/two-step-reset\/[A-Za-z0-9_-]{64}/;

/** The first match of `link` in the newest mail to `email` in the outbox, once one has been written. */
function linkInOutbox(dataDir: string, email: string, link: RegExp, what: string): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  return waitFor(`${what} to ${email} in ${outbox}`, () => {
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
      .map((name) => readFileSync(join(outbox, name), 'utf8'))
      .filter((text) => text.startsWith(`To: ${email}\n`));
    return mails.map((text) => link.exec(text)?.[0]).find((found) => found !== undefined);
  });
}

/** The reset link in the newest reset mail to `email`. */
export const resetLinkInOutbox = (dataDir: string, email: string): Promise<string> =>
  linkInOutbox(dataDir, email, resetLink, 'a reset mail');

/** The link to agree to an owner's reset of second factors, in the newest such mail to `email`. */
export const twoStepResetLinkInOutbox = (dataDir: string, email: string): Promise<string> =>
  linkInOutbox(dataDir, email, twoStepResetLink, 'a two-step reset mail');
