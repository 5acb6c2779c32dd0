// @chorus/openfeature-provider in a service, through OpenFeature's own SDK: it fills from Chorus, answers
// with no network, follows changes, and when the server is killed (kill -9) answers the last values as
// STALE; once the server is back it catches up with what changed meanwhile.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OpenFeature, ProviderEvents, ProviderStatus, type Client } from '@openfeature/server-sdk';
import { ChorusEntitlementsProvider } from '#entitlements-client';
import { ChorusProcesses } from '../support/chorus-process.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { repositoryRoot } from '../support/chorus-cli.js';

let dataDir: string;
let processes: ChorusProcesses;
let port: number;
let server: ChildProcess | undefined;
let api: HttpClient;
let organizationId: string;
let flags: Client;
const seen: string[] = [];

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });

async function startServer(): Promise<void> {
  server = spawn(process.execPath, [join(repositoryRoot, 'dist/apps/api/src/main.js')], {
    cwd: repositoryRoot,
    env: { ...processes.environment(), PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  for (const until = Date.now() + 30_000; Date.now() < until;) {
    if ((await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined))?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not start');
}

const until = async (condition: () => boolean | Promise<boolean>, what: string) => {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not within 10 s: ${what}`);
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-provider-'));
  processes = new ChorusProcesses(dataDir);
  const key = JSON.parse(
    processes.cli(
      'api-key:create',
      '--name',
      'collector',
      '--scopes',
      'entitlements:read,organizations:write',
      '--json',
    ).stdout,
  ).key as string;
  port = await freePort();
  await startServer();
  api = httpClient(`http://127.0.0.1:${port}`, { apiKey: key });
  organizationId = (await api.post('/organizations', { name: 'Acme' })).body.id as string;
  await api.post(`/organizations/${organizationId}/plan`, { line: 'classic', plan: 'essential' });

  const provider = new ChorusEntitlementsProvider({
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: key,
    reconnectMinMs: 100,
    reconnectMaxMs: 500,
  });
  for (const event of [ProviderEvents.Ready, ProviderEvents.Stale, ProviderEvents.ConfigurationChanged])
    OpenFeature.addHandler(event, () => seen.push(event));
  await OpenFeature.setProviderAndWait('collector', provider);
  flags = OpenFeature.getClient('collector');
}, 60_000);

afterAll(async () => {
  await OpenFeature.close();
  server?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the in-process provider', () => {
  it('answers from memory what Chorus answers, and follows a change', async () => {
    const context = { targetingKey: organizationId };
    expect(flags.providerStatus).toBe(ProviderStatus.READY);
    expect(await flags.getStringValue('plan', 'none', context)).toBe('classic:essential');
    expect((await flags.getBooleanDetails('chorus.feedback', true, context)).errorCode).toBeUndefined();
    expect((await flags.getStringDetails('plan', 'x', { targetingKey: 'elsewhere' })).errorCode).toBe(
      'INVALID_CONTEXT',
    );
    expect((await flags.getBooleanDetails('no.such.flag', false, context)).errorCode).toBe('FLAG_NOT_FOUND');

    await api.post(`/organizations/${organizationId}/plan`, { line: 'classic', plan: 'professional' });
    await until(
      async () => (await flags.getStringValue('plan', 'none', context)) === 'classic:professional',
      'the new plan seen',
    );
    expect(seen).toContain(ProviderEvents.ConfigurationChanged);
  });

  it('keeps answering the last values while the server is down, and catches up when it is back', async () => {
    const context = { targetingKey: organizationId };
    server?.kill('SIGKILL');
    await until(() => flags.providerStatus === ProviderStatus.STALE, 'STALE');
    expect(await flags.getStringValue('plan', 'none', context)).toBe('classic:professional');

    // Changed while no server runs: the command line, on the same store.
    expect(processes.cli('org:plan', organizationId, '--line', 'classic', '--plan', 'enterprise').status).toBe(0);
    await startServer();
    await until(() => flags.providerStatus === ProviderStatus.READY, 'READY again');
    await until(
      async () => (await flags.getStringValue('plan', 'none', context)) === 'classic:enterprise',
      'the change made while it was down',
    );
  });
});
