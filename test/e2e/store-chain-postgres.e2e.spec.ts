// The chain and its checkpoints on PostgreSQL (docs/history.md): a server's appends chained in SQL, a checkpoint signed
// by `chorus history:checkpoint`, an export proven offline; and `chorus store:verify` naming the position of each kind
// of tampering done with SQL on the events table: a byte of data, the type, an event removed, two swapped, and an edit
// whose every hash after it was given again, which only the signed checkpoint finds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CHAIN_GENESIS, chainLink } from '#event-store';
import { EVENT_ROW_COLUMNS, toStoredEvent, type EventRow } from '../../libs/event-store/src/postgres-event-row.js';
import { startPostgresServer, type PostgresServer } from '../../libs/event-store/src/testing/postgres-server.js';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { ensureCliBuilt, runChorus } from '../support/chorus-cli.js';
import { httpClient } from '../support/http-client.js';

const started = await startPostgresServer();
const server: PostgresServer | undefined = 'server' in started ? started.server : undefined;
if ('skip' in started) process.stdout.write(`PostgreSQL chain suite SKIPPED: ${started.skip}.\n`);

const root = mkdtempSync(join(tmpdir(), 'chorus-chain-pg-'));
const keyFile = join(root, 'history-signing-key.pem');
let databaseUrl: string;
let app: AuthApp;
let organizationId: string;
let head = 0;
let checkpointAt = 0;
let databases = 0;

type Verdict = {
  proven: boolean;
  checked: number;
  checkpoints: number;
  signedTo: string | null;
  failedAt?: string;
  failure?: string;
};
const settings = (url: string) => ({ DATA_DIR: join(root, 'cli'), DATABASE_URL: url, HISTORY_SIGNING_KEY: keyFile });
const verify = async (url: string): Promise<{ code: number | null; verdict: Verdict }> => {
  const run = await runChorus(['store:verify', '--json'], settings(url));
  return { code: run.code, verdict: JSON.parse(run.stdout) as Verdict };
};

async function sql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A copy of the database, edited with SQL as an intruder with its password would, every trigger disabled. */
async function tampered(text: string): Promise<string> {
  databases += 1;
  const name = `chorus_tampered_${databases}`;
  await sql(databaseUrl.replace(/\/[^/]+$/, '/postgres'), `CREATE DATABASE ${name} TEMPLATE chorus_chain`);
  const url = databaseUrl.replace(/\/[^/]+$/, `/${name}`);
  await sql(url, `ALTER TABLE events DISABLE TRIGGER USER; ${text}; ALTER TABLE events ENABLE TRIGGER USER;`);
  return url;
}

/** Every hash given again over the table as it now is: what an intruder who knows the encoding does after an edit. */
async function rechainWhole(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('ALTER TABLE events DISABLE TRIGGER USER');
    const { rows } = await client.query<EventRow>(`SELECT ${EVENT_ROW_COLUMNS} FROM events ORDER BY events.position`);
    let previous = CHAIN_GENESIS;
    for (const row of rows) {
      previous = chainLink(previous, toStoredEvent(row));
      await client.query('UPDATE events SET hash = $1 WHERE position = $2', [previous, row.position]);
    }
    await client.query('ALTER TABLE events ENABLE TRIGGER USER');
  } finally {
    await client.end();
  }
}

(server === undefined ? describe.skip : describe)('the chain on PostgreSQL', () => {
  beforeAll(async () => {
    ensureCliBuilt();
    databaseUrl = await (server as PostgresServer).createDatabase('chorus_chain');
    writeFileSync(
      keyFile,
      (await import('node:crypto')).generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    app = await startAuthApp({
      DATA_DIR: join(root, 'node'),
      DATABASE_URL: databaseUrl,
      HISTORY_SIGNING_KEY: keyFile,
      LOG_LEVEL: 'warn',
    });
    const ownerId = await app.createUser({ email: 'owner@pg-chain.example', password: 'correct horse battery staple' });
    organizationId = await app.createOrganization(
      'Chained on PG',
      { userId: ownerId, email: 'owner@pg-chain.example' },
      'enterprise',
    );
    const api = httpClient(app.baseUrl, {
      apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write']),
    });
    for (let index = 0; index < 8; index += 1)
      expect(
        (
          await api.post(`/organizations/${organizationId}/members`, {
            email: `m${index}@pg-chain.example`,
            role: 'member',
          })
        ).status,
      ).toBe(201);
    const signed = await runChorus(['history:checkpoint', '--json'], settings(databaseUrl));
    expect(signed.code).toBe(0);
    checkpointAt = Number((JSON.parse(signed.stdout) as { position: string }).position);
    for (let index = 8; index < 10; index += 1)
      await api.post(`/organizations/${organizationId}/members`, {
        email: `m${index}@pg-chain.example`,
        role: 'member',
      });
    await app.close();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('proves the log the server wrote, and its checkpoint', async () => {
    const { code, verdict } = await verify(databaseUrl);
    expect(code).toBe(0);
    expect(verdict).toMatchObject({ proven: true, checkpoints: 1, signedTo: String(checkpointAt) });
    head = verdict.checked;
    expect(head).toBeGreaterThan(checkpointAt);
  });

  it('exports an organization with its proof, which history:verify proves offline', async () => {
    const exported = await runChorus(
      ['org:history', organizationId, '--format', 'jsonl', '--proof'],
      settings(databaseUrl),
    );
    expect(exported.code).toBe(0);
    writeFileSync(join(root, 'export.jsonl'), exported.stdout);
    const publicKey = await runChorus(['history:public-key'], settings(databaseUrl));
    writeFileSync(join(root, 'public.pem'), publicKey.stdout);
    const checked = await runChorus(
      ['history:verify', join(root, 'export.jsonl'), '--public-key', join(root, 'public.pem')],
      { DATA_DIR: root },
    );
    expect(checked).toMatchObject({ code: 0, stdout: expect.stringContaining('is complete and unaltered') });
  });

  it.each([
    [
      'a byte of its data',
      (at: number) =>
        `UPDATE events SET data = overlay(data placing (CASE substr(data, 3, 1) WHEN 'a' THEN 'b' ELSE 'a' END) from 3 for 1) WHERE position = ${at}`,
      'its hash does not match',
      0,
    ],
    [
      'its type',
      (at: number) => `UPDATE events SET type = 'MemberRoleChanged' WHERE position = ${at}`,
      'its hash does not match',
      0,
    ],
    ['an event removed', (at: number) => `DELETE FROM events WHERE position = ${at}`, 'are missing: removed', 1],
    [
      'two events swapped',
      (at: number) =>
        `UPDATE events SET position = 999999999 WHERE position = ${at}; UPDATE events SET position = ${at} WHERE position = ${at + 1}; UPDATE events SET position = ${at + 1} WHERE position = 999999999`,
      'its hash does not match',
      0,
    ],
  ])('finds %s, naming the position', async (_what, edit, reason, after) => {
    const at = Math.floor(checkpointAt / 2);
    const { code, verdict } = await verify(await tampered(edit(at)));
    expect(code).toBe(1);
    expect(verdict).toMatchObject({
      proven: false,
      failedAt: String(at + after),
      failure: expect.stringContaining(reason),
    });
  });

  it('finds an edit whose every hash after it was given again, at the checkpoint that signed the old one', async () => {
    const url = await tampered(
      `UPDATE events SET metadata = replace(metadata, '"actor":"', '"actor":"x') WHERE position = ${Math.floor(checkpointAt / 2)}`,
    );
    await rechainWhole(url);
    const { code, verdict } = await verify(url);
    expect(code).toBe(1);
    expect(verdict).toMatchObject({
      failedAt: String(checkpointAt + 1),
      failure: expect.stringContaining("whose hash there is not the chain's"),
    });
  });
});
