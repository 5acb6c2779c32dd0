// `chorus store:seal-personal-data --into` killed with SIGKILL part way, round after round: the sealing of an
// EventStoreDB store is a copy into a new database, and the next run must finish it with every event there once, in
// order, each opening to what it held, and every erased person still erased. The built command line and the real
// EventStoreDB client, against EventStoreDbWireServer (no EventStoreDB runs here: no Docker). A kill lands at a number
// of events written, drawn from a seed, rather than at a time: how long the command line takes to start varies.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PersonalKeys, SealingEventStore } from '#application';
import { PLAIN_LOG_SUBJECT } from '../../libs/identity/src/user/identifier-names.js';
import { PERSONAL_KEYS_FILE, SqliteEventStore, SqlitePersonalKeys, type StoredEvent } from '#event-store';
import { EventStoreDbEventStore } from '../../libs/event-store/src/eventstoredb-event-store.js';
import { EventStoreDbPersonalKeys } from '../../libs/event-store/src/eventstoredb-personal-keys.js';
import { EventStoreDbWireServer } from '../../libs/event-store/src/testing/eventstoredb-wire-server.js';
import { chorusBin, ensureCliBuilt, repositoryRoot, runChorus } from '../support/chorus-cli.js';
import { restoreGoldenStore } from '../support/golden-store.js';
import { seededRandom } from '../support/seeded-random.js';

const golden = { PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs', PERSONAL_DATA_RETENTION_DAYS: '3650' };
/** Members of one more organization, in clear as a build before sealing wrote them; the first ten people erased. */
const crowd = { people: 30, members: 600, erased: 10 };
const crowdEmail = (index: number) => `crowd-${index % crowd.people}-${index}@crowd.example`;
const isKeyStream = (streamId: string) => streamId.startsWith('chorus-personal-key-');

const { seed, next: random } = seededRandom();
const log = (line: string): void => void process.stdout.write(`esdb-seal-copy-sigkill: ${line}\n`);

const root = mkdtempSync(join(tmpdir(), 'chorus-esdb-seal-kill-'));
const sourceDir = join(root, 'source');
const servers: EventStoreDbWireServer[] = [];
async function database(): Promise<{ server: EventStoreDbWireServer; url: string }> {
  const server = new EventStoreDbWireServer();
  servers.push(server);
  return { server, url: await server.start() };
}

let older: { server: EventStoreDbWireServer; url: string };
let sourceEvents: StoredEvent[];

beforeAll(async () => {
  ensureCliBuilt();
  mkdirSync(sourceDir, { recursive: true });
  restoreGoldenStore(sourceDir);
  const store = SqliteEventStore.open({ file: join(sourceDir, 'events.sqlite') });
  const keys = SqlitePersonalKeys.open({ file: join(sourceDir, PERSONAL_KEYS_FILE) });
  try {
    for (let index = 0; index < crowd.members; index += 1)
      await store.append(
        'organization-crowd',
        [
          {
            id: randomUUID(),
            type: 'MemberAdded',
            data: {
              userId: `crowd-${index % crowd.people}`,
              email: crowdEmail(index),
              role: 'member',
              chorusUser: false,
            },
            metadata: { actor: 'cli', correlationId: 'c', causationId: 'c' },
          },
        ],
        index === 0 ? 'no_stream' : BigInt(index - 1),
      );
    for (let person = 0; person < crowd.erased; person += 1) await keys.erase(`person:crowd-${person}`);
    sourceEvents = await store.exportEvents(0n, 1_000_000);
  } finally {
    await store.close();
    await keys.close();
  }
  older = await database();
  const copied = await runChorus(['store:copy', '--from', sourceDir], {
    DATA_DIR: join(root, 'older-node'),
    EVENTSTORE_CONNECTION_STRING: older.url,
  });
  expect({ code: copied.code, stderr: copied.stderr }).toEqual({ code: 0, stderr: '' });
  log(`seed ${seed} (STORE_KILL_SEED=${seed} draws the same moments); source: ${sourceEvents.length} events`);
}, 120_000);

afterAll(() => {
  for (const server of servers) server.stop();
  rmSync(root, { recursive: true, force: true });
});

/** The copied events the new database holds, key streams left out, in its order. */
const copiedEvents = (server: EventStoreDbWireServer) =>
  server.userRecords().filter((record) => !isKeyStream(record.streamId));

/** When a run is killed: the new database's state it waits for, and how the log says it. */
type KillPoint = { what: string; reached: (server: EventStoreDbWireServer) => boolean };
const atCopied = (count: number): KillPoint => ({
  what: `${count} copied events`,
  reached: (server) => copiedEvents(server).length >= count,
});
const whileCopyingKeys: KillPoint = {
  what: 'the first key copied',
  reached: (server) => server.userRecords().some((record) => isKeyStream(record.streamId)),
};

/** The sealing run, sent SIGKILL at `kill` (undefined: let it end). A run that ended by itself must have succeeded. */
async function sealKilledAt(
  into: { server: EventStoreDbWireServer; url: string },
  kill: KillPoint | undefined,
): Promise<'killed' | 'finished'> {
  const child = spawn(process.execPath, [chorusBin, 'store:seal-personal-data', '--yes', '--into', into.url], {
    cwd: repositoryRoot,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      SEED_DEMO: 'false',
      DATA_DIR: join(root, 'older-node'),
      EVENTSTORE_CONNECTION_STRING: older.url,
      ...golden,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // The new database is served from this process: its count moves on this event loop, and is looked at between.
  const watching = setInterval(() => {
    if (kill?.reached(into.server) === true) child.kill('SIGKILL');
  }, 2);
  const ended = await exit;
  clearInterval(watching);
  const outcome = ended.signal === 'SIGKILL' ? 'killed' : 'finished';
  log(
    `sealing sent SIGKILL at ${kill?.what ?? 'no point'} (seed ${seed}): ${outcome}, ${copiedEvents(into.server).length} copied events there`,
  );
  if (outcome === 'finished') expect({ ...ended, stderr }).toMatchObject({ code: 0, stderr: '' });
  return outcome;
}

describe('the sealing of an EventStoreDB store killed with SIGKILL part way', () => {
  it('is finished by the next run: every event once, in order, opening to what it held, the erased still erased', async () => {
    const sealed = await database();
    // One round killed while the keys go, then rounds killed further and further into the copy, then one left to end.
    await sealKilledAt(sealed, whileCopyingKeys);
    let reached = 0;
    for (let round = 0; round < 5; round += 1) {
      reached += 1 + Math.floor(random() * ((sourceEvents.length - reached) / 3));
      await sealKilledAt(sealed, atCopied(reached));
    }
    expect(copiedEvents(sealed.server).length).toBeGreaterThan(crowd.erased);
    expect(await sealKilledAt(sealed, undefined)).toBe('finished');

    const copied = copiedEvents(sealed.server);
    expect(copied.map((record) => record.id)).toEqual(sourceEvents.map((event) => event.id));
    const stored = copied.map((record) => Buffer.concat([record.data, record.metadata]).toString()).join('');
    expect(stored).not.toContain('@crowd.example');
    expect(stored).not.toContain('@golden.example');

    // Read as a server on the new database reads it: the kept people's addresses, and the erased as erased.
    const keys = EventStoreDbPersonalKeys.connect(sealed.url);
    const events = new SealingEventStore(EventStoreDbEventStore.connect(sealed.url), new PersonalKeys(keys));
    try {
      const read = await events.readStream('organization-crowd');
      const emails = (read.found ? read.events : []).map((event) => (event.data as { email: string }).email);
      expect(emails).toHaveLength(crowd.members);
      emails.forEach((email, index) => {
        if (index % crowd.people < crowd.erased) expect(email).not.toContain('@crowd.example');
        else expect(email).toBe(crowdEmail(index));
      });
      const held = await keys.find(Array.from({ length: crowd.people }, (_, person) => `person:crowd-${person}`));
      expect([...held.keys()].sort()).toEqual(
        Array.from(
          { length: crowd.people - crowd.erased },
          (_, person) => `person:crowd-${person + crowd.erased}`,
        ).sort(),
      );
      // The mark of an older store, from which the erased people's sealing keys were derived, is gone with the run.
      expect(await keys.find([PLAIN_LOG_SUBJECT])).toEqual(new Map());
    } finally {
      await events.close();
      await keys.close();
    }
  }, 300_000);
});
