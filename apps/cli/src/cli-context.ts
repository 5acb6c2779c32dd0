import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { pino } from 'pino';
import type { Config } from '#config';
import { newCommandContext, type CommandContext } from '#application';
import { AppModule, createPino, StructuredLogger } from '#api';

/** The service's modules without an HTTP listener, for one command-line call. */
export type CliContext = {
  app: INestApplicationContext;
  config: Config;
  /** Event metadata for what this call records: actor `cli`, one correlation id per call. */
  commandContext(cliCommand: string): CommandContext;
  close(): Promise<void>;
};

export type GetCliContext = () => Promise<CliContext>;

function operatingSystemUser(): Record<string, string> {
  try {
    return { osUser: userInfo().username };
  } catch {
    return {};
  }
}

export async function createCliContext(config: Config): Promise<CliContext> {
  // Logs go to stderr so stdout stays the command's output; routine info lines are left out.
  const logger = createPino({
    level: config.logLevel === 'info' ? 'warn' : config.logLevel,
    destination: pino.destination({ dest: 2, sync: true }),
  });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, { runMode: 'cli', logger }), {
    logger: new StructuredLogger(logger),
    abortOnError: false,
  });
  await app.init();
  const correlationId = randomUUID();
  return {
    app,
    config,
    commandContext: (cliCommand) => newCommandContext('cli', { cliCommand, ...operatingSystemUser() }, correlationId),
    close: () => app.close(),
  };
}
