// The real `chorus` binary (bin/chorus.js over dist/) on a temp DATA_DIR: output, errors and exit codes.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { directoryStream, organizationStream } from '#domain';
import { PersonalKeys, SealingEventStore } from '#application';
import { openEventStore, openPersonalKeys } from '#event-store';
import { createApiKey } from '../support/api-keys.js';
import { httpClient } from '../support/http-client.js';
import { IdentityProvider } from '../support/identity-provider.js';
import { SamlIdp } from '../support/saml-idp.js';
import { DnsServer, dnsServerMissing } from '../support/dns-server.js';
import { startApp } from '../support/start-app.js';

const root = resolve(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'chorus.js');
let dataDir: string;

type Run = { code: number | null; stdout: string; stderr: string };

function chorus(args: string[], environment: Record<string, string> = {}, input?: string): Promise<Run> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: root,
        env: { PATH: process.env.PATH, NODE_ENV: 'test', SEED_DEMO: 'false', DATA_DIR: dataDir, ...environment },
      },
      (error, stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

beforeAll(() => {
  // CI builds first; a local run builds here once rather than racing inside each call.
  if (!existsSync(join(root, 'dist', 'apps', 'cli', 'src', 'main.js'))) {
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
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-cli-'));
}, 120_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** The organization's events as the server reads them: personal values opened with the store's keys. */
async function recordedEvents(organizationId: string) {
  const keys = new PersonalKeys(await openPersonalKeys({ dataDir }));
  const store = new SealingEventStore(await openEventStore({ dataDir }), keys);
  try {
    const read = await store.readStream(organizationStream(organizationId));
    return read.found ? read.events : [];
  } finally {
    await store.close();
    await keys.close();
  }
}

// Each test starts several command lines, each a process of its own: a loaded machine takes seconds for each.
jest.setTimeout(120_000);

describe('org:create', () => {
  it('creates an organization and prints its id', async () => {
    const run = await chorus(['org:create', '--name', 'Acme Corp', '--id', 'acme']);

    expect(run).toMatchObject({ code: 0, stdout: 'acme\n' });
    expect(
      (await recordedEvents('acme')).map(({ type, data, metadata }) => ({
        type,
        data,
        actor: metadata.actor,
        cliCommand: metadata.cliCommand,
      })),
    ).toEqual([
      { type: 'OrganizationCreated', data: { id: 'acme', name: 'Acme Corp' }, actor: 'cli', cliCommand: 'org:create' },
    ]);
  });

  it('answers JSON with --json, the id being the slug of the name when none is given', async () => {
    const run = await chorus(['org:create', '--name', 'Globex Café', '--json']);

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ id: 'globex-cafe', revision: 0, position: expect.any(Number) });
  });

  it('gives a uuid to a name with nothing a slug can keep', async () => {
    const run = await chorus(['org:create', '--name', '日本']);

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
  });

  it('refuses the same name twice, pointing at the organization that has it, and at the way to make another', async () => {
    const first = await chorus(['org:create', '--name', 'Initech']);
    const again = await chorus(['org:create', '--name', 'Initech']);
    const json = await chorus(['org:create', '--name', 'Initech', '--json']);

    expect(first).toMatchObject({ code: 0, stdout: 'initech\n' });
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(again.stderr).toBe(
      'chorus: ALREADY_EXISTS: Organization initech already exists (named "Initech"). To create another one, give it an id of its own: --id initech-2 --allow-duplicate-name.\n',
    );
    expect(JSON.parse(json.stderr)).toMatchObject({
      status: 409,
      code: 'ALREADY_EXISTS',
      id: 'initech',
      name: 'Initech',
      suggestedId: 'initech-2',
    });

    const followed = await chorus(['org:create', '--name', 'Initech', '--id', 'initech-2', '--allow-duplicate-name']);
    expect(followed).toMatchObject({ code: 0, stdout: 'initech-2\n' });
  });

  it('refuses a name another organization has under another id, however it is spelt, unless told to go ahead', async () => {
    const refused = await chorus(['org:create', '--name', '  acme   CORP ', '--id', 'acme-two']);

    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain(
      'chorus: DUPLICATE: An organization named "Acme Corp" already exists: acme. Use it (chorus org:state acme), or add --allow-duplicate-name',
    );
    expect(await recordedEvents('acme-two')).toEqual([]);

    const allowed = await chorus(['org:create', '--name', 'Acme Corp', '--id', 'acme-two', '--allow-duplicate-name']);
    expect(allowed).toMatchObject({ code: 0, stdout: 'acme-two\n' });
  });

  it('sees organizations created by a running server, whose read model this process has not projected', async () => {
    const running = await startApp({ DATA_DIR: dataDir, PROJECTIONS: 'off' });
    try {
      const api = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['organizations:write']) });
      expect((await api.post('/organizations', { name: 'Made Over HTTP', id: 'over-http' })).status).toBe(201);
    } finally {
      await running.close();
    }

    const run = await chorus(['org:create', '--name', 'made over http']);

    expect(run.stderr).toContain('DUPLICATE');
    expect(run.stderr).toContain('over-http');
  });

  it('exits 1 with the problem code when the organization exists', async () => {
    const run = await chorus(['org:create', '--name', 'Acme again', '--id', 'acme']);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('ALREADY_EXISTS');
  });

  it('exits 2 with usage when a required option is missing', async () => {
    const run = await chorus(['org:create']);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain("required option '--name <name>'");
  });
});

describe('org:list', () => {
  it('lists every organization by name, with its plans, members and sites; JSON with --json', async () => {
    await chorus(['org:create', '--name', 'Listed', '--id', 'listed']);
    await chorus(['org:plan', 'listed', '--line', 'chorus', '--plan', 'teams']);

    const text = await chorus(['org:list']);
    const json = await chorus(['org:list', '--json']);

    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]?.split(/\s{2,}/)).toEqual(['id', 'name', 'plans', 'members', 'sites']);
    expect(text.stdout).toMatch(/^listed +Listed +chorus teams \(off\) +0 +0$/m);
    const listed = JSON.parse(json.stdout) as { id: string; name: string }[];
    expect(listed.find((organization) => organization.id === 'listed')).toEqual({
      id: 'listed',
      name: 'Listed',
      plans: { classic: null, chorus: 'teams' },
      chorus: false,
      members: 0,
      sites: 0,
      revision: 1,
    });
    const names = listed.map((organization) => organization.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('says how to begin on an empty store', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'chorus-cli-empty-'));
    try {
      const run = await chorus(['org:list'], { DATA_DIR: empty });
      expect(run).toMatchObject({
        code: 0,
        stdout: 'No organizations yet: create one with `chorus org:create --name <name>`.\n',
      });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('org:plan', () => {
  beforeAll(async () => {
    await chorus(['org:create', '--name', 'Planned', '--id', 'planned']);
  }, 30_000);

  it('assigns a plan and answers {id, revision, position} with --json', async () => {
    const run = await chorus([
      'org:plan',
      'planned',
      '--line',
      'chorus',
      '--plan',
      'teams',
      '--service-level',
      'assisted',
      '--json',
    ]);

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ id: 'planned', revision: 1, position: expect.any(Number) });
    expect((await recordedEvents('planned')).at(-1)).toMatchObject({
      type: 'PlanAssigned',
      data: { line: 'chorus', plan: 'teams', serviceLevel: 'assisted' },
    });
  });

  it('exits 2 with VALIDATION_FAILED naming the option for a plan that does not exist', async () => {
    const run = await chorus(['org:plan', 'planned', '--line', 'classic', '--plan', 'platinum']);

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/VALIDATION_FAILED: --plan/);
  });

  it('exits 1 with NOT_FOUND for an unknown organization, as a problem document with --json', async () => {
    const run = await chorus(['org:plan', 'nowhere', '--line', 'classic', '--plan', 'essential', '--json']);

    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('org:chorus, and org:plan while Chorus is off', () => {
  beforeAll(async () => {
    await chorus(['org:create', '--name', 'Big Co', '--id', 'big-co']);
  }, 30_000);

  it('warns that a Chorus plan assigned while Chorus is off is not in effect, and says how to turn it on', async () => {
    const run = await chorus(['org:plan', 'big-co', '--line', 'chorus', '--plan', 'enterprise']);

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Organization big-co is on the chorus plan enterprise/);
    expect(run.stderr).toBe(
      'chorus: warning: Chorus is off for big-co, so its enterprise plan is not in effect (limits come from no plan).' +
        ' Turn it on: chorus org:chorus big-co --on\n',
    );
  });

  it('turns Chorus on (ChorusEnabled, by the cli), after which the plan is in effect and org:plan warns no more', async () => {
    const run = await chorus(['org:chorus', 'big-co', '--on', '--parallel-use']);

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Chorus is on, alongside Classic, for big-co \(revision \d+, position \d+\)\.$/m);
    expect((await recordedEvents('big-co')).at(-1)).toMatchObject({
      type: 'ChorusEnabled',
      metadata: { actor: 'cli', cliCommand: 'org:chorus' },
    });
    const state = JSON.parse((await chorus(['org:state', 'big-co', '--json'])).stdout) as {
      governingPlan: unknown;
      chorus: boolean;
    };
    expect(state).toMatchObject({ chorus: true, governingPlan: { line: 'chorus', plan: 'enterprise' } });

    const again = await chorus(['org:plan', 'big-co', '--line', 'chorus', '--plan', 'teams']);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
  });

  it('refuses neither or both of --on and --off (exit 2), and --parallel-use with --off', async () => {
    expect(await chorus(['org:chorus', 'big-co'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/VALIDATION_FAILED: give --on or --off/),
    });
    expect(await chorus(['org:chorus', 'big-co', '--on', '--off'])).toMatchObject({ code: 2 });
    expect(await chorus(['org:chorus', 'big-co', '--off', '--parallel-use'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--parallel-use/),
    });
  });

  it('is listed by --help', async () => {
    const help = await chorus(['--help']);
    expect(help.stdout).toMatch(/org:chorus <id>\s+turn an organization's Chorus line on or off/);
  });
});

describe('api-key:create', () => {
  it('prints a key once, stores only its hash, and the key works on the HTTP API with its scopes', async () => {
    const run = await chorus([
      'api-key:create',
      '--name',
      'deploy',
      '--scopes',
      'organizations:read,organizations:write',
      '--json',
    ]);

    expect(run.code).toBe(0);
    const created = JSON.parse(run.stdout) as { key: string; keyId: string; scopes: string[] };
    expect(created).toMatchObject({
      name: 'deploy',
      scopes: ['organizations:read', 'organizations:write'],
      key: expect.stringMatching(/^chrs_/),
    });
    expect(readFileSync(join(dataDir, 'events.sqlite')).includes(created.key.slice(30))).toBe(false);

    const running = await startApp({ DATA_DIR: dataDir });
    try {
      const api = httpClient(running.baseUrl, { apiKey: created.key });
      const organization = await api.post('/organizations', { name: 'Made with the key', id: 'keyed' });
      expect(organization.status).toBe(201);
      expect((await recordedEvents('keyed'))[0]?.metadata.actor).toBe(`api-key:${created.keyId}`);
      expect(
        (
          await api.post(
            '/organizations',
            { name: 'Wrong key' },
            { apiKey: `${created.key.slice(0, 30)}${'x'.repeat(43)}` },
          )
        ).status,
      ).toBe(401);
    } finally {
      await running.close();
    }
  });

  it('prints the key on its own line for people', async () => {
    const run = await chorus(['api-key:create', '--name', 'ops', '--scopes', 'audit:read']);

    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^chrs_[0-9a-f]{24}_[A-Za-z0-9_-]{43}$/);
    expect(run.stdout).toContain('not shown again');
  });

  it('exits 2 with VALIDATION_FAILED for an unknown scope', async () => {
    const run = await chorus(['api-key:create', '--name', 'bad', '--scopes', 'organizations:read,everything']);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('VALIDATION_FAILED');
    expect(run.stderr).toContain('everything');
  });

  it('binds a key to one organization with --org, and refuses an organization that does not exist', async () => {
    await chorus(['org:create', '--name', 'Bound', '--id', 'bound']);

    const run = await chorus([
      'api-key:create',
      '--name',
      'bound',
      '--scopes',
      'organizations:read',
      '--org',
      'bound',
      '--json',
    ]);
    const missing = await chorus([
      'api-key:create',
      '--name',
      'nowhere',
      '--scopes',
      'organizations:read',
      '--org',
      'nowhere',
    ]);

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'bound', organizationId: 'bound' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('NOT_FOUND');
  }, 30_000);
});

describe('api-key:list and api-key:revoke', () => {
  it('lists every key without its secret, revokes one (recorded as ApiKeyRevoked by the cli), and a server refuses it', async () => {
    const created = JSON.parse(
      (await chorus(['api-key:create', '--name', 'to revoke', '--scopes', 'organizations:read', '--json'])).stdout,
    ) as { key: string; keyId: string };

    const revoked = await chorus(['api-key:revoke', created.keyId, '--json']);
    const again = await chorus(['api-key:revoke', created.keyId]);
    const listed = await chorus(['api-key:list', '--json']);
    const table = await chorus(['api-key:list']);

    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({
      keyId: created.keyId,
      revokedAt: expect.any(String),
      alreadyRevoked: false,
    });
    expect(again).toMatchObject({ code: 0, stdout: expect.stringContaining('already revoked') });
    const keys = (JSON.parse(listed.stdout) as { keys: { keyId: string; name: string; revokedAt: string | null }[] })
      .keys;
    expect(keys.find((key) => key.keyId === created.keyId)).toMatchObject({
      name: 'to revoke',
      scopes: ['organizations:read'],
      organizationId: null,
      revokedAt: expect.any(String),
    });
    expect(listed.stdout).not.toContain(created.key.slice(30));
    expect(listed.stdout).not.toContain('sha256:');
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+SCOPES\s+ORGANIZATION\s+CREATED\s+REVOKED\s+LAST USED$/);
    expect(table.stdout).toContain(created.keyId);
    const store = await openEventStore({ dataDir });
    try {
      const stream = await store.readStream(`api-key-${created.keyId}`);
      expect(stream.found && stream.events.at(-1)).toMatchObject({
        type: 'ApiKeyRevoked',
        metadata: { actor: 'cli', cliCommand: 'api-key:revoke', commandType: 'RevokeApiKey' },
      });
    } finally {
      await store.close();
    }
    const running = await startApp({ DATA_DIR: dataDir });
    try {
      expect((await httpClient(running.baseUrl, { apiKey: created.key }).get('/organizations/bound')).status).toBe(401);
    } finally {
      await running.close();
    }
  }, 60_000);

  it('exits 1 with NOT_FOUND for a key id nobody has, 2 with VALIDATION_FAILED for one that is not a key id', async () => {
    const unknown = await chorus(['api-key:revoke', '0123456789abcdef01234567']);
    const malformed = await chorus(['api-key:revoke', 'chrs_whatever']);

    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('NOT_FOUND');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('VALIDATION_FAILED');
  }, 30_000);
});

describe('org:sso', () => {
  const secret = 'cli-client-secret-5d1e9c';
  let idp: IdentityProvider;
  beforeAll(async () => {
    idp = await IdentityProvider.start();
    await chorus(['org:create', '--name', 'Initrode', '--id', 'initrode']);
    await chorus(['org:plan', 'initrode', '--line', 'classic', '--plan', 'enterprise']);
  });
  afterAll(() => idp.stop());

  it('sets single sign-on with the secret read from standard input, sealed in the event and printed nowhere', async () => {
    const run = await chorus(
      [
        'org:sso',
        'initrode',
        '--issuer',
        idp.issuer,
        '--client-id',
        'initrode',
        '--client-secret',
        '-',
        '--domains',
        'initrode.example, b.initrode.example',
        '--enforce',
        '--json',
      ],
      {},
      `${secret}\n`,
    );

    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      id: 'initrode',
      revision: expect.any(Number),
      position: expect.any(Number),
    });
    const configured = (await recordedEvents('initrode')).find((event) => event.type === 'SsoConfigured');
    expect(configured).toMatchObject({
      type: 'SsoConfigured',
      data: {
        issuer: idp.issuer,
        clientId: 'initrode',
        domains: ['initrode.example', 'b.initrode.example'],
        enforce: true,
        clientSecret: expect.stringMatching(/^v1\.derived\./),
      },
      metadata: { actor: 'cli', cliCommand: 'org:sso' },
    });
    expect(JSON.stringify({ data: configured?.data, metadata: configured?.metadata })).not.toContain(secret);
    expect(run.stdout).not.toContain(secret);
  });

  it('checks a domain’s DNS record with org:sso:verify: pending while absent, verified once it holds the token', async () => {
    const missing = dnsServerMissing();
    if (missing !== undefined) throw new Error(missing);
    const isPending = (event: { type: string; data: unknown }) =>
      event.type === 'SsoDomainPending' && (event.data as { domain: string }).domain === 'initrode.example';
    const pending = (await recordedEvents('initrode')).find(isPending);
    const token = (pending?.data as { token: string }).token;
    const dns = await DnsServer.start(['initrode.example']);
    try {
      const absent = await chorus(['org:sso:verify', 'initrode', 'initrode.example'], { DNS_SERVERS: dns.address });
      expect(absent).toMatchObject({
        code: 0,
        stdout: 'initrode.example: pending; the record is not there (or holds another value).\n',
      });
      await dns.serve({ '_chorus-verification.initrode.example': [token] });
      const found = await chorus(['org:sso:verify', 'initrode', 'initrode.example', '--json'], {
        DNS_SERVERS: dns.address,
      });
      expect(JSON.parse(found.stdout)).toEqual({ domain: 'initrode.example', lookup: 'found', status: 'verified' });
      expect((await recordedEvents('initrode')).at(-1)).toMatchObject({
        type: 'SsoDomainVerified',
        metadata: { actor: 'cli', cliCommand: 'org:sso:verify' },
      });
      expect((await chorus(['org:sso:verify', 'initrode', 'other.example'], { DNS_SERVERS: dns.address })).code).toBe(
        1,
      );
    } finally {
      await dns.stop();
    }
  });

  it('makes a SCIM token with org:scim:token, printed once and good at /scim/v2; refused without an enterprise plan', async () => {
    const run = await chorus(['org:scim:token', 'initrode', '--name', 'Okta', '--json']);

    expect(run).toMatchObject({ code: 0, stderr: '' });
    const created = JSON.parse(run.stdout) as { id: string; name: string; token: string };
    expect(created).toMatchObject({ name: 'Okta', token: expect.stringMatching(/^chscim_initrode\./) });
    const store = await openEventStore({ dataDir });
    try {
      const stream = await store.readStream(directoryStream('initrode'));
      expect(stream.found && stream.events.at(-1)).toMatchObject({
        type: 'ScimTokenCreated',
        metadata: { actor: 'cli', cliCommand: 'org:scim:token' },
      });
      expect(
        JSON.stringify(stream.found && stream.events.map(({ data, metadata }) => ({ data, metadata }))),
      ).not.toContain(created.token.split('.')[2]);
    } finally {
      await store.close();
    }
    const running = await startApp({ DATA_DIR: dataDir });
    try {
      expect(
        (await httpClient(running.baseUrl, { apiKey: created.token }).get('/scim/v2/ServiceProviderConfig')).status,
      ).toBe(200);
    } finally {
      await running.close();
    }
    await chorus(['org:create', '--name', 'Small', '--id', 'small']);
    const refused = await chorus(['org:scim:token', 'small']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('ENTERPRISE_PLAN_REQUIRED');
  }, 60_000);

  it('exits 1 with SSO_DISCOVERY_FAILED for an issuer that is no OpenID provider', async () => {
    const run = await chorus([
      'org:sso',
      'initrode',
      '--issuer',
      'http://127.0.0.1:9/nothing',
      '--client-id',
      'x',
      '--client-secret',
      secret,
      '--domains',
      'initrode.example',
    ]);

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('SSO_DISCOVERY_FAILED');
    expect(run.stderr).not.toContain(secret);
  });

  it('exits 2 with usage when --issuer is missing, or --disable comes with settings', async () => {
    expect((await chorus(['org:sso', 'initrode', '--client-id', 'x', '--domains', 'initrode.example'])).code).toBe(2);
    expect((await chorus(['org:sso', 'initrode', '--disable', '--enforce'])).code).toBe(2);
  });

  it('sets SAML 2.0 from a metadata file or URL (--saml-metadata), and says what to give the identity provider', async () => {
    const saml = await SamlIdp.start();
    const file = join(dataDir, 'idp-metadata.xml');
    writeFileSync(file, saml.metadataXml());
    try {
      await chorus(['org:create', '--name', 'Hooli', '--id', 'hooli']);
      await chorus(['org:plan', 'hooli', '--line', 'classic', '--plan', 'enterprise']);
      const fromFile = await chorus([
        'org:sso',
        'hooli',
        '--saml-metadata',
        file,
        '--domains',
        'hooli.example',
        '--allow-idp-initiated',
      ]);
      expect(fromFile).toMatchObject({ code: 0, stderr: '' });
      expect(fromFile.stdout).toContain('/auth/saml/hooli/acs');
      expect((await recordedEvents('hooli')).find((event) => event.type === 'SamlSsoConfigured')).toMatchObject({
        data: {
          idpEntityId: saml.entityId,
          ssoUrl: saml.ssoUrl,
          metadataUrl: null,
          domains: ['hooli.example'],
          allowIdpInitiated: true,
        },
        metadata: { actor: 'cli', cliCommand: 'org:sso' },
      });
      const fromUrl = await chorus([
        'org:sso',
        'hooli',
        '--saml-metadata',
        `${saml.url}/metadata`,
        '--domains',
        'hooli.example',
        '--json',
      ]);
      expect(JSON.parse(fromUrl.stdout)).toEqual({
        id: 'hooli',
        revision: expect.any(Number),
        position: expect.any(Number),
      });
      expect((await recordedEvents('hooli')).at(-1)).toMatchObject({
        type: 'SamlSsoConfigured',
        data: { metadataUrl: `${saml.url}/metadata`, allowIdpInitiated: false },
      });
      expect(
        (
          await chorus([
            'org:sso',
            'hooli',
            '--saml-metadata',
            join(dataDir, 'no-such-file.xml'),
            '--domains',
            'hooli.example',
          ])
        ).code,
      ).toBe(2);
      expect(
        (
          await chorus([
            'org:sso',
            'hooli',
            '--saml-metadata',
            file,
            '--issuer',
            saml.url,
            '--domains',
            'hooli.example',
          ])
        ).code,
      ).toBe(2);
    } finally {
      await saml.close();
    }
  });

  it('turns it off with --disable', async () => {
    const run = await chorus(['org:sso', 'initrode', '--disable']);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Single sign-on is off for initrode');
    expect((await recordedEvents('initrode')).at(-1)?.type).toBe('SsoDisabled');
  });
});

describe('org:member:add', () => {
  it('adds an existing user to another organization with a role, by e-mail (any case) or username', async () => {
    await chorus(['org:create', '--name', 'Home Org', '--id', 'home-org']);
    await chorus(['org:create', '--name', 'Second Org', '--id', 'second-org']);
    for (const id of ['home-org', 'second-org'])
      await chorus(['org:plan', id, '--line', 'classic', '--plan', 'essential']);
    const created = await chorus([
      'user:create',
      '--email',
      'bea@cli.example',
      '--username',
      'bea',
      '--password',
      'correct horse battery',
      '--org',
      'home-org',
      '--role',
      'admin',
      '--json',
    ]);
    expect(created.code).toBe(0);
    const { userId } = JSON.parse(created.stdout) as { userId: string };

    const added = await chorus(['org:member:add', 'second-org', '--email', 'BEA@cli.example', '--role', 'auditor']);

    expect(added).toEqual({ code: 0, stdout: 'bea@cli.example is now an auditor of second-org.\n', stderr: '' });
    const event = (await recordedEvents('second-org')).at(-1);
    expect({ type: event?.type, data: event?.data }).toEqual({
      type: 'MemberAdded',
      data: expect.objectContaining({ userId, email: 'bea@cli.example', role: 'auditor' }),
    });
    expect(event?.metadata).toMatchObject({ actor: 'cli', cliCommand: 'org:member:add' });
    const again = await chorus(['org:member:add', 'second-org', '--username', 'bea']);
    expect({ code: again.code, stderr: again.stderr }).toEqual({
      code: 1,
      stderr: expect.stringContaining('DUPLICATE'),
    });
  });

  it('refuses an address nobody signs in with (no membership for nobody), and wants one of --email, --username', async () => {
    const unknown = await chorus(['org:member:add', 'second-org', '--email', 'nobody@cli.example']);
    expect(unknown).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('NOT_FOUND: No user signs in with nobody@cli.example'),
    });
    expect((await recordedEvents('second-org')).filter((event) => event.type === 'MemberAdded')).toHaveLength(1);

    expect((await chorus(['org:member:add', 'second-org'])).code).toBe(2);
    expect(
      (await chorus(['org:member:add', 'second-org', '--email', 'bea@cli.example', '--username', 'bea'])).code,
    ).toBe(2);
    expect((await chorus(['org:member:add', 'second-org', '--email', 'bea@cli.example', '--role', 'boss'])).code).toBe(
      2,
    );
  });
});

describe('projections:verify', () => {
  it('right after a write, checks the read models brought up to the store first, and counts in the singular for one', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'chorus-cli-verify-'));
    try {
      // org:create brings the models up to date before its write (the same-name check), not after it.
      expect((await chorus(['org:create', '--name', 'Solo', '--id', 'solo'], { DATA_DIR: fresh })).code).toBe(0);
      const store = await openEventStore({ dataDir: fresh });
      const head = String(await store.headPosition());
      await store.close();

      const json = await chorus(['projections:verify', '--json'], { DATA_DIR: fresh });
      const text = await chorus(['projections:verify'], { DATA_DIR: fresh });

      type Report = {
        drift: boolean;
        projections: { projection: string; checkpoint: string; tables: { rowsAre: string; stored: number }[] }[];
      };
      const report = JSON.parse(json.stdout) as Report;
      const organizations = report.projections.find((projection) => projection.projection === 'organizations');
      expect({
        checkpoint: organizations?.checkpoint,
        stored: organizations?.tables.map((table) => [table.rowsAre, table.stored]),
      }).toEqual({
        checkpoint: head,
        stored: [
          ['organizations', 1],
          ['memberships', 0],
          ['usage points', 0],
        ],
      });
      expect(text.stdout).toContain(
        `organizations: no drift: the stored read model (at position ${head}) holds the same rows as a rebuild from the events: 1 organization, 0 memberships`,
      );
      expect(text.stdout).not.toMatch(/\b1 [a-z]+s\b/);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});

it("--help lists every command, starts without configuration or store, and a command's own help shows its options", async () => {
  const help = await chorus(['--help'], { PORT: 'not-a-port' });

  expect(help.code).toBe(0);
  for (const name of [
    'org:create',
    'org:list',
    'org:members',
    'org:member:add',
    'org:history',
    'projections:verify',
    'user:create',
    'billing:sign',
    'billing:unmatched',
  ])
    expect(help.stdout).toContain(`  ${name}`);
  const own = await chorus(['org:member:add', '--help']);
  expect(own.stdout).toContain('--username <username>');
  expect((await chorus(['help', 'org:member:add'])).stdout).toContain('--username <username>');
  expect((await chorus(['org:nonsense'])).code).toBe(2);
});

it('--version prints the version of the package, with no configuration and no store', async () => {
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

  expect(await chorus(['--version'], { PORT: 'not-a-port' })).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  expect(await chorus(['-V'])).toMatchObject({ code: 0, stdout: `${version}\n` });
});

it('exits 3 naming the setting when the configuration is invalid', async () => {
  const run = await chorus(['org:create', '--name', 'X'], { PORT: 'not-a-port' });

  expect(run.code).toBe(3);
  expect(run.stderr).toContain('PORT');
});
