// PROJECTIONS=off: the API only reads, and `chorus projector:run` in another process, on the same
// DATA_DIR, keeps its read model up to date (libs/read-models/README.md, Where the projector runs).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient, type HttpResponse } from '../support/http-client.js';
import { createOrganization } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

const root = path.resolve(import.meta.dirname, '../..');

let running: RunningApp;
let api: HttpClient;
let projector: ChildProcess | undefined;

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist', 'apps', 'cli', 'src', 'main.js'))) {
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: root },
    );
  }
  running = await startApp({ PROJECTIONS: 'off' });
  api = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
  });
}, 120_000);

afterAll(async () => {
  if (projector !== undefined && projector.exitCode === null) {
    const exited = new Promise((resolve) => projector?.once('exit', resolve));
    projector.kill('SIGTERM');
    await exited;
  }
  await running.close();
});

/** Reads until the answer is not 503 (the projector process is still starting), a bounded number of times. */
async function readOnceProjected(path: string): Promise<HttpResponse> {
  let response = await api.get(path);
  for (let attempt = 0; response.status === 503 && attempt < 30; attempt += 1) response = await api.get(path);
  return response;
}

describe('API with PROJECTIONS=off and a projector process', () => {
  it('does not project by itself: a read of its own write is not yet consistent', async () => {
    const id = await createOrganization(api);
    const created = await api.get(`/organizations/${id}`);
    expect(created.status).toBe(404);
    const health = await api.get('/health');
    expect(health.body.projections[0]).toMatchObject({ name: 'organizations', runs: 'elsewhere', checkpoint: null });
  });

  it('serves what `chorus projector:run` projects, and waits for it on ?minPosition', async () => {
    const id = await createOrganization(api, { plan: { line: 'classic', plan: 'essential' } });
    const plan = await api.post(`/organizations/${id}/plan`, { line: 'classic', plan: 'professional' });
    projector = spawn(process.execPath, [path.join(root, 'bin', 'chorus.js'), 'projector:run'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATA_DIR: running.dataDir,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        PROJECTIONS: 'inline',
      },
      stdio: 'ignore',
    });

    const read = await readOnceProjected(`/organizations/${id}?minPosition=${plan.body.position}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, plan: 'professional', position: plan.body.position });

    // Now running: the next write is read back within one wait, through the shared checkpoint.
    const site = await api.post(`/organizations/${id}/sites`, { name: 'Shop', hostname: 'shop.example.com' });
    const after = await api.get(`/organizations/${id}?minPosition=${site.body.position}`);
    expect(after.status).toBe(200);
    expect(after.body.usage.contentSections).toBe(1);

    const health = await api.get('/health');
    expect(health.status).toBe(200);
    expect(health.body.projections[0]).toMatchObject({ name: 'organizations', state: 'live', runs: 'elsewhere' });
  }, 120_000);
});
