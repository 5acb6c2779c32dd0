// Slow and idle clients cannot hold the server's connections (slowloris): headers or a body sent a
// byte at a time are cut off with 408 once HTTP_HEADERS_TIMEOUT_MS / HTTP_REQUEST_TIMEOUT_MS have
// passed, idle keep-alive connections are closed, and connections beyond HTTP_MAX_CONNECTIONS are
// refused as they arrive. The configured limits here are short; each client keeps going for far
// longer than them (and for less than Node's defaults: 60 s, 300 s, 5 s, no cap), so only the
// configured limits can end it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { startApp, type RunningApp } from '../support/start-app.js';

const limits = { HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '300' };
/** How long a slow client keeps sending before the test gives up on the server cutting it off. */
const patienceMs = 4_000;

type Ending = { closedByServer: boolean; received: string };

/** Connects, sends `head`, then one byte of `drip` every 100 ms until the server closes or patience runs out. */
function slowClient(baseUrl: string, head: string, drip: string): Promise<Ending> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let received = '';
    let sent = 0;
    let dripping: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      clearInterval(dripping);
      socket.destroy();
      resolve({ closedByServer: false, received });
    }, patienceMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(dripping);
      clearTimeout(giveUp);
      resolve({ closedByServer: true, received });
    });
    socket.on('connect', () => {
      if (head !== '') socket.write(head);
      if (drip === '') return;
      dripping = setInterval(() => {
        if (!socket.writable) return;
        socket.write(drip.charAt(sent % drip.length));
        sent += 1;
      }, 100);
    });
  });
}

/** A connection that has had one answer and is kept alive; resolves once an answer was read. */
function keptAlive(baseUrl: string): Promise<{ socket: net.Socket; closed: Promise<void> }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () =>
      socket.write('GET /health HTTP/1.1\r\nHost: chorus.test\r\n\r\n'),
    );
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('data', () => resolve({ socket, closed }));
    void closed.then(() => reject(new Error('closed before any answer')));
  });
}

describe('slow clients', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp(limits);
  });
  afterAll(() => app.close());

  it('applies the configured limits to the HTTP server', () => {
    const server = app.app.getHttpServer();
    expect({
      headers: server.headersTimeout,
      request: server.requestTimeout,
      keepAlive: server.keepAliveTimeout,
      max: server.maxConnections,
    }).toEqual({
      headers: 500,
      request: 1_000,
      keepAlive: 300,
      max: 1_000,
    });
  });

  it('cuts off a client that sends its headers a byte at a time (408)', async () => {
    const ending = await slowClient(
      app.baseUrl,
      'GET /health HTTP/1.1\r\nHost: chorus.test\r\n',
      'X-Slow: still coming\r\n',
    );
    expect(ending.closedByServer).toBe(true);
    expect(ending.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts off a client that sends its body a byte at a time (408)', async () => {
    const head =
      'POST /organizations HTTP/1.1\r\nHost: chorus.test\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"name":"';
    const ending = await slowClient(app.baseUrl, head, 'a');
    expect(ending.closedByServer).toBe(true);
    expect(ending.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that never sends anything', async () => {
    const ending = await slowClient(app.baseUrl, '', '');
    expect(ending.closedByServer).toBe(true);
  });

  it('closes a kept-alive connection once it has been idle for HTTP_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const { closed } = await keptAlive(app.baseUrl);
    const outcome = await Promise.race([
      closed.then(() => 'closed by the server'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), patienceMs)),
    ]);
    expect(outcome).toBe('closed by the server');
  });
});

describe('HTTP_MAX_CONNECTIONS', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ HTTP_MAX_CONNECTIONS: '3', HTTP_KEEP_ALIVE_TIMEOUT_MS: '60000' });
  });
  afterAll(() => app.close());

  const openConnections = (): Promise<number> =>
    new Promise((resolve, reject) =>
      app.app.getHttpServer().getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );

  it('refuses connections beyond the cap as they arrive, and serves again once one closes', async () => {
    const held = await Promise.all([keptAlive(app.baseUrl), keptAlive(app.baseUrl), keptAlive(app.baseUrl)]);
    expect(await openConnections()).toBe(3);

    const refused = await slowClient(app.baseUrl, 'GET /health HTTP/1.1\r\nHost: chorus.test\r\n\r\n', '');
    expect(refused).toEqual({ closedByServer: true, received: '' });

    held[0]?.socket.destroy();
    while ((await openConnections()) > 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const served = await keptAlive(app.baseUrl);
    served.socket.destroy();
    for (const connection of held) connection.socket.destroy();
  });
});
