// A port or host the server cannot listen on is the operator's to fix: one line that names the
// setting, no stack trace, exit 1 (like a wrong setting at start-up).
import { createServer } from 'node:http';

export type ListenAddress = { host: string; port: number };

/** The one-line explanation of a listen error the operator can fix by a setting, else undefined. */
export function listenFailure(error: unknown, { host, port }: ListenAddress): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  switch (code) {
    case 'EADDRINUSE':
      return `PORT ${port} is already in use on ${host}: stop the program using it, or start with another PORT (e.g. PORT=${port === 65535 ? port - 1 : port + 1}).`;
    case 'EACCES':
      return `PORT ${port} needs privileges this user does not have: use a PORT above 1023 behind a reverse proxy.`;
    case 'EADDRNOTAVAIL':
      return `HOST ${host} is not an address of this machine: set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for all).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST ${host} cannot be resolved: set HOST to an address of this machine (127.0.0.1, or 0.0.0.0 for all).`;
    default:
      return undefined;
  }
}

/**
 * Binds the address and lets it go at once: run before the app starts, so a taken port stops the
 * process before it opens the store (and before a first run's demo password is made, then lost).
 * A race with another process is still caught by listen itself.
 */
export function listenProblem(address: ListenAddress): Promise<string | undefined> {
  if (address.port === 0) return Promise.resolve(undefined);
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', (error) => done(listenFailure(error, address)));
    probe.listen(address.port, address.host, () => probe.close(() => done(undefined)));
  });
}
