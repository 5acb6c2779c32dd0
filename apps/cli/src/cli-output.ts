// What a command prints: its text for people, or its JSON for tools (`--json`), bigints as strings. Apart from the
// actions so that the store tools print without loading the HTTP side.
import type { Command } from 'commander';

export type CliOutput = { json: unknown; text: string };

export const toJson = (value: unknown): string =>
  JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? field.toString() : field), 2);

/** Whether the call asked for JSON: commander passes the command last to an action. */
export const wantsJson = (args: readonly unknown[]): boolean =>
  (args.at(-1) as Command).opts<{ json?: boolean }>().json === true;

export function printOutput(output: CliOutput, json: boolean): void {
  process.stdout.write(json ? `${toJson(output.json)}\n` : `${output.text}\n`);
}
