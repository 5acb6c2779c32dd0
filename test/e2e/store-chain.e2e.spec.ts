// The chain proves the embedded log (docs/history.md): `chorus store:verify` walks it and names the first position an
// edit made with SQL on events.sqlite touches, and what failed; an erasure, a store written before the chain once
// `store:chain` has run, and a restore leave it green; a signed checkpoint finds even an edit whose hashes were all
// given again, and a checkpoint changed or forged.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { newCommandContext } from '#application';
import { HistoryCheckpoints, PersonalDataErasure } from '#api';
import { CHAIN_GENESIS, chainLink, signCheckpoint } from '#event-store';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { ensureCliBuilt, runChorus, type ChorusRun } from '../support/chorus-cli.js';
import { httpClient } from '../support/http-client.js';
import { seedEventLog } from '../support/seed-event-log.js';

const root = mkdtempSync(join(tmpdir(), 'chorus-chain-'));
const sourceDir = join(root, 'source');
let serial = 0;
let app: AuthApp;
let checkpointAt = 0;

type Verdict = {
  proven: boolean;
  checked: number;
  provenTo: string | null;
  unchained: number;
  failedAt?: string;
  failure?: string;
  checkpoints: number;
  signedTo: string | null;
};

/** Checked with the source's key wherever the store is: copies and restores are checked as their source. */
const sourceKey = join(sourceDir, 'history-signing-key.pem');
const verify = (dataDir: string): Promise<ChorusRun> =>
  runChorus(['store:verify', '--json'], { DATA_DIR: dataDir, HISTORY_SIGNING_KEY: sourceKey });
const verdictOf = (run: ChorusRun): Verdict => JSON.parse(run.stdout) as Verdict;

/** A copy of the source's files, edited with SQL as an intruder with the file would, the append-only trigger dropped. */
function tampered(sql: string): string {
  const dataDir = join(root, `tampered-${(serial += 1)}`);
  copyDir(dataDir);
  const db = new Database(join(dataDir, 'events.sqlite'));
  db.exec('DROP TRIGGER IF EXISTS events_are_never_changed; DROP TRIGGER IF EXISTS events_are_never_deleted;');
  db.exec(sql);
  db.close();
  return dataDir;
}

/** What an intruder who knows the encoding does after an edit: every hash given again, so the chain itself holds. */
function rechainWhole(db: Database.Database): void {
  const rows = db
    .prepare(
      'SELECT position, stream_id, revision, event_id, type, data, metadata, recorded_at FROM events ORDER BY position',
    )
    .raw()
    .safeIntegers()
    .all() as [bigint, string, bigint, string, string, string, string, string][];
  const update = db.prepare('UPDATE events SET hash = ? WHERE position = ?');
  let previous = CHAIN_GENESIS;
  for (const [position, streamId, revision, id, type, data, metadata, recordedAt] of rows) {
    previous = chainLink(previous, { position, streamId, revision, id, type, data, metadata, recordedAt });
    update.run(previous, position);
  }
}

/** The source's two files, each whole: their WAL folded in first. */
function copyDir(to: string): void {
  mkdirSync(to, { recursive: true });
  for (const file of ['events.sqlite', 'personal-keys.sqlite']) {
    const db = new Database(join(sourceDir, file));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    copyFileSync(join(sourceDir, file), join(to, file));
  }
}

beforeAll(async () => {
  ensureCliBuilt();
  app = await startAuthApp({ DATA_DIR: sourceDir, LOG_LEVEL: 'warn' });
  const ownerId = await app.createUser({ email: 'owner@chain.example', password: 'correct horse battery staple' });
  const organizationId = await app.createOrganization(
    'Chained Co',
    { userId: ownerId, email: 'owner@chain.example' },
    'enterprise',
  );
  const api = httpClient(app.baseUrl, {
    apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write']),
  });
  for (let index = 0; index < 12; index += 1) {
    const added = await api.post(`/organizations/${organizationId}/members`, {
      email: `m${index}@chain.example`,
      role: 'member',
    });
    expect(added.status).toBe(201);
  }
  // An erasure deletes a key, never an event: the history stays provable.
  const erased = await app.createUser({ email: 'leaving@chain.example', password: 'correct horse battery staple' });
  await app.app.get(PersonalDataErasure).erase(erased, newCommandContext('cli'));
  // A checkpoint, then more events after it.
  checkpointAt = Number((await app.app.get(HistoryCheckpoints).sign('on-demand')).position);
  for (let index = 12; index < 15; index += 1)
    await api.post(`/organizations/${organizationId}/members`, { email: `m${index}@chain.example`, role: 'member' });
  await app.close();
}, 120_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('chorus store:verify', () => {
  let head = 0;

  it('proves an untouched log whole, an erasure in it', async () => {
    const run = await verify(sourceDir);
    expect(run.code).toBe(0);
    const verdict = verdictOf(run);
    expect(verdict).toMatchObject({ proven: true, unchained: 0 });
    expect(verdict.checked).toBeGreaterThan(20);
    expect(verdict.provenTo).toBe(String(verdict.checked));
    head = verdict.checked;
    expect(verdict).toMatchObject({ checkpoints: 1, signedTo: String(checkpointAt) });
    const text = await runChorus(['store:verify'], { DATA_DIR: sourceDir });
    expect(text.stdout).toContain(`The log is proven up to position ${head}`);
    expect(text.stdout).toContain(`1 signed checkpoint holds; the latest, signed at`);
  }, 60_000);

  it('finds an event changed before the checkpoint even when every hash is given again, at the checkpoint', async () => {
    const at = Math.floor(checkpointAt / 2);
    const dataDir = tampered(
      `UPDATE events SET metadata = json_set(metadata, '$.actor', 'user:intruder') WHERE position = ${at}`,
    );
    const db = new Database(join(dataDir, 'events.sqlite'));
    rechainWhole(db);
    db.close();
    const run = await verify(dataDir);
    expect(run.code).toBe(1);
    expect(verdictOf(run)).toMatchObject({
      proven: false,
      failedAt: String(checkpointAt + 1),
      failure: expect.stringContaining(
        `whose hash there is not the chain's: the log was changed at or before position ${checkpointAt}`,
      ),
    });
    // Without the key to check it with, the same log proves only its chain, and says its checkpoint is unchecked.
    const unchecked = await runChorus(['store:verify', '--json'], { DATA_DIR: dataDir });
    expect(verdictOf(unchecked)).toMatchObject({ proven: true, checkpoints: 1, signedTo: null });
  }, 60_000);

  it("finds a checkpoint's signed fields changed, or a checkpoint forged with another key, at its position", async () => {
    const changedTime = tampered(
      `UPDATE events SET data = json_set(data, '$.time', '2030-01-01T00:00:00.000Z') WHERE stream_id = 'history-checkpoints'`,
    );
    const changed = new Database(join(changedTime, 'events.sqlite'));
    rechainWhole(changed);
    changed.close();
    expect(verdictOf(await verify(changedTime))).toMatchObject({
      proven: false,
      failedAt: String(checkpointAt + 1),
      failure: expect.stringContaining('signature does not hold'),
    });

    // A checkpoint of the head, signed with the intruder's own key, appended with its hash.
    const forgedDir = tampered('SELECT 1');
    const forged = new Database(join(forgedDir, 'events.sqlite'));
    const [position, hash] = forged
      .prepare('SELECT position, hash FROM events ORDER BY position DESC LIMIT 1')
      .raw()
      .safeIntegers()
      .get() as [bigint, Buffer];
    const id = randomUUID();
    const data = JSON.stringify(
      signCheckpoint(
        generateKeyPairSync('ed25519').privateKey,
        { id, position: position.toString(), hash: hash.toString('hex'), time: new Date().toISOString() },
        'on-demand',
      ),
    );
    const recordedAt = new Date().toISOString();
    const fields = {
      position: position + 1n,
      streamId: 'history-checkpoints',
      revision: 1n,
      id,
      type: 'HistoryCheckpointSigned',
      data,
      metadata: '{"actor":"system"}',
      recordedAt,
    };
    forged
      .prepare(
        'INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        fields.position,
        fields.streamId,
        fields.revision,
        id,
        fields.type,
        data,
        fields.metadata,
        recordedAt,
        chainLink(hash, fields),
      );
    forged.close();
    expect(verdictOf(await verify(forgedDir))).toMatchObject({
      proven: false,
      failedAt: String(position + 1n),
      failure: expect.stringContaining('which is neither the key given'),
    });
  }, 60_000);

  it.each([
    [
      'a byte of its data',
      // One character of the stored text, whatever it holds (its personal data is sealed).
      "UPDATE events SET data = substr(data, 1, 9) || (CASE substr(data, 10, 1) WHEN 'a' THEN 'b' ELSE 'a' END) || substr(data, 11) WHERE position = @at",
      'its hash does not match',
    ],
    [
      'its metadata',
      "UPDATE events SET metadata = json_set(metadata, '$.actor', 'user:intruder') WHERE position = @at",
      'its hash does not match',
    ],
    ['its type', "UPDATE events SET type = 'MemberRoleChanged' WHERE position = @at", 'its hash does not match'],
    [
      'its time',
      "UPDATE events SET recorded_at = '2020-01-01T00:00:00.000Z' WHERE position = @at",
      'its hash does not match',
    ],
  ])(
    'finds %s changed, naming the position',
    async (_what, sql, reason) => {
      const at = Math.floor(head / 2);
      const dataDir = tampered(sql.replace('@at', String(at)));
      const run = await verify(dataDir);
      expect(run.code).toBe(1);
      expect(verdictOf(run)).toMatchObject({
        proven: false,
        failedAt: String(at),
        provenTo: String(at - 1),
        failure: expect.stringContaining(reason),
      });
    },
    60_000,
  );

  it('finds an event removed, at the one after it, and says it is missing', async () => {
    const at = Math.floor(head / 2);
    const run = await verify(tampered(`DELETE FROM events WHERE position = ${at}`));
    expect(run.code).toBe(1);
    expect(verdictOf(run)).toMatchObject({
      failedAt: String(at + 1),
      failure: `the events before it, from position ${at}, are missing: removed`,
    });
    const text = await runChorus(['store:verify'], { DATA_DIR: join(root, `tampered-${serial}`) });
    expect(text.stdout).toContain(`The log fails at position ${at + 1}`);
  }, 60_000);

  it('finds an event inserted, and two events swapped, at the first position they touch', async () => {
    const at = Math.floor(head / 2);
    // Everything from `at` moved one place on (from the end, so no position is taken twice), and a copy of the
    // event before put at `at`.
    const inserted = tampered(
      `UPDATE events SET position = position + 1000000 WHERE position >= ${at};
       UPDATE events SET position = position - 999999 WHERE position >= 1000000;
       INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at, hash)
         SELECT ${at}, stream_id || '-forged', revision, event_id, type, data, metadata, recorded_at, hash
         FROM events WHERE position = ${at - 1};`,
    );
    expect(verdictOf(await verify(inserted))).toMatchObject({ proven: false, failedAt: String(at) });

    const swapped = tampered(
      `UPDATE events SET position = -1 WHERE position = ${at};
       UPDATE events SET position = ${at} WHERE position = ${at + 1};
       UPDATE events SET position = ${at + 1} WHERE position = -1;`,
    );
    const run = await verify(swapped);
    expect(run.code).toBe(1);
    expect(verdictOf(run)).toMatchObject({ proven: false, failedAt: String(at) });
  }, 60_000);
});

describe('chorus store:chain', () => {
  it('chains a store written before the chain, which store:verify then proves; store:verify names it before', async () => {
    const dataDir = join(root, 'before-the-chain');
    await seedEventLog(dataDir, 5);
    const before = await verify(dataDir);
    expect(before.code).toBe(1);
    expect(verdictOf(before)).toMatchObject({ proven: false, checked: 0, unchained: 40 });
    const words = await runChorus(['store:verify'], { DATA_DIR: dataDir });
    expect(words.stdout).toContain('run chorus store:chain --yes');

    expect((await runChorus(['store:chain'], { DATA_DIR: dataDir })).code).toBe(2);
    const chained = await runChorus(['store:chain', '--yes', '--json'], { DATA_DIR: dataDir });
    expect(chained.code).toBe(0);
    expect(JSON.parse(chained.stdout)).toEqual({ chained: 40, headPosition: '40' });
    expect(verdictOf(await verify(dataDir))).toMatchObject({ proven: true, checked: 40 });
    const again = await runChorus(['store:chain', '--yes'], { DATA_DIR: dataDir });
    expect(again.stdout).toContain('was chained already, up to position 40');
  }, 60_000);

  it('leaves a copy provable, chained as its source was', async () => {
    const copyDir = join(root, 'copied');
    const copy = await runChorus(['store:copy', '--from', sourceDir, '--json'], { DATA_DIR: copyDir });
    expect(copy.code).toBe(0);
    const [source, target] = [verdictOf(await verify(sourceDir)), verdictOf(await verify(copyDir))];
    expect(target).toEqual(source);
    expect(target).toMatchObject({ proven: true });
  }, 120_000);

  it('keeps a source changed behind its chain as it is: the copy fails store:verify where the source does', async () => {
    // After the last checkpoint, where only the chain can tell: a copy that chained the events again would mend it.
    const edited = tampered(`UPDATE events SET data = data || ' ' WHERE position = (SELECT max(position) FROM events)`);
    const source = verdictOf(await verify(edited));
    expect(source).toMatchObject({ proven: false });
    expect(Number(source.failedAt)).toBeGreaterThan(checkpointAt);
    const copyDir = join(root, 'copied-changed');
    expect((await runChorus(['store:copy', '--from', edited, '--json'], { DATA_DIR: copyDir })).code).toBe(0);

    const copied = await verify(copyDir);

    expect(copied.code).toBe(1);
    expect(verdictOf(copied)).toEqual(source);
  }, 120_000);

  it('leaves a restored backup provable', async () => {
    const backups = join(root, 'backups');
    const backup = await runChorus(['store:backup', '--json'], { DATA_DIR: sourceDir, BACKUP_DIR: backups });
    expect(backup.code).toBe(0);
    const restoredDir = join(root, 'restored');
    const restore = await runChorus(['store:restore', '--from', JSON.parse(backup.stdout).folder, '--yes'], {
      DATA_DIR: restoredDir,
      BACKUP_DIR: backups,
    });
    expect(restore.code).toBe(0);
    expect(verdictOf(await verify(restoredDir))).toMatchObject({
      proven: true,
      unchained: 0,
      checkpoints: 1,
      signedTo: String(checkpointAt),
    });
  }, 120_000);
});
