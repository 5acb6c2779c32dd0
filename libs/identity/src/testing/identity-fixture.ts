// A real identity over a real SQLite event store in a temp dir, with a manual clock and a mailer
// that keeps what it sends.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEventStore, type EventStore } from '#event-store';
import { ManualClock } from '../clock.js';
import { createIdentity, type Identity } from '../identity.js';
import { IdentifierNames } from '../user/identifier-names.js';
import type { IdentityLogger } from '../logger.js';
import type { MailMessage, Mailer } from '../mail/mailer.js';
import type { SessionPolicy } from '../sessions/sessions.js';
import type { SignInContext } from '../sign-in/password-sign-in.js';
import { countedEventStore, type StoreWork } from './counted-event-store.js';

export const quietLogger: IdentityLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export class KeptMail implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
}

export type IdentityFixture = {
  identity: Identity;
  store: EventStore;
  /** What the identities asked of the store so far (reads, events read, appends). */
  storeWork(): StoreWork;
  clock: ManualClock;
  mail: KeptMail;
  dataDir: string;
  /** Another API node: its own identity (and caches) over the same store; named `node-a` it is this node restarted. */
  secondNode(nodeName?: string): Identity;
  close(): Promise<void>;
};

export const sessionSecret = 'an identity test secret, at least thirty-two characters';

type ContextOverrides = { actor?: string; correlationId?: string; clientIp?: string; userAgent?: string };

/** A caller's context as the API builds it from a request (causation = correlation). */
export const context = ({
  actor = 'anonymous',
  correlationId = 'c0rrelation',
  clientIp = '203.0.113.7',
  userAgent = 'jest',
}: ContextOverrides = {}): SignInContext => ({
  actor,
  correlationId,
  causationId: correlationId,
  origin: { clientIp, userAgent },
});

/** passwordHashesAtOnce: the hasher's limit of argon2id computations at once (default: as the server's). */
export async function openIdentityFixture(
  sessionPolicy?: SessionPolicy,
  passwordHashesAtOnce?: number,
): Promise<IdentityFixture> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chorus-identity-'));
  const clock = new ManualClock();
  const store = await openEventStore({ dataDir, now: () => clock.now() });
  const counted = countedEventStore(store);
  const mail = new KeptMail();
  const identifierNames = IdentifierNames.keyed(randomBytes(32));
  const build = (nodeName: string) =>
    createIdentity({
      eventStore: counted.store,
      identifierNames,
      sessionSecret,
      mailer: mail,
      logger: quietLogger,
      publicUrl: 'https://chorus.example',
      productName: 'Chorus',
      clock,
      nodeName,
      ...(sessionPolicy === undefined ? {} : { sessionPolicy }),
      ...(passwordHashesAtOnce === undefined ? {} : { passwordHashesAtOnce }),
    });
  return {
    identity: build('node-a'),
    store,
    storeWork: counted.work,
    clock,
    mail,
    dataDir,
    secondNode: (nodeName = 'node-b') => build(nodeName),
    async close() {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
