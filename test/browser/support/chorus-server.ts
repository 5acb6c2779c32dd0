// The real Chorus server in this process (createApp over the embedded store in a temp DATA_DIR) and
// the real `chorus` command line (bin/chorus.js over dist/) on the same DATA_DIR, at the same time.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfig } from '#config';
import { READ_MODELS, type ReadModels } from '#read-models';
import { createApp } from '#api';
import { waitFor } from './wait-for.js';

export const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..');

export type CliRun = { code: number | null; stdout: string; stderr: string };

export type NewUser = {
  email: string;
  password: string;
  username?: string;
  organizationId?: string;
  role?: 'owner' | 'admin' | 'member' | 'auditor';
};

export type ChorusServer = {
  /**
   * PUBLIC_URL, where the browser opens the app: http://127.0.0.1:<port> (or the public host asked for), no trailing
   * slash.
   */
  baseUrl: string;
  dataDir: string;
  app: NestExpressApplication;
  /** Every log line the server wrote, parsed (shown when a test needs to explain a failure). */
  logs: Record<string, unknown>[];
  /** Runs `chorus <args>`; throws with its stderr unless it exits 0. */
  cli(args: string[]): Promise<CliRun>;
  /** `chorus org:create` then `chorus org:plan` (members can only join an organization with a plan); answers its id. */
  createOrganization(name: string, id: string, plan?: { line: 'classic' | 'chorus'; plan: string }): Promise<string>;
  /** `chorus user:create`; answers the user's id once the server sees the membership asked for. */
  createUser(user: NewUser): Promise<string>;
  close(): Promise<void>;
};

function listen(server: Server): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done((server.address() as AddressInfo).port));
  });
}

/**
 * `settings` are environment variables on top of NODE_ENV=test, SEED_DEMO=false. The listening socket
 * is bound first (port 0), so PUBLIC_URL (reset links, the Google callback) names the real port.
 */
export async function startChorusServer(
  settings: Record<string, string> = {},
  { publicHost = '127.0.0.1' }: { publicHost?: string } = {},
): Promise<ChorusServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chorus-browser-'));
  const http = createServer();
  let app: NestExpressApplication | undefined;
  const close = async () => {
    http.closeAllConnections();
    if (http.listening) await new Promise<void>((done) => http.close(() => done()));
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const port = await listen(http);
    // `localhost` for passkeys: WebAuthn takes no IP address as the relying party's id.
    const baseUrl = `http://${publicHost}:${port}`;
    const environment = {
      NODE_ENV: 'test',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      ...settings,
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
    };
    const logs: Record<string, unknown>[] = [];
    const logDestination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line.trim() !== '') logs.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    app = await createApp(loadConfig(environment), { logDestination });
    http.on('request', app.getHttpAdapter().getInstance());
    const readModels = app.get<ReadModels>(READ_MODELS, { strict: false });

    const cli = (args: string[]) =>
      new Promise<CliRun>((done, fail) => {
        execFile(
          process.execPath,
          [join(repositoryRoot, 'bin', 'chorus.js'), ...args],
          { cwd: repositoryRoot, env: { PATH: process.env.PATH, ...environment } },
          (error, stdout, stderr) => {
            const run = {
              code: error === null ? 0 : typeof error.code === 'number' ? error.code : null,
              stdout,
              stderr,
            };
            if (run.code === 0) done(run);
            else fail(new Error(`chorus ${args.join(' ')} exited ${run.code}: ${stderr.trim()}`));
          },
        );
      });

    return {
      baseUrl,
      dataDir,
      app,
      logs,
      cli,
      async createOrganization(name, id, plan = { line: 'classic', plan: 'professional' }) {
        await cli(['org:create', '--name', name, '--id', id]);
        await cli(['org:plan', id, '--line', plan.line, '--plan', plan.plan]);
        return id;
      },
      async createUser({ email, password, username, organizationId, role }) {
        const args = ['user:create', '--email', email, '--password', password, '--json'];
        if (username !== undefined) args.push('--username', username);
        if (organizationId !== undefined) args.push('--org', organizationId, '--role', role ?? 'member');
        const { userId } = JSON.parse((await cli(args)).stdout) as { userId: string };
        // The CLI writes to the store from another process; the server's projection picks it up from there.
        if (organizationId !== undefined) {
          await waitFor(`the server to see ${email} as a member of ${organizationId}`, () =>
            readModels.organizations
              .organizationsOfUser(userId)
              .some((membership) => membership.organizationId === organizationId)
              ? true
              : undefined,
          );
        }
        return userId;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
