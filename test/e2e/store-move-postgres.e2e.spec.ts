// The move docs/operations.md describes, for real: an embedded store copied into PostgreSQL while it serves, a last
// copy once its writers stop, verified, then two nodes serving the copied organizations on PostgreSQL. And backups
// of PostgreSQL: restored into the embedded store exactly, and into a new database with a later erasure done again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newCommandContext, type PersonalKeys } from '#application';
import { personSubject } from '#domain';
import { PERSONAL_KEYS, SqliteEventStore, type ExactLog, type StoredEvent } from '#event-store';
import { PersonalDataErasure } from '#api';
import { PostgresEventStore } from '../../libs/event-store/src/postgres-event-store.js';
import { startPostgresServer, type PostgresServer } from '../../libs/event-store/src/testing/postgres-server.js';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { ensureCliBuilt, runChorus } from '../support/chorus-cli.js';
import { httpClient, type HttpClient } from '../support/http-client.js';

const started = await startPostgresServer();
const server: PostgresServer | undefined = 'server' in started ? started.server : undefined;
if ('skip' in started) process.stdout.write(`PostgreSQL move suite SKIPPED: ${started.skip}.\n`);

const password = 'correct horse battery staple';
const owner = 'owner@move.example';
const root = mkdtempSync(join(tmpdir(), 'chorus-move-'));
const backups = join(root, 'backups');
const sourceDir = join(root, 'embedded');

async function exported(log: ExactLog & { close(): Promise<void> }, last?: bigint): Promise<StoredEvent[]> {
  try {
    const events = await log.exportEvents(0n, 10_000_000);
    return last === undefined ? events : events.filter((event) => event.position <= last);
  } finally {
    await log.close();
  }
}
const embeddedEvents = (dataDir: string, last?: bigint) =>
  exported(SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') }), last);
const postgresEvents = async (url: string, last?: bigint) =>
  exported(await PostgresEventStore.connect({ connectionString: url }), last);

(server === undefined ? describe.skip : describe)('from the embedded store to PostgreSQL, and back', () => {
  let source: AuthApp;
  let api: HttpClient;
  let organizationId: string;
  let databaseUrl: string;
  const nodeDirs = [join(root, 'node-a'), join(root, 'node-b')];

  beforeAll(async () => {
    ensureCliBuilt();
    databaseUrl = await (server as PostgresServer).createDatabase('chorus_move');
    source = await startAuthApp({ DATA_DIR: sourceDir, BACKUP_DIR: backups, LOG_LEVEL: 'warn' });
    const ownerId = await source.createUser({ email: owner, password });
    organizationId = await source.createOrganization('Moving Ltd', { userId: ownerId, email: owner }, 'enterprise');
    api = httpClient(source.baseUrl, { apiKey: await createApiKey(source.app, ['organizations:write']) });
  }, 120_000);

  afterAll(async () => {
    await source?.close();
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('copies while the source serves, takes the rest once its writers stop, and the logs verify equal', async () => {
    const onNodeA = { DATA_DIR: nodeDirs[0] as string, DATABASE_URL: databaseUrl };
    let adding = true;
    const answers: number[] = [];
    const writer = (async () => {
      for (let index = 0; adding || index < 5; index += 1)
        answers.push(
          (
            await api.post(`/organizations/${organizationId}/members`, {
              email: `m${index}@move.example`,
              role: 'member',
            })
          ).status,
        );
    })();
    const whileServing = await runChorus(['store:copy', '--from', sourceDir, '--json'], onNodeA);
    adding = false;
    await writer;
    expect(whileServing).toMatchObject({ code: 0 });
    expect(answers.every((status) => status === 201)).toBe(true);

    // The writers stopped (here: no more adds): the last run takes what they wrote during the first.
    const stoppedAt = Date.now();
    const last = await runChorus(['store:copy', '--from', sourceDir, '--json'], onNodeA);
    const verified = await runChorus(['store:verify', '--against', sourceDir, '--json'], onNodeA);
    process.stdout.write(`The move's last copy and verify took ${Date.now() - stoppedAt} ms.\n`);
    expect(last).toMatchObject({ code: 0 });
    expect(JSON.parse(last.stdout)).toMatchObject({ alreadyThere: expect.any(Number) });
    expect(verified).toMatchObject({ code: 0 });
    expect(JSON.parse(verified.stdout)).toMatchObject({ equal: true });
    expect(await postgresEvents(databaseUrl)).toEqual(await embeddedEvents(sourceDir));
  }, 180_000);

  it('serves the copied organizations from two nodes on PostgreSQL: the old password signs in, History is there', async () => {
    const nodes = await Promise.all(
      nodeDirs.map((dataDir) => startAuthApp({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' })),
    );
    try {
      for (const node of nodes) {
        const browser = await node.signedIn(owner, password);
        expect((await browser.get(`/organizations/${organizationId}`)).body).toMatchObject({ name: 'Moving Ltd' });
        const history = await browser.get(`/organizations/${organizationId}/history/export?format=jsonl`);
        expect(history.status).toBe(200);
        expect(history.text).toContain('m0@move.example');
      }
      // A write on one node after the move, read on the other.
      const browser = await (nodes[0] as AuthApp).signedIn(owner, password);
      const added = await browser.post(`/organizations/${organizationId}/members`, {
        email: 'after-the-move@move.example',
        role: 'member',
      });
      expect(added.status).toBe(201);
      const onB = await (nodes[1] as AuthApp).signedIn(owner, password);
      const read = await onB.get(`/organizations/${organizationId}`, {
        headers: { 'Chorus-Min-Position': String(added.body.position) },
      });
      expect(JSON.stringify(read.body)).toContain('after-the-move@move.example');
    } finally {
      for (const node of nodes) await node.close();
    }
  }, 120_000);

  it('backs PostgreSQL up while it serves, restores into the embedded store exactly, and erases again whoever was erased after', async () => {
    const node = await startAuthApp({
      DATA_DIR: nodeDirs[0] as string,
      DATABASE_URL: databaseUrl,
      BACKUP_DIR: backups,
      LOG_LEVEL: 'warn',
    });
    try {
      const leaving = 'leaving@move.example';
      const leavingId = await node.createUser({ email: leaving, password });
      const browser = await node.signedIn(owner, password);
      expect(
        (await browser.post(`/organizations/${organizationId}/members`, { email: leaving, role: 'member' })).status,
      ).toBe(201);

      const backup = await runChorus(['store:backup', '--json'], {
        DATA_DIR: nodeDirs[0] as string,
        DATABASE_URL: databaseUrl,
        BACKUP_DIR: backups,
      });
      expect(backup).toMatchObject({ code: 0 });
      const taken = JSON.parse(backup.stdout) as { folder: string; headPosition: string; storeKind: string };
      expect(taken.storeKind).toBe('postgres');

      await node.app.get(PersonalDataErasure).erase(leavingId, newCommandContext('cli'));

      const embedded = join(root, 'restored-embedded');
      const intoEmbedded = await runChorus(['store:restore', '--from', taken.folder, '--yes', '--json'], {
        DATA_DIR: embedded,
        BACKUP_DIR: backups,
      });
      expect(intoEmbedded).toMatchObject({ code: 0 });
      expect(JSON.parse(intoEmbedded.stdout)).toMatchObject({ erasedAgain: [leavingId] });
      const head = BigInt(taken.headPosition);
      expect((await embeddedEvents(embedded)).filter((event) => event.position <= head)).toEqual(
        await postgresEvents(databaseUrl, head),
      );

      const restoredUrl = await (server as PostgresServer).createDatabase('chorus_restored');
      const restoredDir = join(root, 'restored-postgres');
      const intoPostgres = await runChorus(['store:restore', '--from', taken.folder, '--yes', '--json'], {
        DATA_DIR: restoredDir,
        DATABASE_URL: restoredUrl,
        BACKUP_DIR: backups,
      });
      expect(intoPostgres).toMatchObject({ code: 0 });
      const restored = await startAuthApp({ DATA_DIR: restoredDir, DATABASE_URL: restoredUrl, LOG_LEVEL: 'warn' });
      try {
        expect((await restored.app.get<PersonalKeys>(PERSONAL_KEYS).find([personSubject(leavingId)])).size).toBe(0);
        const signedIn = await restored.signedIn(owner, password);
        const history = await signedIn.get(`/organizations/${organizationId}/history/export?format=jsonl`);
        expect(history.status).toBe(200);
        expect(history.text).toContain('m0@move.example');
        expect(history.text).not.toContain(leaving);
      } finally {
        await restored.close();
      }
    } finally {
      await node.close();
    }
  }, 240_000);
});
