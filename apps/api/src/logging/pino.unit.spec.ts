import { describe, expect, it, jest } from '@jest/globals';
import { Writable } from 'node:stream';
import { runWithLogContext } from './log-context.js';
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
  it("stamps each line with the ISO time of the millisecond it is written in, as pino's isoTime", () => {
    const { lines, destination } = capture();
    const logger = createPino({ level: 'info', destination });
    const now = jest.spyOn(Date, 'now');
    try {
      for (const at of [1_795_000_000_000, 1_795_000_000_000, 1_795_000_000_001, 1_795_000_060_000]) {
        now.mockReturnValue(at);
        logger.info('tick');
      }
    } finally {
      now.mockRestore();
    }
    expect(lines.map((line) => line.time)).toEqual([
      '2026-11-18T11:06:40.000Z',
      '2026-11-18T11:06:40.000Z',
      '2026-11-18T11:06:40.001Z',
      '2026-11-18T11:07:40.000Z',
    ]);
  });

  it('redacts credentials wherever they sit, up to two levels deep', () => {
    const { lines, destination } = capture();
    const logger = createPino({ level: 'info', destination });

    logger.info(
      {
        password: 'hunter2',
        headers: { authorization: 'Bearer chrs_x', cookie: 'session=abc' },
        body: { user: { token: 'reset-token' } },
        apiKey: 'k',
      },
      'something',
    );

    const line = JSON.stringify(lines[0]);
    for (const secret of ['hunter2', 'chrs_x', 'session=abc', 'reset-token', '"k"']) expect(line).not.toContain(secret);
    expect(lines[0]).toMatchObject({
      level: 'info',
      msg: 'something',
      password: '[REDACTED]',
      headers: { authorization: '[REDACTED]' },
    });
  });

  it('stamps every line written within a request with its correlation id and actor', () => {
    const { lines, destination } = capture();
    const logger = createPino({ level: 'info', destination });

    runWithLogContext({ correlationId: 'corr-7', actor: 'api-key:k1' }, () => {
      logger.info('inside');
    });
    logger.info('outside');

    expect(lines[0]).toMatchObject({ msg: 'inside', correlationId: 'corr-7', actor: 'api-key:k1' });
    expect(lines[1]).not.toHaveProperty('correlationId');
  });
});
