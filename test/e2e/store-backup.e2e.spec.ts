// Backups taken while a server writes, restored exactly (docs/operations.md): the real `chorus` command line against
// an embedded store that a running server keeps writing to. A restored store serves: the old passwords sign in, the
// organizations and their History are there, and the people erased after the backup stay erased.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newCommandContext, type PersonalKeys } from '#application';
import { personSubject } from '#domain';
import { PERSONAL_KEYS, SqliteEventStore, type StoredEvent } from '#event-store';
import { erasuresFileOf, PersonalDataErasure } from '#api';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { ensureCliBuilt, runChorus } from '../support/chorus-cli.js';
import { httpClient, type HttpClient } from '../support/http-client.js';

const password = 'correct horse battery staple';
const owner = 'owner@backup.example';
const root = mkdtempSync(join(tmpdir(), 'chorus-backup-'));
const backups = join(root, 'backups');
const sourceDir = join(root, 'source');
let serial = 0;
const freshDir = (): string => join(root, `restored-${(serial += 1)}`);
const settings = (dataDir: string, more: Record<string, string> = {}): Record<string, string> => ({
  DATA_DIR: dataDir,
  BACKUP_DIR: backups,
  ...more,
});

let source: AuthApp;
let api: HttpClient;
let organizationId: string;

/** Every event of an embedded store, exactly as stored, up to `last`. */
async function storedEvents(dataDir: string, last?: bigint): Promise<StoredEvent[]> {
  const store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  try {
    const events = await store.exportEvents(0n, 1_000_000);
    return last === undefined ? events : events.filter((event) => event.position <= last);
  } finally {
    await store.close();
  }
}

type Backup = { folder: string; headPosition: string; eventCount: number; encryption: unknown; files: object };

async function backUp(more: Record<string, string> = {}): Promise<Backup> {
  const run = await runChorus(['store:backup', '--json'], settings(sourceDir, more));
  if (run.code !== 0) throw new Error(`store:backup exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Backup;
}

async function addMember(email: string): Promise<number> {
  return (await api.post(`/organizations/${organizationId}/members`, { email, role: 'member' })).status;
}

beforeAll(async () => {
  ensureCliBuilt();
  source = await startAuthApp(settings(sourceDir, { LOG_LEVEL: 'warn' }));
  const ownerId = await source.createUser({ email: owner, password });
  organizationId = await source.createOrganization('Kept Safe Ltd', { userId: ownerId, email: owner }, 'enterprise');
  api = httpClient(source.baseUrl, {
    apiKey: await createApiKey(source.app, ['organizations:read', 'organizations:write', 'audit:read']),
  });
  // The writers below add for as long as a backup takes: on a busy machine that passed the plan's 1,000 users.
  expect((await api.put(`/organizations/${organizationId}/limits`, { users: 0 })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await source?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('chorus store:backup and store:restore', () => {
  let taken: Backup;
  let restoredDir: string;

  it('takes a backup while members are added, and every add is answered', async () => {
    let adding = true;
    const answers: number[] = [];
    const writers = Array.from({ length: 3 }, async (_, writer) => {
      for (let index = 0; adding || index < 5; index += 1)
        answers.push(await addMember(`w${writer}-${index}@backup.example`));
    });
    taken = await backUp();
    adding = false;
    await Promise.all(writers);

    expect(answers.length).toBeGreaterThan(10);
    expect(answers.every((status) => status === 201)).toBe(true);
    expect(taken).toMatchObject({ encryption: null, headPosition: expect.stringMatching(/^\d+$/) });
    expect(Object.keys(taken.files).sort()).toEqual([
      'events.sqlite',
      'personal-keys.sqlite',
      'secrets/session-secret',
    ]);
    expect(existsSync(join(taken.folder, 'manifest.json'))).toBe(true);
  }, 120_000);

  it('restores exactly the events up to the head the manifest names: positions, ids, streams, revisions, types, times, data and metadata', async () => {
    restoredDir = freshDir();
    const run = await runChorus(['store:restore', '--from', taken.folder, '--yes', '--json'], settings(restoredDir));
    expect(run).toMatchObject({ code: 0 });
    expect(JSON.parse(run.stdout)).toMatchObject({ headPosition: taken.headPosition, readModels: 'verified' });

    const head = BigInt(taken.headPosition);
    const expected = await storedEvents(sourceDir, head);
    expect(expected).toHaveLength(taken.eventCount);
    expect(await storedEvents(restoredDir)).toEqual(expected);
  }, 120_000);

  it('serves the restored store: the old password signs in, and the organization and its History are there', async () => {
    const restored = await startAuthApp({ DATA_DIR: restoredDir, LOG_LEVEL: 'warn' });
    try {
      const browser = await restored.signedIn(owner, password);
      const organization = await browser.get(`/organizations/${organizationId}`);
      expect(organization.status).toBe(200);
      expect(organization.body).toMatchObject({ name: 'Kept Safe Ltd' });
      const history = await browser.get(`/organizations/${organizationId}/history/export?format=jsonl`);
      expect(history.status).toBe(200);
      expect(history.text).toContain(owner);
      expect(history.text).toContain('w0-0@backup.example');
    } finally {
      await restored.close();
    }
  }, 60_000);

  it('refuses to restore into a store that is not empty, naming it, and changes nothing', async () => {
    const before = await storedEvents(restoredDir);
    const run = await runChorus(['store:restore', '--from', taken.folder, '--yes'], settings(restoredDir));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the embedded store in ${join(restoredDir, 'events.sqlite')} is not empty`);
    expect(await storedEvents(restoredDir)).toEqual(before);
  }, 60_000);

  it('refuses a backup with one changed byte, naming the file, before writing anything', async () => {
    const copy = join(root, 'flipped');
    rmSync(copy, { recursive: true, force: true });
    const { cpSync } = await import('node:fs');
    cpSync(taken.folder, copy, { recursive: true });
    const file = join(copy, 'personal-keys.sqlite');
    const bytes = readFileSync(file);
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] as number) ^ 0x01;
    writeFileSync(file, bytes);

    const target = freshDir();
    const run = await runChorus(['store:restore', '--from', copy, '--yes'], settings(target));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('personal-keys.sqlite was changed since the backup was taken');
    expect(existsSync(target)).toBe(false);
  }, 60_000);

  it('restores to a position, and to a time', async () => {
    const all = await storedEvents(sourceDir, BigInt(taken.headPosition));
    const middle = all[Math.floor(all.length / 2)] as StoredEvent;

    const toPosition = freshDir();
    const run = await runChorus(
      ['store:restore', '--from', taken.folder, '--to-position', middle.position.toString(), '--yes'],
      settings(toPosition),
    );
    expect(run).toMatchObject({ code: 0 });
    expect(await storedEvents(toPosition)).toEqual(all.filter((event) => event.position <= middle.position));

    const asOf = freshDir();
    const first = all[0] as StoredEvent;
    const atTime = await runChorus(
      ['store:restore', '--from', taken.folder, '--as-of', first.recordedAt, '--yes'],
      settings(asOf),
    );
    expect(atTime).toMatchObject({ code: 0 });
    const restored = await storedEvents(asOf);
    expect(restored.length).toBeGreaterThan(0);
    expect(restored.every((event) => Date.parse(event.recordedAt) <= Date.parse(first.recordedAt))).toBe(true);
    expect(restored).toEqual(all.slice(0, restored.length));
  }, 120_000);

  it('erases again, before anything serves, a person erased after the backup was taken', async () => {
    const leaving = 'leaving@backup.example';
    const leavingId = await source.createUser({ email: leaving, password });
    expect(await addMember(leaving)).toBe(201);
    const before = await backUp();

    await source.app.get(PersonalDataErasure).erase(leavingId, newCommandContext('cli'));
    const records = readFileSync(join(backups, erasuresFileOf(hostname())), 'utf8');
    expect(records).toContain(leavingId);
    expect(records).not.toContain(leaving);

    const target = freshDir();
    const run = await runChorus(['store:restore', '--from', before.folder, '--yes', '--json'], settings(target));
    expect(run).toMatchObject({ code: 0 });
    expect(JSON.parse(run.stdout)).toMatchObject({ erasedAgain: [leavingId] });

    const restored = await startAuthApp({ DATA_DIR: target, LOG_LEVEL: 'warn' });
    try {
      expect((await restored.app.get<PersonalKeys>(PERSONAL_KEYS).find([personSubject(leavingId)])).size).toBe(0);
      expect((await restored.browser().post('/login', { username: leaving, password })).status).not.toBe(204);
      const browser = await restored.signedIn(owner, password);
      const history = await browser.get(`/organizations/${organizationId}/history/export?format=jsonl`);
      expect(history.text).not.toContain(leaving);
      const organization = await browser.get(`/organizations/${organizationId}`);
      expect(JSON.stringify(organization.body)).not.toContain(leaving);
    } finally {
      await restored.close();
    }
  }, 180_000);

  it('erases, at a restore to a point before an erasure the backup holds, that person too: their key is gone', async () => {
    const gone = 'gone@backup.example';
    const goneId = await source.createUser({ email: gone, password });
    expect(await addMember(gone)).toBe(201);
    const point = (await storedEvents(sourceDir)).at(-1)?.position as bigint;
    await source.app.get(PersonalDataErasure).erase(goneId, newCommandContext('cli'));
    const after = await backUp();

    const target = freshDir();
    const run = await runChorus(
      ['store:restore', '--from', after.folder, '--to-position', point.toString(), '--yes', '--json'],
      settings(target),
    );
    expect(run).toMatchObject({ code: 0 });
    expect(JSON.parse(run.stdout)).toMatchObject({ erasedAgain: expect.arrayContaining([goneId]) });

    const restored = await startAuthApp({ DATA_DIR: target, LOG_LEVEL: 'warn' });
    try {
      expect((await restored.browser().post('/login', { username: gone, password })).status).not.toBe(204);
      const browser = await restored.signedIn(owner, password);
      const organization = await browser.get(`/organizations/${organizationId}`);
      const members = (organization.body as { members: { userId: string }[] }).members;
      // Not a member shown as an erased person: the erasure is in the restored log, as it was in the source's.
      expect(members.map((member) => member.userId)).not.toContain(goneId);
      expect(members.length).toBeGreaterThan(0);
      // The address they signed in with is free: whoever takes it is a new person.
      expect(await restored.createUser({ email: gone, password })).not.toBe(goneId);
    } finally {
      await restored.close();
    }
  }, 180_000);

  it('encrypts a backup with BACKUP_ENCRYPTION_KEY, and refuses a restore without it or with another', async () => {
    const key = 'a backup key of forty characters or so!!';
    const encrypted = await backUp({ BACKUP_ENCRYPTION_KEY: key });
    expect(encrypted.encryption).toMatchObject({ algorithm: 'aes-256-gcm' });
    expect(Object.keys(encrypted.files).every((file) => file.endsWith('.enc'))).toBe(true);
    const holding = readFileSync(join(encrypted.folder, 'personal-keys.sqlite.enc'));
    expect(holding.includes(Buffer.from('SQLite format 3'))).toBe(false);

    const target = freshDir();
    const without = await runChorus(['store:restore', '--from', encrypted.folder, '--yes'], settings(target));
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('is encrypted: set BACKUP_ENCRYPTION_KEY');
    const other = await runChorus(
      ['store:restore', '--from', encrypted.folder, '--yes'],
      settings(target, { BACKUP_ENCRYPTION_KEY: 'another key of forty characters or so!!!' }),
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('another BACKUP_ENCRYPTION_KEY');
    expect(existsSync(join(target, 'events.sqlite'))).toBe(false);

    const run = await runChorus(
      ['store:restore', '--from', encrypted.folder, '--yes'],
      settings(target, { BACKUP_ENCRYPTION_KEY: key }),
    );
    expect(run).toMatchObject({ code: 0 });
    expect(await storedEvents(target)).toEqual(await storedEvents(sourceDir, BigInt(encrypted.headPosition)));
  }, 120_000);

  it('prunes the backups older than --keep-days, keeping the newest whole one', async () => {
    const whole = () =>
      readdirSync(backups, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(backups, entry.name, 'manifest.json')))
        .map((entry) => entry.name);
    expect(whole().length).toBeGreaterThan(1);
    const newest = whole().sort().at(-1);

    const refused = await runChorus(['store:backup', '--prune'], settings(sourceDir));
    expect(refused.code).toBe(2);
    const run = await runChorus(['store:backup', '--prune', '--keep-days', '0', '--json'], settings(sourceDir));
    expect(run).toMatchObject({ code: 0 });
    expect(whole()).toEqual([newest]);
    // The erasure record is not a backup: it stays.
    expect(existsSync(join(backups, erasuresFileOf(hostname())))).toBe(true);
  }, 60_000);
});

describe('chorus store:copy and store:verify --against', () => {
  it('copies the store while it serves, goes on where it stopped, and the logs verify equal', async () => {
    const target = freshDir();
    const first = await runChorus(['store:copy', '--from', sourceDir, '--json'], settings(target));
    expect(first).toMatchObject({ code: 0 });
    expect(JSON.parse(first.stdout)).toMatchObject({ alreadyThere: 0 });

    expect(await addMember('later@backup.example')).toBe(201);
    const again = await runChorus(['store:copy', '--from', sourceDir, '--json'], settings(target));
    expect(again).toMatchObject({ code: 0 });
    expect(JSON.parse(again.stdout).copied).toBeGreaterThan(0);

    const verified = await runChorus(['store:verify', '--against', sourceDir, '--json'], settings(target));
    expect(verified).toMatchObject({ code: 0 });
    expect(JSON.parse(verified.stdout)).toMatchObject({ equal: true });
    expect(await storedEvents(target)).toEqual(await storedEvents(sourceDir));

    // One more write in the source: the logs now differ at its position, which is named.
    expect(await addMember('after@backup.example')).toBe(201);
    const head = (await storedEvents(target)).at(-1)?.position as bigint;
    const differs = await runChorus(['store:verify', '--against', sourceDir, '--json'], settings(target));
    expect(differs.code).toBe(1);
    expect(BigInt(JSON.parse(differs.stdout).position)).toBeGreaterThan(head);
  }, 120_000);

  it('refuses to copy into a store that holds another log', async () => {
    const other = freshDir();
    const elsewhere = await startAuthApp({ DATA_DIR: other, LOG_LEVEL: 'warn' });
    await elsewhere.createUser({ email: 'someone@else.example', password });
    await elsewhere.close();
    const run = await runChorus(['store:copy', '--from', sourceDir], settings(other));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('holds another log');
  }, 60_000);
});
