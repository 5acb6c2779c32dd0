// Runs a `chorus` command in this process, as the CLI would, capturing what it prints (`user:create` on a DATA_DIR).
import { jest } from '@jest/globals';
import { Command } from 'commander';
import { loadConfig } from '#config';
import { createCliContext, type CliContext } from '../../apps/cli/src/cli-context.js';
import { registerUserCreateCommand } from '../../apps/cli/src/commands/user-create.command.js';

export type CliRun = { stdout: string; stderr: string; exitCode: number };

/**
 * Parses `args` (starting with the command name) with `program` in this process, capturing what it prints and its exit
 * code, as the CLI would set them.
 */
export async function runInProcess(program: Command, args: string[]): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => stdout.push(String(chunk)) > 0);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => stderr.push(String(chunk)) > 0);
  try {
    await program.parseAsync(args, { from: 'user' });
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { stdout: stdout.join(''), stderr: stderr.join(''), exitCode };
}

/** `args` start with the command name (`'user:create', '--email', ...`). */
export async function runUserCreate(dataDir: string, args: string[]): Promise<CliRun> {
  let context: Promise<CliContext> | undefined;
  const program = new Command('chorus').exitOverride();
  registerUserCreateCommand(
    program,
    () => (context ??= createCliContext(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }))),
  );
  try {
    return await runInProcess(program, args);
  } finally {
    if (context !== undefined) await (await context).close();
  }
}
