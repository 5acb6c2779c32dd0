// @chorus/openfeature-provider as an integrator gets it: `npm run pack:provider` packs it, a new project outside the
// repository installs the tarball (with @openfeature/server-sdk, packed from this repository's node_modules so that
// the install is `--offline`: no registry), and runs libs/entitlements-client/README.md's example, taken from the
// README itself, against a started Chorus: it answers, follows a plan changed through the API, answers the last
// values as STALE while the server is down (kill -9), and catches up once it is back.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChorusProcesses, ensureBuilt } from '../support/chorus-process.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { repositoryRoot as root } from '../support/chorus-cli.js';

const readme = join(root, 'libs', 'entitlements-client', 'README.md');

/** The README's first ```js block: the example an integrator copies. */
function readmeExample(): string {
  const block = /```js\n([\s\S]*?)\n```/.exec(readFileSync(readme, 'utf8'));
  if (block?.[1] === undefined) throw new Error(`${readme} has no \`\`\`js block`);
  return `${block[1]}\n`;
}

/** This process's environment without what `npm run test:jest` put there (npm_config_*, npm_package_*). */
const withoutNpm = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });

const until = async (condition: () => boolean, what: string, ms = 30_000) => {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not within ${ms / 1000} s: ${what}`);
};

let work: string;
let project: string;
let tarball: string;
let processes: ChorusProcesses;
let port: number;
let server: ChildProcess | undefined;
let api: HttpClient;
let key: string;
let organizationId: string;
let example: ChildProcess | undefined;
let printed: string[] = [];
let exampleErrors = '';

async function startServer(): Promise<void> {
  server = spawn(process.execPath, [join(root, 'dist/apps/api/src/main.js')], {
    cwd: root,
    env: { ...processes.environment(), PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if ((await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined))?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not start');
}

/**
 * `npm <args>` in the integrator's project, as a stranger to this repository: its own HOME (no ~/.npmrc, its own
 * cache).
 */
function npmInProject(...args: string[]): string {
  return execFileSync('npm', args, {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: join(work, 'home') },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
}

/** The lines the example printed since the last call, once `count` of them are there. */
const nextLines = async (count: number, what: string): Promise<string[]> => {
  await until(
    () => printed.length >= count,
    `${what} (printed so far: ${JSON.stringify(printed)}; stderr: ${exampleErrors})`,
  );
  return printed.splice(0, printed.length);
};

beforeAll(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'chorus-provider-package-'));
  project = join(work, 'integrator');
  mkdirSync(project);
  mkdirSync(join(work, 'home'));

  const packed = execFileSync('npm', ['run', '--silent', 'pack:provider'], {
    cwd: root,
    env: withoutNpm(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  tarball = packed.trim().split('\n').at(-1) ?? '';

  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'integrator', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  // The SDK and its peer @openfeature/core, as this repository installed them (package-lock.json), packed to install
  // offline.
  const sdk = ['server-sdk', 'core'].map((name) => join(root, 'node_modules', '@openfeature', name));
  const sdkTarballs = (
    JSON.parse(npmInProject('pack', '--ignore-scripts', '--json', ...sdk)) as { filename: string }[]
  ).map(({ filename }) => `./${filename}`);
  npmInProject('install', '--offline', '--no-audit', '--no-fund', tarball, ...sdkTarballs);
  writeFileSync(join(project, 'entitlements.mjs'), readmeExample());

  const dataDir = join(work, 'data');
  processes = new ChorusProcesses(dataDir);
  key = JSON.parse(
    processes.cli('api-key:create', '--name', 'billing', '--scopes', 'entitlements:read,organizations:write', '--json')
      .stdout,
  ).key as string;
  port = await freePort();
  await startServer();
  api = httpClient(`http://127.0.0.1:${port}`, { apiKey: key });
  organizationId = (await api.post('/organizations', { name: 'Acme' })).body.id as string;
  await api.post(`/organizations/${organizationId}/plan`, { line: 'classic', plan: 'essential' });
}, 240_000);

afterAll(() => {
  example?.kill('SIGKILL');
  server?.kill('SIGKILL');
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('the provider package, as an integrator installs it', () => {
  it('is a tarball of JavaScript and type declarations, with a package.json an outsider can install', () => {
    expect(isAbsolute(tarball)).toBe(true);
    expect(existsSync(tarball)).toBe(true);
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/README.md',
        'package/dist/index.js',
        'package/dist/index.d.ts',
      ]),
    );
    expect(files.filter((file) => /\.(ts|tsx|mts|cts)$/.test(file) && !/\.d\.ts$/.test(file))).toEqual([]);
    expect(
      files.filter((file) => !/^package\/(package\.json|README\.md|dist\/[\w-]+\.(js|d\.ts))$/.test(file)),
    ).toEqual([]);

    const manifest = JSON.parse(
      readFileSync(join(project, 'node_modules', '@chorus', 'openfeature-provider', 'package.json'), 'utf8'),
    );
    expect(manifest).toMatchObject({
      name: '@chorus/openfeature-provider',
      type: 'module',
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
    });
    expect(manifest.private).toBeUndefined();
    expect(manifest.peerDependencies).toHaveProperty('@openfeature/server-sdk');
  });

  it('type-checks in a TypeScript service: its options are typed, not any', () => {
    writeFileSync(
      join(project, 'check.ts'),
      [
        "import { OpenFeature } from '@openfeature/server-sdk';",
        "import { ChorusEntitlementsProvider, type ChorusProviderOptions } from '@chorus/openfeature-provider';",
        "const options: ChorusProviderOptions = { baseUrl: 'https://chorus.example.com', apiKey: 'key', reconnectMaxMs: 5_000 };",
        'await OpenFeature.setProviderAndWait(new ChorusEntitlementsProvider(options));',
        '// @ts-expect-error: the API key is required',
        "export const refused = new ChorusEntitlementsProvider({ baseUrl: 'https://chorus.example.com' });",
        '',
      ].join('\n'),
    );
    const compilerOptions = {
      strict: true,
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2022',
      types: [],
      skipLibCheck: true,
      noEmit: true,
    };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['check.ts'] }));
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    expect(() =>
      execFileSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8', stdio: 'pipe' }),
    ).not.toThrow();
  }, 60_000);

  it("runs the README's example: it answers, and follows a plan changed through the API", async () => {
    example = spawn(process.execPath, ['entitlements.mjs'], {
      cwd: project,
      env: {
        PATH: process.env.PATH,
        CHORUS_URL: `http://127.0.0.1:${port}`,
        CHORUS_KEY: key,
        CHORUS_ORG: organizationId,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    example.stdout?.on('data', (chunk: Buffer) =>
      printed.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((line) => line !== ''),
      ),
    );
    example.stderr?.on('data', (chunk: Buffer) => (exampleErrors += chunk.toString()));

    expect(await nextLines(1, 'the values once ready')).toEqual(['PROVIDER_READY classic:essential sections: 0 of 1']);

    expect(
      (await api.post(`/organizations/${organizationId}/plan`, { line: 'classic', plan: 'professional' })).status,
    ).toBeLessThan(300);
    expect(await nextLines(1, 'the new plan')).toEqual([
      'PROVIDER_CONFIGURATION_CHANGED classic:professional sections: 0 of 2',
    ]);
  }, 60_000);

  it('answers the last values as STALE while the server is down, and what changed meanwhile once it is back', async () => {
    printed = [];
    server?.kill('SIGKILL');
    expect(await nextLines(1, 'STALE')).toEqual(['PROVIDER_STALE classic:professional sections: 0 of 2']);

    // Changed while no server runs: the command line, on the same store.
    expect(processes.cli('org:plan', organizationId, '--line', 'classic', '--plan', 'enterprise').status).toBe(0);
    await startServer();
    await until(
      () => printed.includes('PROVIDER_CONFIGURATION_CHANGED classic:enterprise sections: 0 of 1000'),
      `the change made while down (printed: ${JSON.stringify(printed)})`,
    );
    expect(printed[0]).toMatch(/^PROVIDER_READY /);
    expect(example?.exitCode).toBeNull();
  }, 90_000);
});
