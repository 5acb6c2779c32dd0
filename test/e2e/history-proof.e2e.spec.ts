// A history an auditor proves (docs/history.md): the public key served to anyone, an export with its proof that
// `chorus history:verify` checks with no server and no store, a line removed or changed found by its number, another
// organization's events carried by their digests only, and a signing key missing or changed stopping the server at
// start-up, naming HISTORY_SIGNING_KEY.
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HistoryCheckpoints } from '#api';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { ensureCliBuilt, repositoryRoot, runChorus } from '../support/chorus-cli.js';
import { httpClient, type HttpClient } from '../support/http-client.js';

const root = mkdtempSync(join(tmpdir(), 'chorus-history-proof-'));
const dataDir = join(root, 'data');
let app: AuthApp;
let auditor: HttpClient;
let organizationId: string;
let otherId: string;
let exportFile: string;
const publicKeyFile = join(root, 'public.pem');

const verifyExport = (file: string) =>
  runChorus(['history:verify', file, '--public-key', publicKeyFile, '--json'], { DATA_DIR: join(root, 'elsewhere') });

beforeAll(async () => {
  ensureCliBuilt();
  app = await startAuthApp({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  const ownerId = await app.createUser({ email: 'owner@proof.example', password: 'correct horse battery staple' });
  organizationId = await app.createOrganization(
    'Proven Co',
    { userId: ownerId, email: 'owner@proof.example' },
    'enterprise',
  );
  const otherOwner = await app.createUser({ email: 'owner@other.example', password: 'correct horse battery staple' });
  otherId = await app.createOrganization(
    'Other Secret Co',
    { userId: otherOwner, email: 'owner@other.example' },
    'enterprise',
  );
  const writer = httpClient(app.baseUrl, {
    apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write']),
  });
  // The two organizations' events interleaved in the log.
  for (let index = 0; index < 6; index += 1) {
    for (const [id, domain] of [
      [organizationId, 'proof.example'],
      [otherId, 'other.example'],
    ] as const) {
      const added = await writer.post(`/organizations/${id}/members`, { email: `m${index}@${domain}`, role: 'member' });
      expect(added.status).toBe(201);
    }
  }
  auditor = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, ['audit:read'], 'auditor', organizationId) });
}, 120_000);

afterAll(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the public key', () => {
  it('is served to anyone as PEM, and printed by chorus history:public-key', async () => {
    const response = await fetch(`${app.baseUrl}/history/public-key`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-pem-file/);
    const pem = await response.text();
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    writeFileSync(publicKeyFile, pem);
    const printed = await runChorus(['history:public-key'], { DATA_DIR: dataDir });
    expect(printed).toMatchObject({ code: 0, stdout: pem });
  });
});

describe('an export with its proof', () => {
  it('is refused as CSV, or filtered, and changes nothing', async () => {
    for (const query of [
      'format=csv&proof=true',
      'format=jsonl&proof=true&type=MemberAdded',
      'format=jsonl&proof=maybe',
    ]) {
      const refused = await auditor.get(`/organizations/${organizationId}/history/export?${query}`);
      expect(refused.status).toBe(400);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect(await app.app.get(HistoryCheckpoints).latest()).toBeUndefined();
  });

  it('ends with a checkpoint signed for it, and carries the other organization by digests alone', async () => {
    const response = await auditor.get(`/organizations/${organizationId}/history/export?format=jsonl&proof=true`);
    expect(response.status).toBe(200);
    const text = response.text;
    exportFile = join(root, 'export.jsonl');
    writeFileSync(exportFile, text);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { checkpoint?: { position: string; reason: string }; skipped?: unknown });
    expect(lines.at(-1)).toMatchObject({ checkpoint: { reason: 'export' } });
    expect(lines.filter((line) => 'skipped' in line).length).toBeGreaterThan(0);
    expect(text).not.toContain(otherId);
    expect(text).not.toContain('other.example');
    expect(text).not.toContain('Other Secret Co');

    const proof = await auditor.get(`/organizations/${organizationId}/history/proof`);
    expect(proof.body).toEqual({
      chained: true,
      checkpoint: expect.objectContaining({ position: lines.at(-1)?.checkpoint?.position, reason: 'export' }),
      organizationCovered: true,
      failure: null,
    });
  });

  it('is proven by chorus history:verify, with no server and no store', async () => {
    const run = await verifyExport(exportFile);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      proven: true,
      events: 10,
      stream: `organization-${organizationId}`,
    });
  });

  it('fails with a line removed or changed, naming the line', async () => {
    const lines = readFileSync(exportFile, 'utf8').trimEnd().split('\n');
    const eventLine = lines.findIndex((line, index) => index > 2 && line.includes('"MemberAdded"'));
    const removed = join(root, 'removed.jsonl');
    writeFileSync(removed, `${lines.filter((_line, index) => index !== eventLine).join('\n')}\n`);
    const changed = join(root, 'changed.jsonl');
    // Its data as stored, one character changed: the line still parses, and claims the same hash.
    const edited = JSON.parse(lines[eventLine] as string) as { proof: { data: string } };
    const at = edited.proof.data.indexOf(':') + 3;
    edited.proof.data = `${edited.proof.data.slice(0, at)}${edited.proof.data[at] === 'a' ? 'b' : 'a'}${edited.proof.data.slice(at + 1)}`;
    writeFileSync(
      changed,
      `${lines.map((line, index) => (index === eventLine ? JSON.stringify(edited) : line)).join('\n')}\n`,
    );
    expect(readFileSync(changed, 'utf8')).not.toBe(readFileSync(exportFile, 'utf8'));
    for (const [file, line] of [
      [removed, eventLine + 1],
      [changed, eventLine + 1],
    ] as const) {
      const run = await verifyExport(file);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({ proven: false, line });
    }
    const words = await runChorus(['history:verify', removed, '--public-key', publicKeyFile], { DATA_DIR: root });
    expect(words.stdout).toContain(`fails at line ${eventLine + 1}`);
  });

  it("is proven by docs/history.md's own check, with Node's crypto and OpenSSL", async () => {
    const docs = readFileSync(join(repositoryRoot, 'docs', 'history.md'), 'utf8');
    const blocks = [...docs.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, language, code]) => ({ language, code }));
    const chainScript = blocks.find((block) => block.language === 'js')?.code as string;
    const signatureScript = blocks.find((block) => block.code?.includes('openssl pkeyutl'))?.code as string;
    const work = mkdtempSync(join(root, 'auditor-'));
    writeFileSync(join(work, 'acme-history.jsonl'), readFileSync(exportFile));
    writeFileSync(join(work, 'chorus-history.pem'), readFileSync(publicKeyFile));
    // The walk the docs describe in words, over the docs' chainLink.
    writeFileSync(
      join(work, 'check.mjs'),
      `${chainScript}
import { readFileSync } from 'node:fs';
let hash;
for (const line of readFileSync('acme-history.jsonl', 'utf8').trim().split('\\n').map((text) => JSON.parse(text))) {
  if (line.proof) {
    if (hash !== undefined && line.proof.previous !== hash) throw new Error('unlinked');
    hash = chainLink(line.proof.previous, line.proof);
    if (hash !== line.proof.hash) throw new Error('changed');
  } else if (line.skipped) {
    for (const digest of line.skipped.digests)
      hash = sha256(Buffer.from('chorus-chain-v2'), Buffer.from(hash, 'hex'), Buffer.from(digest, 'hex')).toString('hex');
  } else if (line.checkpoint.hash !== hash) throw new Error('not the checkpoint');
}
console.log('linked');
`,
    );
    const run = (command: string, args: string[]) =>
      new Promise<string>((done, fail) =>
        execFile(command, args, { cwd: work }, (error, stdout, stderr) =>
          error === null ? done(stdout + stderr) : fail(error),
        ),
      );
    expect(await run(process.execPath, ['check.mjs'])).toBe('linked\n');
    expect(await run('sh', ['-c', signatureScript])).toContain('Signature Verified Successfully');
  });

  it("is the latest checkpoint's when it covers the last event, and store:verify checks them all", async () => {
    const signed = await app.app.get(HistoryCheckpoints).sign('on-demand');
    const again = await auditor.get(`/organizations/${organizationId}/history/export?format=jsonl&proof=true`);
    const last = JSON.parse(again.text.trimEnd().split('\n').at(-1) as string) as {
      checkpoint: { id: string };
    };
    expect(last.checkpoint.id).toBe(signed.id);
    const verified = await runChorus(['store:verify', '--json'], { DATA_DIR: dataDir });
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ proven: true, checkpoints: 2, signedTo: signed.position });
  });

  it("is another organization's to refuse", async () => {
    const refused = await auditor.get(`/organizations/${otherId}/history/export?format=jsonl&proof=true`);
    expect(refused.status).toBe(403);
  });
});

describe('the signing key at start-up', () => {
  /** The server started as `npm start` starts it, to its exit. */
  const startServer = (settings: Record<string, string>): Promise<{ code: number | null; stderr: string }> =>
    new Promise((done) => {
      execFile(
        process.execPath,
        [join(repositoryRoot, 'dist', 'apps', 'api', 'src', 'main.js')],
        {
          cwd: repositoryRoot,
          timeout: 60_000,
          env: {
            PATH: process.env.PATH,
            NODE_ENV: 'test',
            SEED_DEMO: 'false',
            PORT: '0',
            LOG_LEVEL: 'warn',
            ...settings,
          },
        },
        (error, _stdout, stderr) => done({ code: error === null ? 0 : (error.code as number), stderr }),
      );
    });

  it('stops the server when HISTORY_SIGNING_KEY names no file, or no Ed25519 key', async () => {
    const missing = await startServer({
      DATA_DIR: join(root, 'fresh'),
      HISTORY_SIGNING_KEY: join(root, 'nowhere.pem'),
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`HISTORY_SIGNING_KEY: no file at ${join(root, 'nowhere.pem')}`);
    const rsa = join(root, 'rsa.pem');
    writeFileSync(
      rsa,
      generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    const wrongKind = await startServer({ DATA_DIR: join(root, 'fresh'), HISTORY_SIGNING_KEY: rsa });
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.stderr).toContain('HISTORY_SIGNING_KEY: ');
    expect(wrongKind.stderr).toContain('Ed25519');
  }, 60_000);

  it('stops the server when its key is not the one that signed the latest checkpoint', async () => {
    const other = join(root, 'other.pem');
    writeFileSync(other, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await app.close();
    try {
      const changed = await startServer({ DATA_DIR: dataDir, HISTORY_SIGNING_KEY: other });
      expect(changed.code).toBe(1);
      expect(changed.stderr).toContain("HISTORY_SIGNING_KEY: the history's latest checkpoint");
      expect(changed.stderr).toContain('chorus history:checkpoint --new-key');

      // The operator says the key is replaced: the change is signed and recorded, and the old checkpoints still hold.
      const replaced = await runChorus(['history:checkpoint', '--new-key', '--json'], {
        DATA_DIR: dataDir,
        HISTORY_SIGNING_KEY: other,
      });
      expect(replaced.code).toBe(0);
      expect(JSON.parse(replaced.stdout)).toMatchObject({ reason: 'new-key', previousKey: expect.any(String) });
      const verified = await runChorus(['store:verify', '--json'], { DATA_DIR: dataDir, HISTORY_SIGNING_KEY: other });
      expect(JSON.parse(verified.stdout)).toMatchObject({ proven: true, checkpoints: 3 });
    } finally {
      app = await startAuthApp({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', HISTORY_SIGNING_KEY: other });
    }
  }, 120_000);
});
