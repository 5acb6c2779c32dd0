import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { createPino } from './pino.js';
import { StructuredLogger } from './structured-logger.service.js';

function loggerAt(level: 'info' | 'debug') {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: new StructuredLogger(createPino({ level, destination })) };
}

describe('StructuredLogger', () => {
  it.each([
    ['RouterExplorer', 'Mapped {/login, POST} route'],
    ['RoutesResolver', 'SignInController {/}:'],
    ['InstanceLoader', 'AppModule dependencies initialized'],
    ['NestFactory', 'Starting Nest application...'],
    ['NestApplication', 'Nest application successfully started'],
  ])("writes Nest's start-up line from %s at debug, so it stays out of the default output", (context, message) => {
    const quiet = loggerAt('info');
    quiet.logger.log(message, context);
    expect(quiet.lines).toEqual([]);

    const verbose = loggerAt('debug');
    verbose.logger.log(message, context);
    expect(verbose.lines).toEqual([expect.objectContaining({ level: 'debug', context, msg: message })]);
  });

  it('writes every other log line at info, and keeps the start-up contexts for warnings and errors', () => {
    const { lines, logger } = loggerAt('info');
    logger.log('projection live', 'Projections');
    logger.error('listen EADDRINUSE', 'NestApplication');
    logger.warn('slow route', 'RouterExplorer');

    expect(lines.map(({ level, context, msg }) => ({ level, context, msg }))).toEqual([
      { level: 'info', context: 'Projections', msg: 'projection live' },
      { level: 'error', context: 'NestApplication', msg: 'listen EADDRINUSE' },
      { level: 'warn', context: 'RouterExplorer', msg: 'slow route' },
    ]);
  });

  it('passes an error with its stack to pino', () => {
    const { lines, logger } = loggerAt('info');
    const error = new Error('boom');
    logger.error(error, error.stack, 'Somewhere');

    expect(lines[0]).toMatchObject({ level: 'error', msg: 'boom', context: 'Somewhere', err: { message: 'boom' } });
  });
});
