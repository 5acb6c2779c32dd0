// A throw-away PostgreSQL cluster for the integration tests: Debian's binaries, a data directory under the
// system's temporary directory, its own port and socket directory, so the distro's own cluster (if any) is
// never in the way. Where no binaries exist or the cluster cannot start, `startPostgresServer` says why.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const POSTGRES_ROOT = '/usr/lib/postgresql';

export type PostgresServer = {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication: a test cluster only). */
  readonly url: string;
  readonly port: number;
  /** Creates a fresh database and answers its URL: each suite keeps its own log. */
  createDatabase(name: string): Promise<string>;
  /**
   * Stops the server (fast shutdown: every connection is cut), awaits `whileDown`, and starts it again on the same port
   * and data.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  /** Stops the cluster at once (immediate shutdown) and deletes its directory. */
  stop(): Promise<void>;
};

export type PostgresStart = { server: PostgresServer } | { skip: string };

/** The newest installed major version's bin directory, or undefined. */
export function findPostgresBinaries(): string | undefined {
  if (!existsSync(POSTGRES_ROOT)) return undefined;
  const versions = readdirSync(POSTGRES_ROOT)
    .filter((entry) => existsSync(join(POSTGRES_ROOT, entry, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  const newest = versions[0];
  return newest === undefined ? undefined : join(POSTGRES_ROOT, newest, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** initdb refuses to run as root: as root, the cluster belongs to the `postgres` user and its tools run as it. */
function asClusterOwner(binary: string, args: string[]): [string, string[]] {
  if (process.getuid?.() === 0) return ['runuser', ['-u', 'postgres', '--', binary, ...args]];
  return [binary, args];
}

async function runTool(binary: string, args: string[]): Promise<void> {
  const [command, commandArgs] = asClusterOwner(binary, args);
  await run(command, commandArgs, { timeout: 60_000 });
}

export async function startPostgresServer(): Promise<PostgresStart> {
  const bin = findPostgresBinaries();
  if (bin === undefined)
    return { skip: `no PostgreSQL binaries under ${POSTGRES_ROOT}/*/bin (install Debian's postgresql)` };
  const dir = mkdtempSync(join(tmpdir(), 'chorus-pg-'));
  try {
    if (process.getuid?.() === 0) chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), -1);
    await runTool(join(bin, 'initdb'), [
      '-D',
      dir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    const port = await freePort();
    // fsync and synchronous_commit stay on: the crash suite is about what an acknowledged commit means.
    const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
    await runTool(join(bin, 'pg_ctl'), [
      '-D',
      dir,
      '-o',
      serverOptions,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const server: PostgresServer = {
      url,
      port,
      createDatabase: async (name) => {
        await runTool(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]);
        return `postgres://postgres@127.0.0.1:${port}/${name}`;
      },
      restart: async (whileDown) => {
        await runTool(join(bin, 'pg_ctl'), ['-D', dir, '-m', 'fast', '-w', 'stop']);
        await whileDown?.();
        await runTool(join(bin, 'pg_ctl'), [
          '-D',
          dir,
          '-o',
          serverOptions,
          '-l',
          join(dir, 'server.log'),
          '-w',
          '-t',
          '60',
          'start',
        ]);
      },
      stop: async () => {
        await runTool(join(bin, 'pg_ctl'), ['-D', dir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
    return { server };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const why = error instanceof Error ? error.message.split('\n').slice(0, 3).join(' ') : String(error);
    return { skip: `a PostgreSQL cluster could not be started here (${why})` };
  }
}
