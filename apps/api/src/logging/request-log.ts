// Where each request's "request completed" line goes (REQUEST_LOG, docs/configuration.md): with every other
// line, in a file of its own under DATA_DIR (development's default: a browser's first page is some twenty
// requests, which would scroll `npm start`'s box and its one-time password off the screen), or nowhere.
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import type { Config } from '#config';
import { createPino } from './pino.js';

export const requestLogFile = (dataDir: string): string => join(dataDir, 'logs', 'requests.log');

/** `logger`: the service's own, which `stdout` shares. */
export function requestLogger(config: Pick<Config, 'requestLog' | 'logLevel' | 'dataDir'>, logger: Logger): Logger {
  switch (config.requestLog) {
    case 'stdout':
      return logger;
    case 'off':
      return createPino({ level: 'silent' });
    case 'file':
      return createPino({
        level: config.logLevel,
        destination: pino.destination({ dest: requestLogFile(config.dataDir), mkdir: true, sync: true }),
      });
  }
}
