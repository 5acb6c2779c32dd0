// `chorus billing:sign`: the operator's way to sign a body by hand, checked against the server.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signBillingPayload } from '#api';
import { createApiKey } from '../support/api-keys.js';
import { httpClient } from '../support/http-client.js';
import { createOrganization } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

const root = resolve(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'chorus.js');
const secret = 'whsec_e2e_sign_secret_0123456789';
let workDir: string;
let running: RunningApp;

type Run = { code: number | null; stdout: string; stderr: string };

/** Runs the binary with `input` on standard input (none: an empty, closed stdin). */
function chorus(args: string[], input: string | Buffer = '', environment: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: workDir,
      env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: join(workDir, 'data'), ...environment },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

beforeAll(async () => {
  if (!existsSync(join(root, 'dist', 'apps', 'cli', 'src', 'commands', 'billing-sign.command.js'))) {
    try {
      execFileSync(
        process.execPath,
        [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
        { cwd: root, stdio: 'ignore' },
      );
    } catch {
      // Emitted despite type errors elsewhere; the calls below fail clearly if not.
    }
  }
  workDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-billing-sign-'));
  running = await startApp({
    BILLING_WEBHOOK_SECRET: secret,
    PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs',
    LOG_LEVEL: 'silent',
  });
}, 120_000);

afterAll(async () => {
  await running.close();
  rmSync(workDir, { recursive: true, force: true });
});

const body = Buffer.from(
  '{"id":"evt_sign_1","type":"plan.purchased","organizationId":"acme","productId":"prod_pro","occurredAt":"2030-01-01T00:00:00Z"}\n',
);

describe('chorus billing:sign', () => {
  it('signs standard input: prints exactly the header the provider would send', async () => {
    const run = await chorus(['billing:sign', '--secret', secret, '--timestamp', '1900000000'], body);

    expect(run).toEqual({ code: 0, stdout: `${signBillingPayload(secret, 1_900_000_000, body)}\n`, stderr: '' });
  });

  it('signs a file, with the secret from BILLING_WEBHOOK_SECRET, and --json', async () => {
    writeFileSync(join(workDir, 'body.json'), body);

    const run = await chorus(['billing:sign', 'body.json', '--timestamp', '1900000000', '--json'], '', {
      BILLING_WEBHOOK_SECRET: secret,
    });

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      header: signBillingPayload(secret, 1_900_000_000, body),
      timestamp: 1_900_000_000,
    });
  });

  it('signs with the current time by default: the server accepts what it prints', async () => {
    const api = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['organizations:write']) });
    const organizationId = await createOrganization(api);
    const event = Buffer.from(
      JSON.stringify({
        id: 'evt_sign_live',
        type: 'plan.purchased',
        organizationId,
        productId: 'prod_pro',
        occurredAt: '2030-01-01T00:00:00Z',
      }),
    );

    const run = await chorus(['billing:sign', '--secret', secret], event);
    const response = await httpClient(running.baseUrl).request('POST', '/billing/events', {
      raw: event,
      headers: { 'content-type': 'application/json', 'billing-signature': run.stdout.trim() },
    });

    expect(run.code).toBe(0);
    expect({ status: response.status, outcome: response.body.outcome }).toEqual({ status: 200, outcome: 'applied' });
  });

  it('without a secret: exit 2 and usage', async () => {
    const run = await chorus(['billing:sign', '--timestamp', '1900000000'], body);

    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('--secret');
  });

  it('a timestamp that is not unix seconds: exit 2, VALIDATION_FAILED', async () => {
    const run = await chorus(['billing:sign', '--secret', secret, '--timestamp', 'now'], body);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('VALIDATION_FAILED');
  });

  it('a file that does not exist: exit 2 and the reason', async () => {
    const run = await chorus(['billing:sign', 'missing.json', '--secret', secret]);

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/VALIDATION_FAILED: cannot read missing\.json/);
  });
});
