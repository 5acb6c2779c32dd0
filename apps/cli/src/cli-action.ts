import type { Command } from 'commander';
import type { z } from 'zod';
import { ConfigError } from '#config';
import { ProblemError, toProblem } from '#api';
import type { CliContext, GetCliContext } from './cli-context.js';
import { ExitCode } from './exit-codes.js';
import { PromptInterrupted } from './secret-input.js';

/** What a command prints: `json` with --json, `text` for people. */
export type CliOutput = { json: unknown; text: string };

const toJson = (value: unknown): string => JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? field.toString() : field), 2);

function exitCodeFor(status: number): number {
  if (status === 400) return ExitCode.invalidInput;
  return status < 500 ? ExitCode.refused : ExitCode.failed;
}

/** Reports any failure as its problem code on stderr (the problem document with --json) and sets the exit code. */
export function reportFailure(error: unknown, json: boolean): void {
  if (error instanceof PromptInterrupted) {
    process.exitCode = error.exitCode;
    return;
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`chorus: ${error.message}\n`);
    process.exitCode = ExitCode.invalidConfiguration;
    return;
  }
  const { document, unexpected } = toProblem(error);
  if (json) {
    process.stderr.write(`${toJson(document)}\n`);
  } else {
    process.stderr.write(`chorus: ${document.code}: ${document.detail}\n`);
  }
  if (unexpected && !json) process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = exitCodeFor(document.status);
}

const optionName = (path: readonly PropertyKey[]): string =>
  `--${path.map(String).join('.').replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/**
 * Validates command-line input with the same schemas as the HTTP API; refusals are VALIDATION_FAILED (exit 2).
 * Fields of an object are reported as options (serviceLevel: --service-level), a single value as `argument`.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown, argument?: string): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const detail = result.error.issues
    .map((issue) => `${issue.path.length === 0 && argument !== undefined ? argument : optionName(issue.path)}: ${issue.message}`)
    .join('; ');
  throw new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', detail);
}

/**
 * Wraps a command's work for commander: gets the shared context, prints the output (JSON with --json),
 * and turns failures into a problem code on stderr and a non-zero exit code.
 */
export function cliAction<Args extends unknown[]>(
  getContext: GetCliContext,
  work: (context: CliContext, ...args: Args) => Promise<CliOutput>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]): Promise<void> => {
    const command = args.at(-1) as Command;
    const json = command.opts<{ json?: boolean }>().json === true;
    try {
      const output = await work(await getContext(), ...(args.slice(0, -1) as Args));
      process.stdout.write(json ? `${toJson(output.json)}\n` : `${output.text}\n`);
    } catch (error) {
      reportFailure(error, json);
    }
  };
}
