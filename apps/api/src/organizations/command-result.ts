import { jsonSafe } from '../http/json-safe.js';

/** What every organization command answers: the stream's revision and the global position after it. */
export type CommandResult = { id: string; revision: bigint; position: bigint };

/** The JSON answer. Revisions and positions are numbers while they are safe integers, decimal strings beyond. */
export type CommandAnswer = { id: string; revision: number | string; position: number | string };

export function commandAnswer<Result extends CommandResult>(
  result: Result,
): Omit<Result, 'revision' | 'position'> & CommandAnswer {
  return { ...result, revision: jsonSafe(result.revision), position: jsonSafe(result.position) };
}
