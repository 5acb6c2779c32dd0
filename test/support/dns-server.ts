// A real DNS server on 127.0.0.1 for the SSO domain checks: Debian's dnsmasq, answering TXT records of the
// zones it is given (an unknown name in them is NXDOMAIN, as a real zone answers). Changing the records
// restarts it on the same port. dnsmasq runs under a shell that kills it when this process's pipe closes,
// so it stops with the test run even when that run is killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { existsSync } from 'node:fs';

export const dnsmasqBinary = '/usr/sbin/dnsmasq';

/** TXT values by record name, e.g. `{'_chorus-verification.acme.example': ['token']}`. */
export type TxtRecords = Record<string, string[]>;

/** Why DNS tests cannot run here, or undefined when they can (scripts/test.sh installs dnsmasq-base). */
export function dnsServerMissing(): string | undefined {
  return existsSync(dnsmasqBinary)
    ? undefined
    : `${dnsmasqBinary} is not installed (Debian's dnsmasq-base): the DNS verification tests are skipped`;
}

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export class DnsServer {
  private process: ChildProcess | undefined;
  private published: TxtRecords = {};

  private constructor(
    readonly port: number,
    private readonly zones: readonly string[],
  ) {}

  /** Serves `records` for `zones` (the domains whose names it answers for, NXDOMAIN for the rest of them). */
  static async start(zones: readonly string[], records: TxtRecords = {}): Promise<DnsServer> {
    // A free UDP port may be taken over TCP (dnsmasq binds both), e.g. by an outgoing connection: take another.
    for (let attempt = 1; ; attempt += 1) {
      const server = new DnsServer(await freeUdpPort(), zones);
      try {
        await server.serve(records);
        return server;
      } catch (error) {
        await server.stop();
        if (attempt === 3) throw error;
      }
    }
  }

  /** For DNS_SERVERS. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Adds these records to those served already (a record of the same name is replaced), then serves them all. */
  async publish(records: TxtRecords): Promise<void> {
    this.published = { ...this.published, ...records };
    await this.serve(this.published);
  }

  /** Replaces every record: dnsmasq is restarted with the new ones and answers them before this resolves. */
  async serve(records: TxtRecords): Promise<void> {
    await this.stop();
    const args = [
      '--keep-in-foreground',
      '--no-resolv',
      '--no-hosts',
      '--conf-file=/dev/null',
      '--listen-address=127.0.0.1',
      '--bind-interfaces',
    ];
    args.push(`--port=${this.port}`, '--pid-file=', ...this.zones.map((zone) => `--local=/${zone}/`));
    for (const [name, values] of Object.entries(records))
      for (const value of values) args.push(`--txt-record=${name},${value}`);
    const quoted = [dnsmasqBinary, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
    // The shell waits on its stdin: when this process's end of the pipe closes, dnsmasq is killed.
    this.process = spawn('sh', ['-c', `${quoted} & child=$!; trap 'kill $child; wait $child' EXIT; cat >/dev/null`], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let said = '';
    this.process.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
    await this.answering(() => said);
  }

  async stop(): Promise<void> {
    const running = this.process;
    if (running === undefined) return;
    this.process = undefined;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.stdin?.end();
    await exited;
    // The port is free again once dnsmasq has gone, not only its shell.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /** `said`: what dnsmasq wrote on stderr, named when it never answers (it refused its arguments, or its port). */
  private async answering(said: () => string): Promise<void> {
    const resolver = new Resolver({ timeout: 200, tries: 1 });
    resolver.setServers([this.address]);
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await resolver.resolveTxt(`_ready.${this.zones[0] ?? 'ready.invalid'}`);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOTFOUND') return;
        // dnsmasq writes to stderr only when it fails to start (it exits then): no need to wait for the deadline.
        if (said() !== '' || Date.now() > deadline)
          throw new Error(`dnsmasq did not answer on ${this.address}: ${said() || 'it said nothing'}`, {
            cause: error,
          });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
}
