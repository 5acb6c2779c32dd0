// Sealing an older store in place, on both stores that can be rewritten: what it held in clear is sealed and reads
// back the same, claims move to their keyed names, a person erased before the sealing reads as erased, a failure
// part way leaves the log as it was (the next run finishes it), and no copy of an address stays in the files.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { PersonalKeys, SealingEventStore } from '#application';
import { identifierClaimDecider } from '#domain';
import {
  ChainCheck,
  type ChainedLog,
  openEventStore,
  openLogRewriter,
  openPersonalKeys,
  type EventStore,
  type EventToAppend,
  type LogRewriter,
  type OpenEventStoreOptions,
  type RecordedEvent,
} from '#event-store';
import { startPostgresServer, type PostgresServer } from '../../../event-store/src/testing/postgres-server.js';
import { openIdentifierNames, PLAIN_LOG_SUBJECT } from '../user/identifier-names.js';
import { PersonalDataSealError, sealPersonalData } from './seal-personal-data.js';

const started = await startPostgresServer();
const server: PostgresServer | undefined = 'server' in started ? started.server : undefined;
if ('skip' in started) process.stdout.write(`Sealing on PostgreSQL SKIPPED: ${started.skip}.\n`);
jest.setTimeout(60_000);
afterAll(async () => {
  await server?.stop();
});

const ada = { userId: 'u-ada', email: 'ada.sealed@older.example', username: 'ada_sealed' };
const bob = { userId: 'u-bob', email: 'bob.erased@older.example', username: 'bob_erased' };
const request = {
  actor: 'anonymous',
  correlationId: 'c',
  causationId: 'c',
  clientIp: '198.51.100.23',
  userAgent: 'Older Browser/1.0',
};
const inClear = [ada.email, ada.username, bob.email, request.clientIp, request.userAgent];
const event = (type: string, data: unknown, metadata: Record<string, unknown> = request): EventToAppend => ({
  id: randomUUID(),
  type,
  data,
  metadata: metadata as EventToAppend['metadata'],
});
const unkeyed = (kind: string, value: string) =>
  identifierClaimDecider.streamOf(`${kind}-${createHash('sha256').update(value).digest('hex')}`);

type Backend = {
  name: string;
  options: () => Promise<OpenEventStoreOptions>;
  storedBytes: (options: OpenEventStoreOptions) => Promise<string>;
  dispose: (options: OpenEventStoreOptions) => void;
};

const sqlite: Backend = {
  name: 'SQLite',
  options: () => Promise.resolve({ dataDir: mkdtempSync(join(tmpdir(), 'chorus-seal-')) }),
  storedBytes: (options) =>
    Promise.resolve(
      ['events.sqlite', 'events.sqlite-wal']
        .map((name) => join(options.dataDir, name))
        .filter(existsSync)
        .map((file) => readFileSync(file).toString('latin1'))
        .join(''),
    ),
  dispose: (options) => rmSync(options.dataDir, { recursive: true, force: true }),
};

let databases = 0;
const postgres: Backend = {
  name: 'PostgreSQL',
  options: async () => ({
    dataDir: '',
    databaseUrl: await (server as PostgresServer).createDatabase(`chorus_seal_${process.pid}_${(databases += 1)}`),
  }),
  storedBytes: async ({ databaseUrl }) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query('CHECKPOINT');
      const { rows } = await client.query<{ dir: string; path: string }>(
        "SELECT current_setting('data_directory') AS dir, pg_relation_filepath('events') AS path",
      );
      const base = join(rows[0]?.dir as string, rows[0]?.path as string);
      return [base, `${base}.1`]
        .filter(existsSync)
        .map((file) => readFileSync(file).toString('latin1'))
        .join('');
    } finally {
      await client.end();
    }
  },
  dispose: () => undefined,
};

describe.each([sqlite, ...(server === undefined ? [] : [postgres])])('sealing an older store on $name', (backend) => {
  async function olderStore() {
    const options = await backend.options();
    const store = await openEventStore(options);
    // As a build before sealing wrote it: every value in clear, claims under an unkeyed hash of their value.
    await store.append(
      `user-${ada.userId}`,
      [event('UserRegistered', { email: ada.email, username: ada.username, passwordHash: 'x' })],
      'no_stream',
    );
    await store.append(
      unkeyed('email', ada.email),
      [event('IdentifierClaimed', { kind: 'email', userId: ada.userId })],
      'no_stream',
    );
    await store.append(
      unkeyed('username', ada.username),
      [event('IdentifierClaimed', { kind: 'username', userId: ada.userId })],
      'no_stream',
    );
    await store.append(
      `user-${bob.userId}`,
      [event('UserRegistered', { email: bob.email, username: bob.username, passwordHash: 'x' })],
      'no_stream',
    );
    await store.append(
      'organization-acme',
      [event('MemberAdded', { userId: ada.userId, email: ada.email, role: 'owner' })],
      'no_stream',
    );
    const keys = new PersonalKeys(await openPersonalKeys(options));
    const names = await openIdentifierNames(keys, store);
    return {
      options,
      store,
      keys,
      names,
      close: async () => (await store.close(), await keys.close(), backend.dispose(options)),
    };
  }

  const everything = async (store: EventStore): Promise<RecordedEvent[]> =>
    JSON.parse(
      JSON.stringify(await store.readAll(), (_, value: unknown) =>
        typeof value === 'bigint' ? value.toString() : value,
      ),
    ) as RecordedEvent[];

  it('seals every value in place, reads back the same, and moves the claims to their keyed names', async () => {
    const older = await olderStore();
    try {
      expect(older.names.readsLegacyNames).toBe(true);
      const before = await everything(new SealingEventStore(older.store, older.keys));
      await older.keys.erase(`person:${bob.userId}`);

      const rewriter = await openLogRewriter(older.options);
      const result = await sealPersonalData({ store: older.store, rewriter, keys: older.keys, names: older.names });
      await rewriter.close();

      // The embedded store keeps a chain: given again over the sealed bytes from the first one rewritten.
      const chained = 'readChain' in older.store ? (older.store as EventStore & ChainedLog) : undefined;
      expect(result).toEqual({
        examined: 5,
        rewritten: 5,
        renamedStreams: 2,
        ...(chained === undefined ? {} : { rechainedFrom: 1n }),
      });
      if (chained !== undefined) {
        const check = new ChainCheck();
        for (const stored of await chained.readChain(0n, 100)) check.next(stored);
        expect(check).toMatchObject({ checked: 5, unchained: 0, broken: undefined });
      }
      const bytes = await backend.storedBytes(older.options);
      expect(inClear.filter((value) => bytes.includes(value))).toEqual([]);
      const after = await everything(new SealingEventStore(older.store, older.keys));
      const renamed = (streamId: string) =>
        streamId === unkeyed('email', ada.email)
          ? older.names.keyedStreamOf('email', ada.email)
          : streamId === unkeyed('username', ada.username)
            ? older.names.keyedStreamOf('username', ada.username)
            : streamId;
      const bobRegistered = after.find((recorded) => recorded.streamId === `user-${bob.userId}`);
      expect(bobRegistered?.data).toMatchObject({
        email: expect.stringMatching(/^Erased person [0-9a-f]{4}$/),
        username: expect.stringMatching(/^Erased person/),
      });
      expect(after.filter((recorded) => recorded !== bobRegistered)).toEqual(
        before
          .filter((recorded) => recorded.streamId !== `user-${bob.userId}`)
          .map((recorded) => ({ ...recorded, streamId: renamed(recorded.streamId) })),
      );
      expect((await older.keys.find([PLAIN_LOG_SUBJECT])).size).toBe(0);
      expect((await openIdentifierNames(older.keys, older.store)).readsLegacyNames).toBe(false);
    } finally {
      await older.close();
    }
  });

  it('leaves the log as it was when the rewrite fails part way, and the next run finishes it', async () => {
    const older = await olderStore();
    try {
      const before = await everything(older.store);
      const rewriter = await openLogRewriter(older.options);
      let checked = 0;
      const failing: LogRewriter = {
        rewrite: (change, check) =>
          rewriter.rewrite(change, async (rewritten, original) => {
            await check(rewritten, original);
            if ((checked += 1) === 3) throw new PersonalDataSealError(original.position);
          }),
        close: () => Promise.resolve(),
      };
      await expect(
        sealPersonalData({ store: older.store, rewriter: failing, keys: older.keys, names: older.names }),
      ).rejects.toThrow(PersonalDataSealError);
      expect(await everything(older.store)).toEqual(before);
      expect((await older.keys.find([PLAIN_LOG_SUBJECT])).size).toBe(1);

      expect(
        await sealPersonalData({ store: older.store, rewriter, keys: older.keys, names: older.names }),
      ).toMatchObject({ rewritten: 5 });
      await rewriter.close();
    } finally {
      await older.close();
    }
  });
});
