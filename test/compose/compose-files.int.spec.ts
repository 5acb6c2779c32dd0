// The compose files, validated by a real compose client (Debian's docker-compose; scripts/test.sh installs
// it) since no container engine runs here: each must resolve (`docker-compose config`), and the scale-out
// file must hold the topology docs/scale-out.md describes.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { eventStoreConnectionStringProblems, loadConfig } from '#config';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sessionSecret = 'a'.repeat(64);
const ssoSecretKeys = `k1:${Buffer.alloc(32, 7).toString('base64')}`;

type Service = {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  networks?: Record<string, { ipv4_address?: string } | null>;
  ports?: Array<string | { published: string | number; target: number }>;
  volumes?: Array<string | { source?: string; target: string }>;
};
type ComposeConfig = { services: Record<string, Service> };

/** `docker-compose -f <file> config`: exit status, output and errors. */
function composeConfig(file: string, environment: Record<string, string> = {}) {
  const result = spawnSync('docker-compose', ['-f', file, 'config'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, SESSION_SECRET: '', SSO_SECRET_KEYS: '', HISTORY_SIGNING_KEY: '', ...environment },
  });
  if (result.error !== undefined) {
    throw new Error(
      `docker-compose is needed to validate the compose files (Debian: apt-get install docker-compose; scripts/test.sh installs it): ${result.error.message}`,
    );
  }
  return {
    status: result.status,
    config: result.status === 0 ? (parse(result.stdout) as ComposeConfig) : undefined,
    errors: result.stderr,
  };
}

function resolved(file: string, environment: Record<string, string> = {}): ComposeConfig {
  const { status, config, errors } = composeConfig(file, environment);
  if (status !== 0 || config === undefined) throw new Error(`docker-compose config -f ${file} failed:\n${errors}`);
  return config;
}

const volumeTargets = (service: Service): string[] =>
  (service.volumes ?? []).map((volume) => (typeof volume === 'string' ? (volume.split(':')[1] ?? '') : volume.target));

/**
 * Two API nodes, each with a DATA_DIR volume of its own, projecting for themselves; the build never deletes what they
 * run.
 */
function expectNodesShareNothing(services: Record<string, Service>): void {
  const [api1, api2] = [services['api-1'], services['api-2']] as [Service, Service];
  expect(Object.keys(services)).not.toContain('projector');
  const dataVolumes = [api1, api2].map((api) =>
    (api.volumes ?? [])
      .map((volume) => (typeof volume === 'string' ? volume : `${volume.source ?? ''}:${volume.target}`))
      .find((volume) => volume.includes(':/data')),
  );
  expect(dataVolumes.map((volume) => volume?.split(':')[0])).toEqual(['api-1-data', 'api-2-data']);
  for (const api of [api1, api2]) {
    expect(api.command).toEqual(['node', 'dist/apps/api/src/main.js']);
    expect(api.environment).toMatchObject({
      HOST: '0.0.0.0',
      PORT: '3000',
      SESSION_SECRET: sessionSecret,
      SSO_SECRET_KEYS: ssoSecretKeys,
      DATA_DIR: '/data',
      NODE_ENV: 'production',
    });
    expect(api.environment?.PROJECTIONS).toBeUndefined();
    expect(api.healthcheck?.test.join(' ')).toContain('http://localhost:3000/health');
    expect(api.depends_on?.build).toEqual({ condition: 'service_completed_successfully' });
  }
  const build = (services.build?.command ?? []).join(' ');
  expect(build).toContain('[ -f /app/.built ] ||');
  expect(build).not.toMatch(/rm -rf/);
}

describe('docker-compose.yml (one EventStoreDB node and Chorus)', () => {
  it('resolves, and points Chorus at the node with a connection string Chorus accepts', () => {
    const { services } = resolved('docker-compose.yml');

    expect(services.eventstore?.environment).toMatchObject({
      EVENTSTORE_INSECURE: 'true',
      EVENTSTORE_CLUSTER_SIZE: '1',
    });
    expect(services.eventstore?.healthcheck?.test.join(' ')).toContain('/health/live');
    expect(
      eventStoreConnectionStringProblems(services.chorus?.environment?.EVENTSTORE_CONNECTION_STRING ?? ''),
    ).toEqual([]);
    expect(services.chorus?.depends_on?.eventstore).toEqual({ condition: 'service_healthy' });
  });

  it('trusts no peer to name the client: nothing stands between the published port and the clients', () => {
    const { services } = resolved('docker-compose.yml');

    expect(services.chorus?.environment?.TRUST_PROXY).toBe('false');
    expect(loadConfig({ TRUST_PROXY: services.chorus?.environment?.TRUST_PROXY }).trustProxy).toBe(false);
  });
});

describe('docker-compose.scale-out.yml', () => {
  const file = 'docker-compose.scale-out.yml';

  it('will not start without a session secret shared by every node', () => {
    const { status, errors } = composeConfig(file);

    expect(status).not.toBe(0);
    expect(errors).toContain('SESSION_SECRET');
  });

  it('will not start without the keys that seal SSO client secrets, the same on every node', () => {
    const { status, errors } = composeConfig(file, { SESSION_SECRET: sessionSecret });

    expect(status).not.toBe(0);
    expect(errors).toContain('SSO_SECRET_KEYS');
    const { services } = resolved(file, { SESSION_SECRET: sessionSecret, SSO_SECRET_KEYS: ssoSecretKeys });
    for (const name of ['api-1', 'api-2']) expect(services[name]?.environment?.SSO_SECRET_KEYS).toBe(ssoSecretKeys);
  });

  it('runs a three-node EventStoreDB cluster, insecure, found through gossip seeds, each with a health check', () => {
    const { services } = resolved(file, { SESSION_SECRET: sessionSecret, SSO_SECRET_KEYS: ssoSecretKeys });
    const nodes = ['eventstore-1', 'eventstore-2', 'eventstore-3'];
    const addressOf = (node: string) => services[node]?.networks?.chorus?.ipv4_address;

    for (const node of nodes) {
      const service = services[node] as Service;
      expect(service.image).toBe('eventstore/eventstore:24.10');
      expect(service.environment).toMatchObject({
        EVENTSTORE_CLUSTER_SIZE: '3',
        EVENTSTORE_INSECURE: 'true',
        EVENTSTORE_DISCOVER_VIA_DNS: 'false',
        EVENTSTORE_NODE_IP: addressOf(node),
        EVENTSTORE_REPLICATION_IP: addressOf(node),
      });
      const seeds = (service.environment?.EVENTSTORE_GOSSIP_SEED ?? '').split(',');
      expect(seeds.sort()).toEqual(
        nodes
          .filter((other) => other !== node)
          .map((other) => `${addressOf(other)}:2113`)
          .sort(),
      );
      expect(service.healthcheck?.test.join(' ')).toContain('http://localhost:2113/health/live');
      expect(volumeTargets(service)).toContain('/var/lib/eventstore');
    }
    expect(new Set(nodes.map(addressOf)).size).toBe(3);
  });

  it('runs two API nodes that share nothing but the cluster: each projects into its own DATA_DIR; no projector of their own', () => {
    const { services } = resolved(file, { SESSION_SECRET: sessionSecret, SSO_SECRET_KEYS: ssoSecretKeys });
    expectNodesShareNothing(services);
    for (const api of [services['api-1'], services['api-2']] as Service[]) {
      const connectionString = api.environment?.EVENTSTORE_CONNECTION_STRING ?? '';
      expect(eventStoreConnectionStringProblems(connectionString)).toEqual([]);
      expect(connectionString).toMatch(/^esdb:\/\/eventstore-1:2113,eventstore-2:2113,eventstore-3:2113\?/);
      for (const node of ['eventstore-1', 'eventstore-2', 'eventstore-3'])
        expect(api.depends_on?.[node]).toEqual({ condition: 'service_healthy' });
    }
  });

  it('puts a reverse proxy in front of both API nodes, on the origin the nodes believe they are served from', () => {
    const { services } = resolved(file, { SESSION_SECRET: sessionSecret, SSO_SECRET_KEYS: ssoSecretKeys });
    const proxy = services.proxy as Service;
    const nginxConf = readFileSync(join(root, 'deploy/scale-out/nginx.conf'), 'utf8').replace(/#.*$/gm, '');

    expect(proxy.image).toMatch(/^nginx:/);
    expect(volumeTargets(proxy)).toContain('/etc/nginx/conf.d/default.conf');
    expect(proxy.depends_on).toEqual({
      'api-1': { condition: 'service_healthy' },
      'api-2': { condition: 'service_healthy' },
    });
    expect(proxy.healthcheck?.test.join(' ')).toContain('http://127.0.0.1/nginx-health');
    const published = (proxy.ports ?? []).map((port) =>
      typeof port === 'string' ? port.split(':')[0] : String(port.published),
    );
    expect(published.map((port) => `http://localhost:${port}`)).toContain(services['api-1']?.environment?.PUBLIC_URL);
    expect(nginxConf).toMatch(/server api-1:3000\b/);
    expect(nginxConf).toMatch(/server api-2:3000\b/);
    expect(nginxConf).toContain('proxy_pass http://chorus_api;');
    // Any node answers any session: no affinity.
    expect(nginxConf).not.toMatch(/\b(ip_hash|hash|sticky)\b/);
  });

  it('lets the API nodes take the client from X-Forwarded-For only when the proxy, at its fixed address, sends it', () => {
    const { services } = resolved(file, { SESSION_SECRET: sessionSecret, SSO_SECRET_KEYS: ssoSecretKeys });
    const proxyAddress = services.proxy?.networks?.chorus?.ipv4_address;
    const nginxConf = readFileSync(join(root, 'deploy/scale-out/nginx.conf'), 'utf8').replace(/#.*$/gm, '');

    expect(proxyAddress).toMatch(/^172\.30\.240\.\d+$/);
    const taken = Object.values(services).flatMap((service) =>
      Object.values(service.networks ?? {}).map((network) => network?.ipv4_address),
    );
    expect(taken.filter((address) => address === proxyAddress)).toHaveLength(1);
    for (const api of ['api-1', 'api-2']) {
      const trustProxy = services[api]?.environment?.TRUST_PROXY;
      expect(trustProxy).toBe(proxyAddress);
      expect(loadConfig({ TRUST_PROXY: trustProxy }).trustProxy).toEqual([proxyAddress]);
    }
    expect(nginxConf).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
  });
});

describe('docker-compose.postgres.yml', () => {
  const file = 'docker-compose.postgres.yml';
  const environment = {
    SESSION_SECRET: sessionSecret,
    SSO_SECRET_KEYS: ssoSecretKeys,
    POSTGRES_PASSWORD: '0123456789abcdef',
    HISTORY_SIGNING_KEY: '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ3b\n-----END PRIVATE KEY-----',
  };

  it('will not start without the database password, the session secret, the SSO keys and the history signing key', () => {
    for (const missing of ['POSTGRES_PASSWORD', 'SESSION_SECRET', 'SSO_SECRET_KEYS', 'HISTORY_SIGNING_KEY']) {
      const { status, errors } = composeConfig(file, { ...environment, [missing]: '' });
      expect(status).not.toBe(0);
      expect(errors).toContain(missing);
    }
  });

  it('runs two API nodes over one PostgreSQL, sharing nothing else, behind the same proxy configuration', () => {
    const { services } = resolved(file, environment);
    expectNodesShareNothing(services);
    expect(services.postgres?.image).toMatch(/^postgres:1[3-9]/);
    expect(services.postgres?.healthcheck?.test.join(' ')).toContain('pg_isready');
    for (const api of [services['api-1'], services['api-2']] as Service[]) {
      const databaseUrl = api.environment?.DATABASE_URL ?? '';
      expect(databaseUrl).toBe('postgres://chorus:0123456789abcdef@postgres:5432/chorus');
      expect(loadConfig({ DATABASE_URL: databaseUrl }).databaseUrl).toBe(databaseUrl);
      expect(api.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
      expect(api.environment?.TRUST_PROXY).toBe(services.proxy?.networks?.chorus?.ipv4_address);
      // One key signs the history's checkpoints, whichever node signs.
      expect(api.environment?.HISTORY_SIGNING_KEY).toContain('BEGIN PRIVATE KEY');
    }
    expect(volumeTargets(services.proxy as Service)).toContain('/etc/nginx/conf.d/default.conf');
    expect(
      (services.proxy?.volumes ?? [])
        .map((volume) => (typeof volume === 'string' ? volume : (volume.source ?? '')))
        .join(' '),
    ).toContain('deploy/scale-out/nginx.conf');
    expect(services.proxy?.healthcheck?.test.join(' ')).toContain('http://127.0.0.1/nginx-health');
  });
});
