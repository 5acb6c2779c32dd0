// What `npm start` prints last, once the server listens: where it runs and how to sign in, in a box
// so that it stands out from the JSON log lines above it.
import type { INestApplication } from '@nestjs/common';
import type { Config } from '#config';
import { outboxDirectory } from '#identity';
import { DemoSeed, type DemoSignIn } from '../demo/demo-seed.service.js';
import { HistoryCheckpoints } from '../history-proof/history-checkpoints.js';
import { requestLogFile } from '../logging/request-log.js';

export type StartUpFacts = {
  productName: string;
  publicUrl: string;
  signIn: DemoSignIn;
  /** Where reset mails go when SMTP_URL is not set; undefined when they are sent. */
  outbox: string | undefined;
  /**
   * The file the requests are logged to (REQUEST_LOG=file), so that nothing follows the box on screen; undefined
   * otherwise.
   */
  requestLog?: string;
  /** The file of the key that signs the history's checkpoints, when it is DATA_DIR's (HISTORY_SIGNING_KEY unset). */
  historyKey?: string;
};

export function startUpLines({
  productName,
  publicUrl,
  signIn,
  outbox,
  requestLog,
  historyKey,
}: StartUpFacts): string[] {
  const lines = [`${productName} is running at ${publicUrl}`, ''];
  if (signIn.kind === 'created') {
    lines.push(
      'A demo organization was created on this empty store. Sign in at',
      `${publicUrl}/login with`,
      `  e-mail:    ${signIn.email}`,
      `  password:  ${signIn.password}   (shown only this once)`,
    );
  } else {
    lines.push(
      `Sign in at ${publicUrl}/login`,
      signIn.email === undefined
        ? '  with a user made by the command line (below)'
        : `  as the demo owner, ${signIn.email}`,
      `Forgot the password? Ask for a link at ${publicUrl}/forgot`,
    );
    if (outbox !== undefined) lines.push(`  SMTP_URL is not set: the mail is written to ${outbox} (open its .txt)`);
  }
  lines.push('', 'More users: ./chorus user:create --help');
  if (requestLog !== undefined) lines.push(`Requests are logged to ${requestLog} (REQUEST_LOG)`);
  // Nodes sharing a store must share it: said where the operator looks at start-up.
  if (historyKey !== undefined) lines.push(`History checkpoints are signed with ${historyKey} (HISTORY_SIGNING_KEY)`);
  return lines;
}

/** The lines framed by a box drawn with Unicode box-drawing characters. */
export function inBox(lines: string[]): string {
  const width = Math.max(...lines.map((line) => [...line].length));
  const rule = '─'.repeat(width + 2);
  return [`┌${rule}┐`, ...lines.map((line) => `│ ${line}${' '.repeat(width - [...line].length)} │`), `└${rule}┘`].join(
    '\n',
  );
}

/** The banner for the running app: asks the demo seed what it knows about signing in on this store. */
export async function startUpBanner(app: INestApplication, config: Config): Promise<string> {
  const signIn = await app.get(DemoSeed).signIn();
  const outbox = config.smtpUrl === undefined ? outboxDirectory(config.dataDir) : undefined;
  const requestLog = config.requestLog === 'file' ? requestLogFile(config.dataDir) : undefined;
  const key = app.get(HistoryCheckpoints).key();
  return inBox(
    startUpLines({
      productName: config.productName,
      publicUrl: config.publicUrl,
      signIn,
      outbox,
      requestLog,
      ...(key.inDataDir ? { historyKey: key.source } : {}),
    }),
  );
}
