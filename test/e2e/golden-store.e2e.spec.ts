// A store written by an earlier build (test/fixtures/golden-store, every organization event type and a person's
// life in the product) is read by today's code into the same read models, states, changes and history sentences
// as the build it was recorded with (golden.json). A change of an event's shape adds an upcaster and keeps this
// green; a change of the words is a reviewed change of golden.json (GOLDEN_RECORD=1 rewrites it).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IDENTITY } from '#api';
import type { Identity } from '#identity';
import Database from 'better-sqlite3';
import { Browser } from '../support/browser.js';
import { ensureCliBuilt, runChorus } from '../support/chorus-cli.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { expectGolden, goldenFile, readings, restoreGoldenStore, scenario } from '../support/golden-store.js';

let dataDir: string;
let running: RunningApp;
let api: HttpClient;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-golden-'));
  restoreGoldenStore(dataDir);
  running = await startApp({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs',
  });
  api = httpClient(running.baseUrl, { apiKey: scenario.reader });
}, 60_000);

afterAll(async () => {
  await running.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the golden store', () => {
  it('reads into the same read models, states, changes and history as the build that recorded golden.json', async () => {
    const read = await readings(api);
    if (process.env.GOLDEN_RECORD === '1') writeFileSync(goldenFile, `${JSON.stringify(read, null, 2)}\n`);
    expect(read).toEqual(JSON.parse(readFileSync(goldenFile, 'utf8')));
  });

  it('is read in current shapes: an owner reset from before the rule reads as one made by an owner alone', async () => {
    const [, grace] = scenario.userIds;
    const stream = await running.store.readStream(`user-${grace}`);
    const reset = stream.found ? stream.events.find((event) => event.type === 'SecondFactorsReset') : undefined;
    expect(reset?.metadata.schemaVersion).toBeUndefined();
    expect(reset?.data).toMatchObject({ authority: 'owner-alone' });
  });

  it('is an older store: its people sign in by the claims it holds, and a new address is claimed under a keyed name', async () => {
    const names = running.app.get<Identity>(IDENTITY).identifierNames;
    expect(names.readsLegacyNames).toBe(true);
    expect(running.logs.map((line) => line.msg)).toContainEqual(
      expect.stringContaining('`chorus store:seal-personal-data` will seal it'),
    );

    const browser = new Browser(running.baseUrl);
    await browser.open('/login');
    expect(
      (await browser.post('/login', { username: 'grace@golden.example', password: 'correct horse battery staple' }))
        .status,
    ).toBe(204);

    const fresh = await names.streamOf('email', 'someone-new@golden.example');
    expect(fresh).not.toBe(await names.streamOf('email', 'grace@golden.example'));
    expect(fresh).not.toContain(createHash('sha256').update('someone-new@golden.example').digest('hex'));
  });
});

describe('the golden store, sealed by `chorus store:seal-personal-data`', () => {
  const settings = () => ({ DATA_DIR: sealedDir, PERSONAL_DATA_RETENTION_DAYS: '3650' });
  const storeBytes = (): string =>
    ['events.sqlite', 'events.sqlite-wal']
      .map((name) => join(sealedDir, name))
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file).toString('latin1'))
      .join('');
  const inClear = [
    'grace@golden.example',
    'ada@golden.example',
    'linus@golden.example',
    '"userAgent":"node"',
    '"clientIp":"127.0.0.1"',
  ];
  let sealedDir: string;

  beforeAll(() => {
    ensureCliBuilt();
    sealedDir = mkdtempSync(join(tmpdir(), 'chorus-golden-sealed-'));
    restoreGoldenStore(sealedDir);
  });
  afterAll(() => rmSync(sealedDir, { recursive: true, force: true }));

  it('is refused without --yes, and changes nothing', async () => {
    const refused = await runChorus(['store:seal-personal-data'], settings());
    expect({ code: refused.code, stderr: refused.stderr }).toEqual({
      code: 2,
      stderr: expect.stringContaining('stop every server of this store, then add --yes'),
    });
    for (const value of inClear) expect(storeBytes()).toContain(value);
  });

  it('seals every personal value in place: none is left in the store file, every event keeps its position, id and time', async () => {
    const before = envelopes();
    const sealed = await runChorus(['store:seal-personal-data', '--yes', '--json'], settings());
    expect(sealed).toMatchObject({ code: 0 });
    expect(JSON.parse(sealed.stdout)).toEqual({
      sealed: true,
      examined: 97,
      rewritten: expect.any(Number),
      renamedStreams: expect.any(Number),
      // Written before the chain: there is none to give again. store:chain gives it one, over the sealed bytes.
      rechainedFrom: null,
      checkpoint: null,
    });
    expect(JSON.parse(sealed.stdout).renamedStreams).toBeGreaterThanOrEqual(5);

    const text = storeBytes();
    for (const value of inClear) expect(text).not.toContain(value);
    const after = envelopes();
    expect(after.map(({ streamId: _renamed, ...rest }) => rest)).toEqual(
      before.map(({ streamId: _renamed, ...rest }) => rest),
    );
    // A claim's stream is no longer named by a hash anyone can compute from a guessed address.
    expect(after.map((event) => event.streamId)).not.toContain(
      `identity-email-${createHash('sha256').update('grace@golden.example').digest('hex')}`,
    );

    // A store written before the chain: store:verify names store:chain, which then makes the sealed log provable.
    expect(await runChorus(['store:verify'], settings())).toMatchObject({
      code: 1,
      stdout: expect.stringContaining('run chorus store:chain --yes'),
    });
    expect(await runChorus(['store:chain', '--yes'], settings())).toMatchObject({ code: 0 });
    expect(await runChorus(['store:verify'], settings())).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('The log is proven up to position 97'),
    });
  });

  it('is safe to run again: the store is sealed already', async () => {
    const again = await runChorus(['store:seal-personal-data', '--yes'], settings());
    expect({ code: again.code, stdout: again.stdout }).toEqual({
      code: 0,
      stdout: 'This store is sealed already: nothing to do.\n',
    });
  });

  it('reads as it did before: the same read models, states, changes and history; its people sign in', async () => {
    const sealedApp = await startApp({
      ...settings(),
      LOG_LEVEL: 'silent',
      PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs',
    });
    try {
      expect(sealedApp.app.get<Identity>(IDENTITY).identifierNames.readsLegacyNames).toBe(false);
      await expectGolden(sealedApp.baseUrl);
    } finally {
      await sealedApp.close();
    }
  }, 60_000);

  function envelopes(): {
    position: number;
    streamId: string;
    revision: number;
    id: string;
    type: string;
    recordedAt: string;
  }[] {
    const db = new Database(join(sealedDir, 'events.sqlite'), { readonly: true });
    try {
      return db
        .prepare(
          'SELECT position, stream_id AS streamId, revision, event_id AS id, type, recorded_at AS recordedAt FROM events ORDER BY position',
        )
        .all() as never;
    } finally {
      db.close();
    }
  }
});

describe('the golden store chained and signed before it is sealed', () => {
  let chainedDir: string;
  const settings = () => ({ DATA_DIR: chainedDir, PERSONAL_DATA_RETENTION_DAYS: '3650' });
  type Verdict = { proven: boolean; checkpoints: number; signedTo: string | null; failedAt?: string; failure?: string };
  const verdict = async (): Promise<{ code: number | null; verdict: Verdict }> => {
    const run = await runChorus(['store:verify', '--json'], settings());
    return { code: run.code, verdict: JSON.parse(run.stdout) as Verdict };
  };

  beforeAll(() => {
    ensureCliBuilt();
    chainedDir = mkdtempSync(join(tmpdir(), 'chorus-golden-chained-'));
    restoreGoldenStore(chainedDir);
  });
  afterAll(() => rmSync(chainedDir, { recursive: true, force: true }));

  it('records the re-chain in the log with a signed checkpoint, which sets aside the one that signed the bytes in clear', async () => {
    expect(await runChorus(['store:chain', '--yes'], settings())).toMatchObject({ code: 0 });
    const before = await runChorus(['history:checkpoint', '--json'], settings());
    expect(before.code).toBe(0);
    const first = JSON.parse(before.stdout) as { position: string; reason: string };
    expect(first).toMatchObject({ position: '97', reason: 'on-demand' });

    const sealed = await runChorus(['store:seal-personal-data', '--yes', '--json'], settings());
    expect(sealed.code).toBe(0);
    const answer = JSON.parse(sealed.stdout) as {
      rechainedFrom: string | null;
      checkpoint: { position: string; reason: string; rechainedFrom: string };
    };
    expect(answer.rechainedFrom).not.toBeNull();
    expect(answer.checkpoint).toMatchObject({ reason: 'rechain', rechainedFrom: answer.rechainedFrom, position: '98' });
    expect(await verdict()).toEqual({
      code: 0,
      verdict: expect.objectContaining({ proven: true, checkpoints: 2, signedTo: '98' }),
    });

    // Without the re-chain's checkpoint, the first one signs a hash the chain no longer has.
    const db = new Database(join(chainedDir, 'events.sqlite'));
    db.exec('DROP TRIGGER IF EXISTS events_are_never_deleted');
    db.prepare(
      "DELETE FROM events WHERE stream_id = 'history-checkpoints' AND json_extract(data, '$.reason') = 'rechain'",
    ).run();
    db.close();
    expect(await verdict()).toEqual({
      code: 1,
      verdict: expect.objectContaining({
        proven: false,
        failedAt: '98',
        failure: expect.stringContaining('whose hash there is not the chain'),
      }),
    });
  }, 120_000);
});

describe('the golden store, backed up while it serves, restored, and copied', () => {
  const golden = { PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs' };
  let work: string;

  beforeAll(() => {
    ensureCliBuilt();
    work = mkdtempSync(join(tmpdir(), 'chorus-golden-backup-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('reads into the same read models, states, changes and history after the round trip; its people sign in', async () => {
    const backup = await runChorus(['store:backup', '--to', join(work, 'backups'), '--json'], { DATA_DIR: dataDir });
    expect(backup).toMatchObject({ code: 0 });
    const restoredDir = join(work, 'restored');
    const restored = await runChorus(
      ['store:restore', '--from', (JSON.parse(backup.stdout) as { folder: string }).folder, '--yes'],
      { DATA_DIR: restoredDir, ...golden },
    );
    expect(restored).toMatchObject({ code: 0 });
    const copiedDir = join(work, 'copied');
    const copied = await runChorus(['store:copy', '--from', restoredDir], { DATA_DIR: copiedDir, ...golden });
    expect(copied).toMatchObject({ code: 0 });
    expect(await runChorus(['store:verify', '--against', dataDir], { DATA_DIR: copiedDir })).toMatchObject({ code: 0 });

    const copy = await startApp({ DATA_DIR: copiedDir, LOG_LEVEL: 'silent', ...golden });
    try {
      await expectGolden(copy.baseUrl);
    } finally {
      await copy.close();
    }
  }, 120_000);
});
