// The scale-out topology as the tests run it: API nodes (the built server, each its own DATA_DIR) over one
// event store, and Debian's nginx in front of them with the proxy settings of deploy/scale-out/nginx.conf.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const main = path.join(root, 'dist', 'apps', 'api', 'src', 'main.js');
const chorus = path.join(root, 'bin', 'chorus.js');
export const nginxBinary = '/usr/sbin/nginx';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

export type ApiNode = {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly child: ChildProcess;
  readonly exit: Promise<NodeJS.Signals | number | null>;
  /** What the node wrote to standard error (its warnings and errors). */
  stderr(): string;
};

/** One key for the history's checkpoints, shared by every node as an operator shares it (docs/history.md). */
const historySigningKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** The environment of every node: the same store and secrets, its own DATA_DIR. */
export function nodeEnvironment(dataDir: string, shared: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    EVENTSTORE_CONNECTION_STRING: '',
    DATA_DIR: dataDir,
    HISTORY_SIGNING_KEY: historySigningKey,
    ...shared,
  };
}

/** Starts the built server on a port of its own and waits for /health to answer 200. */
export async function startApiNode(
  name: string,
  dataDir: string,
  shared: Record<string, string>,
  port?: number,
): Promise<ApiNode> {
  const listen = port ?? (await freePort());
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: { ...nodeEnvironment(dataDir, shared), HOST: '127.0.0.1', PORT: String(listen) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exit = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const url = `http://127.0.0.1:${listen}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`${name} did not answer /health within 60 s: ${stderr}`);
    if (
      await fetch(`${url}/health`).then(
        (answer) => answer.ok,
        () => false,
      )
    )
      break;
    await sleep(100);
  }
  return { name, url, port: listen, dataDir, child, exit, stderr: () => stderr };
}

/** Runs `chorus` against the same store (a node's DATA_DIR) to its end; throws with its output when it fails. */
export function chorusCli(dataDir: string, shared: Record<string, string>, ...args: string[]): string {
  const run = spawnSync(process.execPath, [chorus, ...args], {
    cwd: root,
    env: nodeEnvironment(dataDir, shared),
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`chorus ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}

export type Proxy = { readonly url: string; stop(): Promise<void> };

/** Why nginx cannot run here, or undefined. */
export function nginxMissing(): string | undefined {
  return existsSync(nginxBinary) ? undefined : `${nginxBinary} is not installed (Debian's nginx)`;
}

/**
 * deploy/scale-out/nginx.conf itself, its upstream servers pointed at `nodes` and its port at a free one: a node
 * that refuses the connection or times out is passed over (a POST only when it was never sent), and
 * Chorus's own 503 answers (not yet consistent, not ready) reach the client without marking the node failed.
 */
export async function startProxy(nodes: readonly ApiNode[]): Promise<Proxy> {
  const port = await freePort();
  const prefix = mkdtempSync(path.join(tmpdir(), 'chorus-nginx-'));
  for (const directory of ['logs', 'temp']) mkdirSync(path.join(prefix, directory));
  const deployed = readFileSync(path.join(root, 'deploy', 'scale-out', 'nginx.conf'), 'utf8');
  const servers = [...deployed.matchAll(/^\s*server api-\d+:3000 (.*);$/gm)];
  if (servers.length !== 2 || !/^\s*listen 80;$/m.test(deployed))
    throw new Error('deploy/scale-out/nginx.conf: expected two api-N:3000 servers and listen 80');
  const options = servers[0]?.[1] ?? '';
  const site = deployed
    .replace(
      /^\s*server api-1:3000 .*;$/m,
      nodes.map((node) => `    server 127.0.0.1:${node.port} ${options};`).join('\n'),
    )
    .replace(/^\s*server api-\d+:3000 .*;\n/gm, '')
    .replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${port};`);
  const conf = path.join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/temp/body;
  proxy_temp_path ${prefix}/temp/proxy;
  fastcgi_temp_path ${prefix}/temp/fastcgi;
  uwsgi_temp_path ${prefix}/temp/uwsgi;
  scgi_temp_path ${prefix}/temp/scgi;
${site}
}
`,
  );
  const child = spawn(nginxBinary, ['-p', prefix, '-c', conf, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (
    !(await fetch(`${url}/nginx-health`).then(
      (answer) => answer.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`nginx did not start: ${stderr}`);
    await sleep(50);
  }
  return {
    url,
    async stop() {
      child.kill('SIGQUIT');
      await exited;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
