import { describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenFailure, listenProblem } from './listen-failure.js';

async function occupiedPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('listening', () => {
  it('names PORT in one line when the port is taken', async () => {
    const { server, port } = await occupiedPort();
    try {
      const problem = await listenProblem({ host: '127.0.0.1', port });
      expect(problem).toBe(
        `PORT ${port} is already in use on 127.0.0.1: stop the program using it, or start with another PORT (e.g. PORT=${port + 1}).`,
      );
    } finally {
      server.close();
    }
  });

  it('answers nothing for a free port, and leaves it free', async () => {
    const { server, port } = await occupiedPort();
    await new Promise((done) => server.close(done));

    expect(await listenProblem({ host: '127.0.0.1', port })).toBeUndefined();
    const again = createServer();
    await new Promise<void>((done) => again.listen(port, '127.0.0.1', done));
    await new Promise((done) => again.close(done));
  });

  it('names HOST when it is not an address of this machine', async () => {
    expect(await listenProblem({ host: '192.0.2.1', port: 3999 })).toMatch(
      /^HOST 192\.0\.2\.1 is not an address of this machine: /,
    );
  });

  it('leaves other errors to the caller', () => {
    expect(listenFailure(new Error('something else'), { host: '127.0.0.1', port: 3000 })).toBeUndefined();
    expect(
      listenFailure(Object.assign(new Error('denied'), { code: 'EACCES' }), { host: '127.0.0.1', port: 80 }),
    ).toMatch(/^PORT 80 needs privileges/);
  });
});
