// The enforcement check made at every password sign-in over a real SQLite store: what it reads.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { newCommandContext } from '#application';
import { SqliteEventStore, type EventStore, type ReadStreamResult } from '#event-store';
import { createIdentity, IdentifierNames, ManualClock } from '#identity';
import { AppClock } from '../config/app-clock.js';
import type { Organizations } from '../organizations/organizations.service.js';
import { SsoDomainClaims } from './sso-domain-claims.js';
import { SsoEnforcement } from './sso-enforcement.js';

let dataDir: string;
let store: SqliteEventStore;
let userReads: number;

const organizations = { load: async () => ({ state: { exists: false } }) } as unknown as Organizations;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-sso-enforcement-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  userReads = 0;
});
afterEach(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the SSO enforcement check of a password sign-in', () => {
  it('by username, reads the user’s stream once to find their address', async () => {
    const counting = new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'readStream') {
          return async (
            streamId: string,
            options?: Parameters<EventStore['readStream']>[1],
          ): Promise<ReadStreamResult> => {
            if (streamId.startsWith('user-')) userReads += 1;
            return target.readStream(streamId, options);
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const clock = new ManualClock();
    const identityClock = new AppClock();
    identityClock.pin(clock);
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const identity = createIdentity({
      eventStore: counting,
      identifierNames: IdentifierNames.keyed(randomBytes(32)),
      sessionSecret: 'a test secret of at least thirty-two characters',
      mailer: { send: async () => undefined },
      logger: quiet,
      publicUrl: 'http://localhost',
      productName: 'Chorus',
      clock,
    });
    const enforcement = new SsoEnforcement(
      new SsoDomainClaims(counting, organizations, identityClock),
      organizations,
      identity,
    );
    await identity.registration.register(
      { email: 'uma@acme.example', username: 'uma', password: 'correct horse battery staple' },
      newCommandContext('cli'),
    );
    userReads = 0;

    expect(await enforcement.requiresSso('uma')).toBe(false);
    expect(userReads).toBe(1);
  });
});
