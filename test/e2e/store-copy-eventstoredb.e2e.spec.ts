// Copies into and out of EventStoreDB, and the sealing of an EventStoreDB store by a copy into a new database, through
// the real command line and the real EventStoreDB client, at the gRPC transport level: no EventStoreDB runs here (no
// Docker), so the databases are EventStoreDbWireServer, which serves the client's own Streams service definition. The
// golden store goes into EventStoreDB, is sealed there into a new database, comes back into the embedded store and
// reads as golden.json says; a copy killed with SIGKILL at random moments ends with every event once, in order.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  copiedFromOf,
  PERSONAL_KEYS_FILE,
  SqliteEventStore,
  SqlitePersonalKeys,
  type PersonalKeyStore,
  type StoredEvent,
} from '#event-store';
import { EventStoreDbEventStore } from '../../libs/event-store/src/eventstoredb-event-store.js';
import { EventStoreDbPersonalKeys } from '../../libs/event-store/src/eventstoredb-personal-keys.js';
import {
  EventStoreDbWireServer,
  type WireRecord,
} from '../../libs/event-store/src/testing/eventstoredb-wire-server.js';
import { chorusBin, ensureCliBuilt, repositoryRoot, runChorus } from '../support/chorus-cli.js';
import { expectGolden, restoreGoldenStore } from '../support/golden-store.js';
import { seededRandom } from '../support/seeded-random.js';
import { startApp } from '../support/start-app.js';

const golden = { PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs', PERSONAL_DATA_RETENTION_DAYS: '3650' };
const inClear = ['grace@golden.example', 'ada@golden.example', 'linus@golden.example', '"clientIp":"127.0.0.1"'];

/** The kill moments from one seed, printed, so that a failing run can be run again. */
const { seed, next: random } = seededRandom();

const root = mkdtempSync(join(tmpdir(), 'chorus-esdb-copy-'));
const servers: EventStoreDbWireServer[] = [];
async function database(): Promise<{ server: EventStoreDbWireServer; url: string }> {
  const server = new EventStoreDbWireServer();
  servers.push(server);
  return { server, url: await server.start() };
}

async function embeddedEvents(dataDir: string): Promise<StoredEvent[]> {
  const store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  try {
    return await store.exportEvents(0n, 1_000_000);
  } finally {
    await store.close();
  }
}

/** A new stream of one event, written by a server on EventStoreDB rather than by a copy. */
async function writeNatively(url: string, streamId: string): Promise<void> {
  const writer = EventStoreDbEventStore.connect(url);
  try {
    await writer.append(streamId, [siteAdded(0)], 'no_stream');
  } finally {
    await writer.close();
  }
}

const noteOf = (record: WireRecord) => copiedFromOf(JSON.parse(record.metadata.toString('utf8')));

/** `chorus store:copy` sent SIGKILL after a random moment, until a run ends by itself. */
async function copyUnderKills(args: string[], settings: Record<string, string>): Promise<number> {
  for (let round = 1; ; round += 1) {
    const delayMs = round >= 8 ? Number.POSITIVE_INFINITY : 300 + Math.floor(random() * 2_500);
    const child = spawn(process.execPath, [chorusBin, 'store:copy', ...args], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH, NODE_ENV: 'test', SEED_DEMO: 'false', ...settings },
      stdio: 'ignore',
    });
    const timer = Number.isFinite(delayMs) ? setTimeout(() => child.kill('SIGKILL'), delayMs) : undefined;
    const ended = await new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    clearTimeout(timer);
    process.stdout.write(
      `store-copy-eventstoredb: round ${round}, SIGKILL after ${delayMs} ms (seed ${seed}): ${ended.signal ?? `exit ${ended.code}`}\n`,
    );
    if (ended.signal === null) {
      expect(ended.code).toBe(0);
      return round;
    }
  }
}

beforeAll(() => {
  ensureCliBuilt();
});

afterAll(() => {
  for (const server of servers) server.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('the golden store through EventStoreDB: copied in, sealed into a new database, copied back', () => {
  const goldenDir = join(root, 'golden');
  const backDir = join(root, 'back');
  let older: { server: EventStoreDbWireServer; url: string };
  let sealed: { server: EventStoreDbWireServer; url: string };

  beforeAll(async () => {
    mkdirSync(goldenDir, { recursive: true });
    restoreGoldenStore(goldenDir);
    // As a server of that build left it: a key store beside the log, which the copy carries.
    await SqlitePersonalKeys.open({ file: join(goldenDir, PERSONAL_KEYS_FILE) }).close();
    older = await database();
    sealed = await database();
  });

  it('copies every event into EventStoreDB with its id, stream, revision, type, data and metadata, and notes its position and time', async () => {
    const source = await embeddedEvents(goldenDir);
    const copied = await runChorus(['store:copy', '--from', goldenDir, '--json'], {
      DATA_DIR: join(root, 'older-node'),
      EVENTSTORE_CONNECTION_STRING: older.url,
    });
    expect({ code: copied.code, stderr: copied.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(copied.stdout)).toMatchObject({ copied: source.length, alreadyThere: 0 });

    const records = older.server.userRecords().filter((record) => !record.streamId.startsWith('chorus-personal-key-'));
    expect(
      records.map((record) => {
        const {
          copiedFrom: _note,
          streamHash: _hash,
          ...metadata
        } = JSON.parse(record.metadata.toString('utf8')) as Record<string, unknown>;
        return {
          position: BigInt(noteOf(record)?.position ?? -1),
          streamId: record.streamId,
          revision: record.revision,
          id: record.id,
          type: record.type,
          data: record.data.toString('utf8'),
          metadata: JSON.stringify(metadata),
          recordedAt: noteOf(record)?.recordedAt,
        };
      }),
    ).toEqual(source.map(({ hash: _hash, ...event }) => event));
    // EventStoreDB gave its own positions: never the source's.
    expect(records.every((record) => record.position !== BigInt(noteOf(record)?.position ?? -1))).toBe(true);
  });

  it('verifies equal against its source, and a second run copies nothing', async () => {
    const settings = { DATA_DIR: join(root, 'older-node'), EVENTSTORE_CONNECTION_STRING: older.url };
    expect(await runChorus(['store:verify', '--against', goldenDir], settings)).toMatchObject({ code: 0 });
    const again = await runChorus(['store:copy', '--from', goldenDir, '--json'], settings);
    expect(again).toMatchObject({ code: 0 });
    expect(JSON.parse(again.stdout)).toMatchObject({ copied: 0, alreadyThere: 97 });
  });

  it('refuses to seal into the database it reads, and EventStoreDB is never sealed in place', async () => {
    const settings = { DATA_DIR: join(root, 'older-node'), EVENTSTORE_CONNECTION_STRING: older.url };
    const before = older.server.all.length;
    expect(await runChorus(['store:seal-personal-data', '--yes'], settings)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('seal this store into a new, empty database with --into'),
    });
    expect(await runChorus(['store:seal-personal-data', '--yes', '--into', older.url], settings)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('name a new, empty database'),
    });
    expect(older.server.all.length).toBe(before);

    // A database that holds another log: refused before a key or an event is written there.
    const other = await database();
    await writeNatively(other.url, 'organization-elsewhere');
    const held = other.server.all.length;
    expect(await runChorus(['store:seal-personal-data', '--yes', '--into', other.url], settings)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('holds another log'),
    });
    expect(other.server.all.length).toBe(held);
  });

  it('seals into a new database: nothing in clear there, every event read back, the old database unchanged', async () => {
    const settings = { DATA_DIR: join(root, 'older-node'), EVENTSTORE_CONNECTION_STRING: older.url, ...golden };
    const olderBytes = older.server.all.map((record) => Buffer.concat([record.data, record.metadata]).toString());
    const run = await runChorus(['store:seal-personal-data', '--yes', '--into', sealed.url, '--json'], settings);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ sealed: true, examined: 97 });
    expect(JSON.parse(run.stdout).renamedStreams).toBeGreaterThanOrEqual(5);

    const stored = sealed.server.all.map((record) => Buffer.concat([record.data, record.metadata]).toString()).join('');
    for (const value of inClear) expect(stored).not.toContain(value);
    expect(older.server.all.map((record) => Buffer.concat([record.data, record.metadata]).toString())).toEqual(
      olderBytes,
    );
    // Each event kept its id, type and revision, and the position and time of the store the golden one was.
    const goldenEvents = await embeddedEvents(goldenDir);
    const sealedEvents = sealed.server
      .userRecords()
      .filter((record) => !record.streamId.startsWith('chorus-personal-key-'));
    expect(sealedEvents.map((record) => [record.id, record.type, record.revision, noteOf(record)])).toEqual(
      goldenEvents.map((event) => [
        event.id,
        event.type,
        event.revision,
        { position: event.position.toString(), recordedAt: event.recordedAt },
      ]),
    );

    // Run again once it has ended: the keys go again, and nothing is copied twice.
    const again = await runChorus(['store:seal-personal-data', '--yes', '--into', sealed.url, '--json'], settings);
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(again.stdout)).toMatchObject({ sealed: false, sealedThere: true, examined: 0 });
    expect(
      sealed.server.userRecords().filter((record) => !record.streamId.startsWith('chorus-personal-key-')),
    ).toHaveLength(97);
  });

  it('refuses to call a sealing ended when the old database has moved on since', async () => {
    const settings = { DATA_DIR: join(root, 'older-node'), EVENTSTORE_CONNECTION_STRING: older.url, ...golden };
    await writeNatively(older.url, 'organization-written-late');
    const held = sealed.server.all.length;
    expect(await runChorus(['store:seal-personal-data', '--yes', '--into', sealed.url], settings)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('holds events written after it was sealed into'),
    });
    expect(sealed.server.all.length).toBe(held);
  });

  it('comes back into the embedded store at the golden positions and times, and reads as golden.json says', async () => {
    const copied = await runChorus(['store:copy', '--from', sealed.url], { DATA_DIR: backDir, ...golden });
    expect(copied).toMatchObject({ code: 0 });
    expect(await runChorus(['store:verify', '--against', sealed.url], { DATA_DIR: backDir })).toMatchObject({
      code: 0,
    });
    expect((await embeddedEvents(backDir)).map((event) => [event.position, event.id, event.recordedAt])).toEqual(
      (await embeddedEvents(goldenDir)).map((event) => [event.position, event.id, event.recordedAt]),
    );
    const back = await startApp({ DATA_DIR: backDir, LOG_LEVEL: 'silent', ...golden });
    try {
      await expectGolden(back.baseUrl);
    } finally {
      await back.close();
    }
  }, 120_000);

  it('takes what servers wrote on EventStoreDB since at EventStoreDB positions, after the copied ones', async () => {
    // A copy of its own: a server has run on backDir since, and what it wrote there makes that one another log.
    const laterDir = join(root, 'later');
    const settings = { DATA_DIR: laterDir, ...golden };
    expect(await runChorus(['store:copy', '--from', sealed.url], settings)).toMatchObject({ code: 0 });
    await writeNatively(sealed.url, 'organization-written-there');
    const native = sealed.server.userRecords().at(-1) as WireRecord;
    const again = await runChorus(['store:copy', '--from', sealed.url, '--json'], settings);
    expect(again).toMatchObject({ code: 0 });
    expect(JSON.parse(again.stdout)).toMatchObject({ alreadyThere: 97, copied: 1 });
    const last = (await embeddedEvents(laterDir)).at(-1);
    expect({ position: last?.position, id: last?.id }).toEqual({ position: native.position, id: native.id });
    expect(native.position).toBeGreaterThan(97n);
    expect(await runChorus(['store:verify', '--against', sealed.url], { DATA_DIR: laterDir })).toMatchObject({
      code: 0,
    });
  });

  it('proves its streams, and names an event written before the chain and what chains it', async () => {
    const settings = { DATA_DIR: join(root, 'sealed-node'), EVENTSTORE_CONNECTION_STRING: sealed.url };
    expect(await runChorus(['store:verify'], settings)).toMatchObject({ code: 0 });
    // The last of its stream: a hash removed before another event's would break that one's link instead.
    const record = sealed.server
      .userRecords()
      .find((one) => one.streamId === 'organization-written-there') as WireRecord;
    const { streamHash: _hash, ...metadata } = JSON.parse(record.metadata.toString()) as Record<string, unknown>;
    record.metadata = Buffer.from(JSON.stringify(metadata));
    const unchained = await runChorus(['store:verify'], settings);
    expect(unchained).toMatchObject({
      code: 1,
      stdout: expect.stringContaining('1 event of EventStoreDB'),
    });
    expect(unchained.stdout).toContain('chain them by a copy into a new database (chorus store:copy');
  });
});

/** The kept person's key is there, the same; the erased person's is not. Closes the store. */
async function expectKeysCarried(keys: PersonalKeyStore, kept: Buffer): Promise<void> {
  try {
    const found = await keys.find(['person:kept', 'person:erased']);
    expect(found.get('person:kept')?.equals(kept)).toBe(true);
    expect(found.has('person:erased')).toBe(false);
  } finally {
    await keys.close();
  }
}

const siteAdded = (round: number) => ({
  id: randomUUID(),
  type: 'SiteAdded',
  data: { siteId: `s-${round}`, text: 'tab\tnew line\n"quoted" \\ é' },
  metadata: { actor: 'cli', correlationId: 'c', causationId: 'c' },
});

describe('a copy into EventStoreDB killed with SIGKILL at random moments', () => {
  it('ends with every event once, in order, its keys and erasures along; and so does the copy back out', async () => {
    process.stdout.write(`store-copy-eventstoredb: seed ${seed} (STORE_KILL_SEED=${seed} draws the same moments)\n`);
    const sourceDir = join(root, 'many');
    mkdirSync(sourceDir, { recursive: true });
    const store = SqliteEventStore.open({ file: join(sourceDir, 'events.sqlite') });
    const keys = SqlitePersonalKeys.open({ file: join(sourceDir, PERSONAL_KEYS_FILE) });
    const streams = 40;
    for (let round = 0; round < 60; round += 1)
      for (let stream = 0; stream < streams; stream += 1)
        await store.append(`organization-${stream}`, [siteAdded(round)], round === 0 ? 'no_stream' : BigInt(round - 1));
    // A stream an operator deleted behind Chorus's back: it stays deleted in every copy.
    await store.markDeleted(['organization-3']);
    const kept = await keys.obtain('person:kept');
    await keys.obtain('person:erased');
    await keys.erase('person:erased');
    await store.close();
    await keys.close();

    const target = await database();
    const rounds = await copyUnderKills(['--from', sourceDir], {
      DATA_DIR: join(root, 'many-node'),
      EVENTSTORE_CONNECTION_STRING: target.url,
    });
    process.stdout.write(`store-copy-eventstoredb: into EventStoreDB in ${rounds} rounds\n`);
    const records = target.server.userRecords().filter((record) => !record.streamId.startsWith('chorus-personal-key-'));
    expect(records.map((record) => noteOf(record)?.position)).toEqual(
      Array.from({ length: 60 * streams }, (_, index) => String(index + 1)),
    );
    expect(new Set(records.map((record) => record.id)).size).toBe(60 * streams);
    expect(
      await runChorus(['store:verify', '--against', sourceDir], {
        DATA_DIR: join(root, 'many-node'),
        EVENTSTORE_CONNECTION_STRING: target.url,
      }),
    ).toMatchObject({ code: 0 });
    expect(
      target.server.all.filter((record) => record.streamId === '$$organization-3').map((record) => record.type),
    ).toEqual(['$metadata']);
    await expectKeysCarried(EventStoreDbPersonalKeys.connect(target.url), kept);

    // Out of EventStoreDB into the embedded store, under kills too: the same log as the first source.
    const backDir = join(root, 'many-back');
    await copyUnderKills(['--from', target.url], { DATA_DIR: backDir });
    expect(await runChorus(['store:verify', '--against', sourceDir], { DATA_DIR: backDir })).toMatchObject({ code: 0 });
    const backLog = SqliteEventStore.open({ file: join(backDir, 'events.sqlite') });
    try {
      expect(await backLog.deletedStreams()).toEqual(['organization-3']);
    } finally {
      await backLog.close();
    }
    await expectKeysCarried(SqlitePersonalKeys.open({ file: join(backDir, PERSONAL_KEYS_FILE) }), kept);

    // Into a database that holds another log: refused, nothing written.
    const otherDir = join(root, 'other');
    mkdirSync(otherDir, { recursive: true });
    const other = SqliteEventStore.open({ file: join(otherDir, 'events.sqlite') });
    await other.append('organization-other', [{ ...siteAdded(0), id: randomUUID() }], 'no_stream');
    await other.close();
    await SqlitePersonalKeys.open({ file: join(otherDir, PERSONAL_KEYS_FILE) }).close();
    const before = target.server.all.length;
    const settings = { DATA_DIR: join(root, 'many-node'), EVENTSTORE_CONNECTION_STRING: target.url };
    expect(await runChorus(['store:copy', '--from', otherDir], settings)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('it holds another log'),
    });
    // Every copied event chained in its stream as it was appended: store:verify proves them, and finds a changed one.
    expect(await runChorus(['store:verify'], settings)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('The streams are proven: 2,400 events'),
    });
    const changed = target.server.userRecords().find((record) => record.streamId === 'organization-7') as WireRecord;
    changed.data = Buffer.from(changed.data.toString().replace('s-0', 's-9'));
    expect(await runChorus(['store:verify', '--json'], settings)).toMatchObject({ code: 1 });
    expect(JSON.parse((await runChorus(['store:verify', '--json'], settings)).stdout)).toMatchObject({
      proven: false,
      failedAt: changed.position.toString(),
    });

    // A source that is not there: a refusal in words, not our failure.
    expect(await runChorus(['store:copy', '--from', join(root, 'nowhere')], settings)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('holds no embedded store'),
    });
    expect(target.server.all.length).toBe(before);
  }, 300_000);
});
