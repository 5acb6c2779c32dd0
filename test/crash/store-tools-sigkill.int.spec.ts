// `chorus store:copy`, `store:chain`, `store:backup` and `store:restore` killed with SIGKILL at random moments: the next
// copy, chaining and restore end with the source's log and keys exactly (nothing lost, nothing doubled, no erased key back), and a
// backup cut short is refused by every restore; a restore into PostgreSQL cut short keeps every node from serving it until
// it is finished, from any node. The built command line, the embedded store and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PERSONAL_KEYS_FILE,
  postgresRestoreMark,
  SqliteEventStore,
  SqlitePersonalKeys,
  UnfinishedImport,
  type KeyRecord,
  type StoredEvent,
} from '#event-store';
import { PostgresEventStore } from '../../libs/event-store/src/postgres-event-store.js';
import { PostgresPersonalKeys } from '../../libs/event-store/src/postgres-personal-keys.js';
import { startPostgresServer, type PostgresServer } from '../../libs/event-store/src/testing/postgres-server.js';
import { chorusBin, ensureCliBuilt, repositoryRoot, runChorus, type ChorusRun } from '../support/chorus-cli.js';
import { seedEventLog } from '../support/seed-event-log.js';
import { seededRandom } from '../support/seeded-random.js';

/** 8 events each: 100,000 events, a copy of a few seconds and a restore of some twenty. */
const organizations = 12_500;
/** More than one page of the copy's keys (1,000), so a kill can land between two. */
const people = 1_500;

const root = mkdtempSync(join(tmpdir(), 'chorus-crash-store-'));
const sourceDir = join(root, 'source');
const backupsDir = join(root, 'backups');
// The children's temporary files (a restore's files in the clear) stay in here, and go with it.
const childTmp = join(root, 'tmp');
let serial = 0;
const freshDir = (name: string): string => join(root, `${name}-${(serial += 1)}`);
/** Where a command line writes: a DATA_DIR, and a PostgreSQL database when one is named. */
type Target = string | { dataDir: string; databaseUrl: string };
const settings = (target: Target): Record<string, string> => ({
  ...(typeof target === 'string'
    ? { DATA_DIR: target }
    : { DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl }),
  BACKUP_DIR: backupsDir,
  TMPDIR: childTmp,
});

/** The kill moments from one seed, so that a failing run can be run again. */
const { seed, next: random } = seededRandom();

const postgres = await startPostgresServer();
const postgresServer: PostgresServer | undefined = 'server' in postgres ? postgres.server : undefined;
if ('skip' in postgres) process.stdout.write(`store-tools-sigkill into PostgreSQL SKIPPED: ${postgres.skip}.\n`);

const log = (line: string): void => void process.stdout.write(`store-tools-sigkill: ${line}\n`);
const started: ChildProcess[] = [];

/** Every event of an embedded store exactly as stored, an import under way there or not; none where no store was made yet. */
async function storedEvents(dataDir: string): Promise<StoredEvent[]> {
  const file = join(dataDir, 'events.sqlite');
  if (!existsSync(file)) return [];
  const store = SqliteEventStore.open({ file, importing: true });
  try {
    return await store.exportEvents(0n, 10_000_000);
  } finally {
    await store.close();
  }
}

/** Every event and key of a PostgreSQL store exactly as stored, an import under way there or not. */
async function postgresLog(databaseUrl: string): Promise<{ events: StoredEvent[]; keys: KeyRecord[] }> {
  const store = await PostgresEventStore.connect({ connectionString: databaseUrl, importing: true });
  const keys = await PostgresPersonalKeys.connect({ connectionString: databaseUrl });
  try {
    return { events: await store.exportEvents(0n, 10_000_000), keys: await keys.exportKeys(undefined, 1_000_000) };
  } finally {
    await keys.close();
    await store.close();
  }
}

async function storedKeys(dataDir: string): Promise<KeyRecord[]> {
  const file = join(dataDir, PERSONAL_KEYS_FILE);
  if (!existsSync(file)) return [];
  const keys = SqlitePersonalKeys.open({ file });
  try {
    return await keys.exportKeys(undefined, 1_000_000);
  } finally {
    await keys.close();
  }
}

type Timed<Mark extends string> = { run: ChorusRun; ms: number; at: Record<Mark, number> };

/** `chorus <args>` run whole and timed, with the moment each mark first held (looked at every 10 ms). */
async function timed<Mark extends string = never>(
  args: readonly string[],
  dataDir: Target,
  marks: Record<Mark, () => boolean> = {} as Record<Mark, () => boolean>,
): Promise<Timed<Mark>> {
  const began = performance.now();
  const at = {} as Record<Mark, number>;
  const look = () => {
    for (const [mark, holds] of Object.entries(marks) as [Mark, () => boolean][])
      if (at[mark] === undefined && holds()) at[mark] = Math.round(performance.now() - began);
  };
  const watching = setInterval(look, 10);
  const run = await runChorus(args, settings(dataDir));
  clearInterval(watching);
  const ms = Math.round(performance.now() - began);
  for (const mark of Object.keys(marks) as Mark[]) at[mark] ??= ms;
  return { run, ms, at };
}

/** What a kill's delay counts from: the start, or the moment a run was seen to begin writing. */
type Since = { what: string; holds: () => boolean };

/**
 * `chorus <args>` sent SIGKILL `delayMs` after its start or `since` (logged, with the seed); one that was done by then
 * must have succeeded.
 */
async function killedAfter(
  args: readonly string[],
  dataDir: Target,
  delayMs: number,
  since?: Since,
): Promise<'killed' | 'finished'> {
  const child = spawn(process.execPath, [chorusBin, ...args], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', SEED_DEMO: 'false', ...settings(dataDir) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let timer: NodeJS.Timeout | undefined;
  const arm = () => (timer = setTimeout(() => child.kill('SIGKILL'), delayMs));
  // Polled rather than timed from the start: how long the command line takes to start varies by a second and more.
  const watching = setInterval(() => {
    if (timer === undefined && (since === undefined || since.holds())) arm();
  }, 5);
  if (since === undefined) arm();
  const ended = await exit;
  clearInterval(watching);
  clearTimeout(timer);
  const outcome = ended.signal === 'SIGKILL' ? 'killed' : 'finished';
  log(`${args[0]} sent SIGKILL ${delayMs} ms after ${since?.what ?? 'its start'} (seed ${seed}): ${outcome}`);
  if (outcome === 'finished') expect({ ...ended, stderr }).toMatchObject({ code: 0 });
  return outcome;
}

/** A uniform moment between `fromMs` and `toMs`, in ms. */
const momentIn = (fromMs: number, toMs: number): number => Math.round(fromMs + random() * Math.max(0, toMs - fromMs));

let sourceEvents: StoredEvent[];

beforeAll(async () => {
  ensureCliBuilt();
  mkdirSync(childTmp, { recursive: true });
  log(`seed ${seed} (STORE_KILL_SEED=${seed} draws the same fractions of the measured runs)`);
  const began = performance.now();
  const written = await seedEventLog(sourceDir, organizations);
  // Chained, as every store Chorus writes now is: a copy into PostgreSQL then takes the rows as the source writes them.
  const chained = SqliteEventStore.open({ file: join(sourceDir, 'events.sqlite') });
  try {
    for (let after = 0n; ;) {
      const { lastPosition } = await chained.chainNext(after, 10_000);
      if (lastPosition === undefined) break;
      after = lastPosition;
    }
  } finally {
    await chained.close();
  }
  // A copy refuses a DATA_DIR without its keys; some are erased, which must stay so in every copy.
  const keys = SqlitePersonalKeys.open({ file: join(sourceDir, PERSONAL_KEYS_FILE) });
  try {
    await keys.obtainAll(Array.from({ length: people }, (_, index) => `person:${index}`));
    for (let index = 0; index < people; index += 97) await keys.erase(`person:${index}`);
  } finally {
    await keys.close();
  }
  sourceEvents = await storedEvents(sourceDir);
  expect(sourceEvents).toHaveLength(written);
  log(`source: ${written} events, ${people} keys, in ${Math.round(performance.now() - began)} ms`);
}, 120_000);

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  postgresServer?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('store:copy killed with SIGKILL', () => {
  it('goes on where it stopped, round after round, and ends with the source log and keys exactly', async () => {
    const measured = freshDir('copy-measure');
    const full = await timed(['store:copy', '--from', sourceDir, '--json'], measured, {
      opened: () => existsSync(join(measured, 'events.sqlite')),
    });
    expect(full.run).toMatchObject({ code: 0 });
    rmSync(measured, { recursive: true, force: true });
    log(
      `a full store:copy of ${sourceEvents.length} events took ${full.ms} ms, the target opened at ${full.at.opened} ms`,
    );

    const target = freshDir('copy');
    for (let round = 1; round <= 3; round += 1) {
      // A kill while the command line starts writes nothing: the first lands once the target is opened.
      if (round === 1)
        await killedAfter(
          ['store:copy', '--from', sourceDir, '--json'],
          target,
          momentIn(0, full.ms - full.at.opened),
          {
            what: 'the target was opened',
            holds: () => existsSync(join(target, 'events.sqlite')),
          },
        );
      else await killedAfter(['store:copy', '--from', sourceDir, '--json'], target, momentIn(0, full.ms));
      // Whole batches only: a prefix of the source, nothing doubled, nothing of another log.
      const there = await storedEvents(target);
      log(`round ${round}: ${there.length} of ${sourceEvents.length} events copied`);
      expect(there).toEqual(sourceEvents.slice(0, there.length));
      // Erased in the source after the target may have taken the key: the next run must erase it there too.
      const keys = SqlitePersonalKeys.open({ file: join(sourceDir, PERSONAL_KEYS_FILE) });
      try {
        await keys.erase(`person:${round}`);
      } finally {
        await keys.close();
      }
    }

    const last = await runChorus(['store:copy', '--from', sourceDir, '--json'], settings(target));
    expect(last).toMatchObject({ code: 0 });
    const verified = await runChorus(['store:verify', '--against', sourceDir, '--json'], settings(target));
    expect(verified).toMatchObject({ code: 0 });
    expect(JSON.parse(verified.stdout)).toMatchObject({ equal: true, events: sourceEvents.length });

    expect(await storedEvents(target)).toEqual(sourceEvents);
    const sourceKeys = await storedKeys(sourceDir);
    expect(sourceKeys.filter((record) => record.key === null).length).toBeGreaterThan(3);
    // Every key and erasure exactly, those erased in the source between two runs included: at the source's time.
    expect(await storedKeys(target)).toEqual(sourceKeys);
  }, 300_000);
});

(postgresServer === undefined ? describe.skip : describe)(
  'store:copy into PostgreSQL and store:backup from it killed with SIGKILL',
  () => {
    it('goes on where it stopped and ends with the source log and keys exactly; a backup of it cut short is refused', async () => {
      const server = postgresServer as PostgresServer;
      const copy = ['store:copy', '--from', sourceDir, '--json'];
      const measured = { dataDir: freshDir('pg-measure'), databaseUrl: await server.createDatabase('copy_measure') };
      const full = await timed(copy, measured);
      expect(full.run).toMatchObject({ code: 0 });
      log(`a full store:copy into PostgreSQL of ${sourceEvents.length} events took ${full.ms} ms`);

      const target = { dataDir: freshDir('pg-copy'), databaseUrl: await server.createDatabase('copy_killed') };
      for (let round = 1; round <= 3; round += 1) {
        await killedAfter(copy, target, momentIn(0, full.ms));
        // A batch is one transaction: a prefix of the source, whatever moment the kill took.
        const { events } = await postgresLog(target.databaseUrl);
        log(`round ${round}: ${events.length} of ${sourceEvents.length} events copied into PostgreSQL`);
        expect(events).toEqual(sourceEvents.slice(0, events.length));
        // Part of the log, without its unique keys yet: no server opens it, the tools say what to do.
        if (events.length > 0 && events.length < sourceEvents.length) {
          await expect(PostgresEventStore.connect({ connectionString: target.databaseUrl })).rejects.toThrow(
            UnfinishedImport,
          );
          const refused = await runChorus(['store:verify', '--json'], settings(target));
          expect(refused.code).toBe(1);
          expect(JSON.parse(refused.stderr)).toMatchObject({ code: 'IMPORT_UNFINISHED' });
        }
      }

      expect(await runChorus(copy, settings(target))).toMatchObject({ code: 0 });
      const verified = await runChorus(['store:verify', '--against', sourceDir, '--json'], settings(target));
      expect(JSON.parse(verified.stdout)).toMatchObject({ equal: true, events: sourceEvents.length });
      const copied = await postgresLog(target.databaseUrl);
      expect(copied.events).toEqual(sourceEvents);
      expect(copied.keys).toEqual(await storedKeys(sourceDir));
      // Finished: the log's keys are built again and servers open it.
      const served = await PostgresEventStore.connect({ connectionString: target.databaseUrl });
      await served.close();

      // Backed up from PostgreSQL and killed at random moments: a folder cut short has no manifest, and no restore takes
      // it; a whole one holds the log exactly.
      const pgBackups = join(root, 'pg-backups');
      const backUp = ['store:backup', '--to', pgBackups, '--json'];
      const fullBackup = await timed(backUp, target);
      expect(fullBackup.run).toMatchObject({ code: 0 });
      log(`a full store:backup of PostgreSQL took ${fullBackup.ms} ms`);
      for (let round = 1; round <= 3; round += 1) await killedAfter(backUp, target, momentIn(0, fullBackup.ms));
      const folders = readdirSync(pgBackups, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(pgBackups, entry.name));
      const cutShort = folders.filter((folder) => !existsSync(join(folder, 'manifest.json')));
      log(
        `the kills left ${folders.length - 1} more backup folder(s) of PostgreSQL, ${cutShort.length} without manifest.json`,
      );
      for (const folder of cutShort) {
        const refused = await runChorus(['store:restore', '--from', folder, '--yes'], settings(freshDir('pg-refused')));
        expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('manifest.json') });
      }
      for (const folder of folders.filter((one) => !cutShort.includes(one))) {
        const verified = await runChorus(['store:verify', '--against', folder, '--json'], settings(target));
        expect(JSON.parse(verified.stdout)).toMatchObject({ equal: true, events: sourceEvents.length });
      }
    }, 300_000);
  },
);

/** Every event of an embedded store with its hash in the chain (null: not chained yet), as hex. */
async function chainOfStore(dataDir: string): Promise<Array<{ position: bigint; id: string; hash: string | null }>> {
  const store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  try {
    const events = await store.readChain(0n, 10_000_000);
    return events.map((event) => ({
      position: event.position,
      id: event.id,
      hash: event.hash?.toString('hex') ?? null,
    }));
  } finally {
    await store.close();
  }
}

describe('store:chain killed with SIGKILL', () => {
  it('gives the rest of the hashes on the next run, the same as a run left to end would have', async () => {
    const unchained = freshDir('unchained');
    await seedEventLog(unchained, organizations);
    const whole = freshDir('chained-whole');
    cpSync(unchained, whole, { recursive: true });
    const full = await timed(['store:chain', '--yes', '--json'], whole);
    expect(full.run).toMatchObject({ code: 0 });
    const expected = await chainOfStore(whole);
    expect(expected.every((event) => event.hash !== null)).toBe(true);
    log(`a full store:chain of ${expected.length} events took ${full.ms} ms`);

    for (let round = 1; round <= 3; round += 1) {
      await killedAfter(['store:chain', '--yes', '--json'], unchained, momentIn(0, full.ms));
      // Page by page, in log order: the hashes given are those of the run left to end, and no event after has one.
      const there = await chainOfStore(unchained);
      const firstUnchained = there.findIndex((event) => event.hash === null);
      const upTo = firstUnchained === -1 ? there.length : firstUnchained;
      log(`round ${round}: ${upTo} of ${there.length} events chained`);
      expect(there.slice(0, upTo)).toEqual(expected.slice(0, upTo));
      expect(there.slice(upTo)).toEqual(expected.slice(upTo).map((event) => ({ ...event, hash: null })));
    }
    expect(await runChorus(['store:chain', '--yes', '--json'], settings(unchained))).toMatchObject({ code: 0 });
    expect(await chainOfStore(unchained)).toEqual(expected);
    expect(await runChorus(['store:verify', '--json'], settings(unchained))).toMatchObject({ code: 0 });
  }, 300_000);
});

describe('store:backup and store:restore killed with SIGKILL', () => {
  let goodBackup: string;
  let restore: Timed<'opened' | 'copied'>;

  it('leaves a folder that no restore takes, and the next backup restores exactly', async () => {
    const measured = join(root, 'backup-measure');
    const inMeasured = () => (existsSync(measured) ? readdirSync(measured) : []);
    const full = await timed(['store:backup', '--to', measured, '--json'], sourceDir, {
      folder: () => inMeasured().length > 0,
      manifest: () => inMeasured().some((folder) => existsSync(join(measured, folder, 'manifest.json'))),
    });
    expect(full.run).toMatchObject({ code: 0 });
    rmSync(measured, { recursive: true, force: true });
    log(`a full store:backup took ${full.ms} ms, its folder there from ${full.at.folder} to ${full.at.manifest} ms`);

    // Anywhere, then while its folder is there without a manifest (a fraction of a second).
    await killedAfter(['store:backup', '--to', backupsDir, '--json'], sourceDir, momentIn(0, full.ms));
    const before = existsSync(backupsDir) ? readdirSync(backupsDir).length : 0;
    await killedAfter(
      ['store:backup', '--to', backupsDir, '--json'],
      sourceDir,
      momentIn(0, full.at.manifest - full.at.folder),
      { what: 'its folder was made', holds: () => existsSync(backupsDir) && readdirSync(backupsDir).length > before },
    );
    const folders = existsSync(backupsDir)
      ? readdirSync(backupsDir, { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(backupsDir, entry.name))
      : [];
    const cutShort = folders.filter((folder) => !existsSync(join(folder, 'manifest.json')));
    log(`the kills left ${folders.length} backup folder(s), ${cutShort.length} of them without manifest.json`);
    for (const folder of folders) {
      if (existsSync(join(folder, 'manifest.json'))) {
        // The kill came after the manifest: a whole backup, of the source's log.
        const verified = await runChorus(['store:verify', '--against', folder, '--json'], settings(sourceDir));
        expect(verified).toMatchObject({ code: 0 });
        continue;
      }
      const target = freshDir('refused');
      const refused = await runChorus(['store:restore', '--from', folder, '--yes'], settings(target));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('manifest.json');
      expect(existsSync(join(target, 'events.sqlite'))).toBe(false);
    }

    const taken = await runChorus(['store:backup', '--to', backupsDir, '--json'], settings(sourceDir));
    expect(taken).toMatchObject({ code: 0 });
    goodBackup = (JSON.parse(taken.stdout) as { folder: string }).folder;

    const target = freshDir('restored');
    // Its copy of the log runs from the target's opening to the removal of the backup's files in the clear.
    const inTmp = () => readdirSync(childTmp).length;
    const leftBefore = inTmp();
    let opened = false;
    restore = await timed(['store:restore', '--from', goodBackup, '--yes', '--json'], target, {
      opened: () => (opened ||= existsSync(join(target, 'events.sqlite'))),
      copied: () => opened && inTmp() === leftBefore,
    });
    expect(restore.run).toMatchObject({ code: 0 });
    log(
      `a full store:restore took ${restore.ms} ms, its copy of the log from ${restore.at.opened} to ${restore.at.copied} ms`,
    );
    expect(await storedEvents(target)).toEqual(sourceEvents);
    rmSync(target, { recursive: true, force: true });
  }, 300_000);

  it('is finished by running the same restore again, after kills within its copy and anywhere, exactly', async () => {
    const target = freshDir('restore-killed');
    const marker = join(target, 'restore-in-progress.json');
    const args = ['store:restore', '--from', goodBackup, '--yes', '--json'];
    // Within its copy of the log first, so that the second kill (anywhere) may land in a restore taken up part way.
    const rounds = [
      () =>
        killedAfter(args, target, momentIn(0, restore.at.copied - restore.at.opened), {
          what: 'the target was opened',
          holds: () => existsSync(join(target, 'events.sqlite')),
        }),
      () => killedAfter(args, target, momentIn(0, restore.ms)),
    ];
    let outcome: 'killed' | 'finished' = 'killed';
    for (const [index, round] of rounds.entries()) {
      outcome = await round();
      const left = await storedEvents(target);
      const leftKeys = await storedKeys(target);
      log(
        `round ${index + 1}: the restore left ${left.length} events and ${leftKeys.length} keys, ${existsSync(marker) ? 'marked' : 'unmarked'}`,
      );
      expect(left).toEqual(sourceEvents.slice(0, left.length));
      // Nothing is written before the mark, and the mark goes only once the restore is whole.
      if (outcome === 'killed' && (left.length > 0 || leftKeys.length > 0)) expect(existsSync(marker)).toBe(true);
    }

    if (outcome === 'killed') {
      if (existsSync(marker)) {
        // Meanwhile a restore to another point is refused, and changes nothing.
        const before = await storedEvents(target);
        const other = await runChorus([...args, '--to-position', '1'], settings(target));
        expect(other).toMatchObject({ code: 1, stderr: expect.stringContaining('cut short') });
        expect(await storedEvents(target)).toEqual(before);
      }
      const finished = await runChorus(args, settings(target));
      expect(finished).toMatchObject({ code: 0 });
      expect(JSON.parse(finished.stdout)).toMatchObject({
        events: sourceEvents.length,
        headPosition: String(sourceEvents.length),
        readModels: 'verified',
      });
    }
    expect(existsSync(marker)).toBe(false);
    // No copy of the backup in the clear is left behind: not in TMPDIR, not beside the store.
    expect(readdirSync(childTmp)).toEqual([]);
    expect(existsSync(join(target, '.restore-work'))).toBe(false);
    expect(await storedEvents(target)).toEqual(sourceEvents);
    // Every key and erasure of the backup as it was taken (the restore's own start may add keys of its own).
    const sourceKeys = await storedKeys(sourceDir);
    const subjects = new Set(sourceKeys.map((record) => record.subject));
    expect((await storedKeys(target)).filter((record) => subjects.has(record.subject))).toEqual(sourceKeys);
  }, 300_000);

  (postgresServer === undefined ? it.skip : it)(
    'into PostgreSQL: marks the database, so that no node serves it, and the same restore from another node finishes it',
    async () => {
      const databaseUrl = await (postgresServer as PostgresServer).createDatabase('restore_killed');
      const args = ['store:restore', '--from', goodBackup, '--yes', '--json'];
      // Killed once the mark says the log is copied: the log is whole there, its erasures and read models not yet.
      let copied = false;
      let looking = false;
      const watching = setInterval(() => {
        if (looking || copied) return;
        looking = true;
        void postgresRestoreMark(databaseUrl)
          .then((mark) => (copied = mark !== undefined && (JSON.parse(mark) as { copied?: boolean }).copied === true))
          .finally(() => (looking = false));
      }, 10);
      const outcome = await killedAfter(
        args,
        { dataDir: freshDir('pg-restore-node-a'), databaseUrl },
        momentIn(0, 200),
        {
          what: 'its copy was marked done',
          holds: () => copied,
        },
      );
      clearInterval(watching);
      expect(outcome).toBe('killed');
      expect((await postgresLog(databaseUrl)).events).toEqual(sourceEvents);

      // A node that never ran the restore: its DATA_DIR holds no mark, the database does.
      const otherNode = freshDir('pg-restore-node-b');
      const server = spawn(process.execPath, [join(repositoryRoot, 'dist', 'apps', 'api', 'src', 'main.js')], {
        cwd: repositoryRoot,
        env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: otherNode, DATABASE_URL: databaseUrl, PORT: '0' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      started.push(server);
      let stderr = '';
      server.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      expect(await new Promise((resolve) => server.once('exit', resolve))).toBe(1);
      expect(stderr).toContain(
        'a restore into it has not finished; run the same `chorus store:restore` again, from any node',
      );

      // The same restore, from that other node: taken up where it stopped, and the mark gone at its end.
      const finished = await runChorus(args, settings({ dataDir: otherNode, databaseUrl }));
      expect({ code: finished.code, stderr: finished.stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(finished.stdout)).toMatchObject({ events: sourceEvents.length, readModels: 'verified' });
      expect(await postgresRestoreMark(databaseUrl)).toBeUndefined();
      expect((await postgresLog(databaseUrl)).events).toEqual(sourceEvents);
    },
    300_000,
  );
});
