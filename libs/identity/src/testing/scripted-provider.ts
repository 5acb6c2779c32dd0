// A hostile or broken OpenID provider on 127.0.0.1, for the tests of provider-fetch.ts and its users: each
// path answers as the test says (a discovery document, a status, a body of hundreds of megabytes generated
// as it is sent, a trickle), and every connection, request and byte sent is counted.
import {
  Agent,
  createServer,
  type ClientRequestArgs,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, isIP, type LookupFunction, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type ScriptedAnswer =
  | { kind: 'json'; body: unknown; status?: number }
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  /** A JSON-looking body of `bytes`, generated chunk by chunk as the client reads it, never held. */
  | { kind: 'huge'; bytes: number }
  /** Headers at once, then one byte every `everyMs`, for ever. */
  | { kind: 'trickle'; everyMs: number };

export class ScriptedProvider {
  /** What each path answers (`*` for any other path; 404 when neither is set). */
  readonly answers = new Map<string, ScriptedAnswer>();
  readonly requests: { method: string; path: string; host: string }[] = [];
  connections = 0;
  bytesSent = 0;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<ScriptedProvider> {
    const server = createServer();
    const provider = new ScriptedProvider(server);
    server.on('connection', () => (provider.connections += 1));
    server.on('request', (request: IncomingMessage, response: ServerResponse) => provider.answer(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return provider;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  requestsTo(path: string): number {
    return this.requests.filter((request) => request.path === path).length;
  }

  /** A discovery document for `issuer` whose endpoints are under `endpointsAt` (the issuer itself by default). */
  static discoveryDocument(
    issuer: string,
    endpointsAt = issuer,
    overrides: Record<string, unknown> = {},
  ): Record<string, unknown> {
    return {
      issuer,
      authorization_endpoint: `${endpointsAt}/authorize`,
      token_endpoint: `${endpointsAt}/token`,
      jwks_uri: `${endpointsAt}/jwks`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['S256'],
      ...overrides,
    };
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    this.requests.push({ method: request.method ?? 'GET', path, host: request.headers.host ?? '' });
    request.resume();
    const answer = this.answers.get(path) ?? this.answers.get('*') ?? { kind: 'status', status: 404 };
    const send = (chunk: string | Buffer) => {
      this.bytesSent += Buffer.byteLength(chunk);
      return response.write(chunk);
    };
    switch (answer.kind) {
      case 'json':
        response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        send(JSON.stringify(answer.body));
        response.end();
        return;
      case 'status':
        response.writeHead(answer.status, answer.headers);
        response.end();
        return;
      case 'huge': {
        // Chunked, no Content-Length: only counting while reading can stop it.
        response.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let left = answer.bytes;
        send('{"issuer":"');
        const pump = (): void => {
          while (left > 0 && !response.destroyed) {
            left -= chunk.length;
            if (!send(chunk)) {
              response.once('drain', pump);
              return;
            }
          }
          if (!response.destroyed) response.end('"}');
        };
        pump();
        return;
      }
      case 'trickle': {
        response.writeHead(200, { 'content-type': 'application/json' });
        send('{');
        const timer = setInterval(() => send(' '), answer.everyMs);
        response.on('close', () => clearInterval(timer));
        return;
      }
    }
  }
}

/**
 * This test's network: names resolve through `lookup` (made-up public addresses), and a connection to
 * whatever address it gave lands on the scripted provider, since no public network exists here.
 */
export class LoopbackNetwork extends Agent {
  constructor(private readonly port: number) {
    super();
  }

  override createConnection(options: ClientRequestArgs): Socket {
    const host = options.hostname ?? options.host ?? 'localhost';
    const checked = options.lookup as LookupFunction | undefined;
    // Only ever 127.0.0.1, whatever was resolved: the request's lookup is asked (and may refuse), its answer is not
    // used.
    const toLoopback: LookupFunction = (_name, lookupOptions, done) => {
      const loopback = () =>
        lookupOptions.all === true ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4);
      if (checked === undefined || isIP(host) !== 0) return loopback();
      checked(host, lookupOptions, (error) => (error === null ? loopback() : done(error, '', 0)));
    };
    return connect({ host: 'provider.invalid', port: this.port, lookup: toLoopback });
  }
}

/** A resolver that answers from a table, as dns.lookup would (unknown names: ENOTFOUND). */
export function tableResolver(table: Record<string, string[] | (() => string[])>): LookupFunction {
  return (hostname, options, callback) => {
    const entry = table[hostname];
    const addresses = (typeof entry === 'function' ? entry() : entry) ?? [];
    const found = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    setImmediate(() => {
      if (found[0] === undefined)
        return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all === true) return callback(null, found);
      return callback(null, found[0].address, found[0].family);
    });
  };
}
