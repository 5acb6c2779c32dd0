import type { z } from 'zod';
import { ConfigError } from '#config';
import { DomainError } from '#domain';
import { HistoryKeyError, UnfinishedImport } from '#event-store';
import { ErrorAnswers, ProblemError, toProblem, type RefusalLookup } from '#api';
import type { CliContext, GetCliContext } from './cli-context.js';
import { printOutput, toJson, wantsJson, type CliOutput } from './cli-output.js';
import { ExitCode } from './exit-codes.js';
import { PromptInterrupted } from './secret-input.js';

export type { CliOutput } from './cli-output.js';

function exitCodeFor(status: number): number {
  if (status === 400) return ExitCode.invalidInput;
  return status < 500 ? ExitCode.refused : ExitCode.failed;
}

const noRefusals: RefusalLookup = { refusalOf: () => undefined };

/** The answers the features registered: a refusal comes from the call's context, so it is open already. */
async function registeredRefusals(error: unknown, getContext: GetCliContext | undefined): Promise<RefusalLookup> {
  if (!(error instanceof DomainError) || getContext === undefined) return noRefusals;
  try {
    return (await getContext()).app.get(ErrorAnswers);
  } catch {
    return noRefusals;
  }
}

export async function reportFailure(error: unknown, json: boolean, getContext?: GetCliContext): Promise<void> {
  if (error instanceof PromptInterrupted) {
    process.exitCode = error.exitCode;
    return;
  }
  // A signing key that cannot be used is a setting to mend, like the rest of the configuration.
  if (error instanceof ConfigError || error instanceof HistoryKeyError) {
    process.stderr.write(`chorus: ${error.message}\n`);
    process.exitCode = ExitCode.invalidConfiguration;
    return;
  }
  // The store is there but cannot be used yet: a refusal in words, not an internal error.
  const reported =
    error instanceof UnfinishedImport
      ? new ProblemError(409, 'IMPORT_UNFINISHED', 'An import into this store has not finished', error.message)
      : error;
  const { document, unexpected } = toProblem(reported, await registeredRefusals(error, getContext));
  if (json) {
    process.stderr.write(`${toJson(document)}\n`);
  } else {
    process.stderr.write(`chorus: ${document.code}: ${document.detail}\n`);
  }
  if (unexpected && !json)
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = exitCodeFor(document.status);
}

const optionName = (path: readonly PropertyKey[]): string =>
  `--${path
    .map(String)
    .join('.')
    .replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** The same schemas as the HTTP API; object fields are reported as options (serviceLevel: --service-level). */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  argument?: string,
): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const detail = result.error.issues
    .map(
      (issue) =>
        `${issue.path.length === 0 && argument !== undefined ? argument : optionName(issue.path)}: ${issue.message}`,
    )
    .join('; ');
  throw new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', detail);
}

export function cliAction<Args extends unknown[]>(
  getContext: GetCliContext,
  work: (context: CliContext, ...args: Args) => Promise<CliOutput>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]): Promise<void> => {
    const json = wantsJson(args);
    try {
      printOutput(await work(await getContext(), ...(args.slice(0, -1) as Args)), json);
    } catch (error) {
      await reportFailure(error, json, getContext);
    }
  };
}
