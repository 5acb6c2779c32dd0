// A real DNS server on 127.0.0.1 for the SSO domain check, as test/support/dns-server.ts runs it: Debian's dnsmasq,
// answering the TXT records it is given for its zones (NXDOMAIN for any other name in them), restarted on the same
// port when the records change. It runs under a shell that kills it when this process's pipe closes, so it stops
// with the bench even when the bench is killed.
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { existsSync } from 'node:fs';

export const dnsmasqBinary = '/usr/sbin/dnsmasq';

async function freeUdpPort() {
  const socket = createSocket('udp4');
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise((resolve) => socket.close(resolve));
  return port;
}

/** Serves TXT `records` ({name: [values]}) for `zones`; `address` is for DNS_SERVERS. */
export async function startDnsServer(zones, records = {}) {
  if (!existsSync(dnsmasqBinary))
    throw new Error(`${dnsmasqBinary} is not installed (Debian's dnsmasq-base: apt-get install dnsmasq-base)`);
  // A free UDP port may be taken over TCP (dnsmasq binds both): another port then.
  for (let attempt = 1; ; attempt += 1) {
    const server = dnsServer(await freeUdpPort(), zones);
    try {
      await server.serve(records);
      return server;
    } catch (error) {
      await server.stop();
      if (attempt === 3) throw error;
    }
  }
}

function dnsServer(port, zones) {
  const address = `127.0.0.1:${port}`;
  let running;
  const stop = async () => {
    const child = running;
    if (child === undefined) return;
    running = undefined;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    await exited;
    // The port is free again once dnsmasq itself has gone, not only its shell.
    await new Promise((resolve) => setTimeout(resolve, 100));
  };
  const serve = async (records) => {
    await stop();
    const args = [
      '--keep-in-foreground',
      '--no-resolv',
      '--no-hosts',
      '--conf-file=/dev/null',
      '--listen-address=127.0.0.1',
      '--bind-interfaces',
    ];
    args.push(`--port=${port}`, '--pid-file=', ...zones.map((zone) => `--local=/${zone}/`));
    for (const [name, values] of Object.entries(records))
      for (const value of values) args.push(`--txt-record=${name},${value}`);
    const quoted = [dnsmasqBinary, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
    // The shell waits on its stdin: when this process's end of the pipe closes, dnsmasq is killed.
    running = spawn('sh', ['-c', `${quoted} & child=$!; trap 'kill $child; wait $child' EXIT; cat >/dev/null`], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let said = '';
    running.stderr.on('data', (chunk) => (said += chunk));
    const resolver = new Resolver({ timeout: 200, tries: 1 });
    resolver.setServers([address]);
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await resolver.resolveTxt(`_ready.${zones[0]}`);
        return;
      } catch (error) {
        if (error.code === 'ENOTFOUND') return;
        // dnsmasq writes to stderr only when it fails to start.
        if (said !== '' || Date.now() > deadline)
          throw new Error(`dnsmasq did not answer on ${address}: ${said || 'it said nothing'}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  return { address, serve, stop };
}
