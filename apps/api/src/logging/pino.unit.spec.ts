import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { runInRequestContext } from '../http/request-context.js';
import { createPino } from './pino.js';

function capture(): { lines: Record<string, unknown>[]; destination: Writable } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

describe('createPino', () => {
  it('redacts credentials wherever they sit, up to two levels deep', () => {
    const { lines, destination } = capture();
    const logger = createPino({ level: 'info', destination });

    logger.info(
      { password: 'hunter2', headers: { authorization: 'Bearer chrs_x', cookie: 'session=abc' }, body: { user: { token: 'reset-token' } }, apiKey: 'k' },
      'something',
    );

    const line = JSON.stringify(lines[0]);
    for (const secret of ['hunter2', 'chrs_x', 'session=abc', 'reset-token', '"k"']) expect(line).not.toContain(secret);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'something', password: '[REDACTED]', headers: { authorization: '[REDACTED]' } });
  });

  it('stamps every line written within a request with its correlation id and actor', () => {
    const { lines, destination } = capture();
    const logger = createPino({ level: 'info', destination });

    runInRequestContext({ correlationId: 'corr-7', clientIp: undefined, userAgent: undefined, principal: { kind: 'api-key', keyId: 'k1', scopes: [] } }, () => {
      logger.info('inside');
    });
    logger.info('outside');

    expect(lines[0]).toMatchObject({ msg: 'inside', correlationId: 'corr-7', actor: 'api-key:k1' });
    expect(lines[1]).not.toHaveProperty('correlationId');
  });
});
