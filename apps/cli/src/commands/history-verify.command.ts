import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { ExportProofCheck } from '#event-store';
import { printOutput, wantsJson } from '../cli-output.js';
import { ExitCode } from '../exit-codes.js';

/** The file's lines one by one (an export may be larger than memory), to the first that fails. */
async function checkFile(file: string, check: ExportProofCheck): Promise<void> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  try {
    for await (const line of lines) if (!check.line(line)) break;
  } finally {
    lines.close();
  }
}

function refuse(message: string, json: boolean, code: number): void {
  process.stderr.write(json ? `${JSON.stringify({ error: message })}\n` : `chorus: ${message}\n`);
  process.exitCode = code;
}

/**
 * `chorus history:verify <file> --public-key <file> [--json]`: an export with its proof checked offline, with no server
 * and no store: exit 0 when it is complete and unaltered up to its signed checkpoint, 1 naming the first line that
 * fails (docs/history.md).
 */
export function registerHistoryVerifyCommand(program: Command): void {
  program
    .command('history:verify')
    .description('check an exported history with its proof offline (exit 1 naming the first line that fails)')
    .argument('<file>', 'the export: GET /organizations/:id/history/export?format=jsonl&proof=true')
    .requiredOption('--public-key <file>', 'the PEM served at GET /history/public-key')
    .option('--json', 'print the verdict as JSON')
    .action(async (file: string, options: { publicKey: string }, command: Command) => {
      const json = wantsJson([command]);
      let check: ExportProofCheck;
      try {
        check = new ExportProofCheck(readFileSync(options.publicKey, 'utf8'));
      } catch (error) {
        refuse(
          `--public-key: ${options.publicKey} is not a readable PEM public key (${(error as Error).message})`,
          json,
          ExitCode.invalidInput,
        );
        return;
      }
      try {
        await checkFile(file, check);
      } catch (error) {
        refuse(`${file}: ${(error as Error).message}`, json, ExitCode.invalidInput);
        return;
      }
      const verdict = check.end();
      if (!verdict.proven) {
        process.exitCode = ExitCode.refused;
        printOutput(
          {
            json: {
              proven: false,
              events: verdict.events,
              line: verdict.failure.line,
              failure: verdict.failure.reason,
            },
            text: `${file} fails at line ${verdict.failure.line}: ${verdict.failure.reason}.`,
          },
          json,
        );
        return;
      }
      const { checkpoint } = verdict;
      printOutput(
        {
          json: {
            proven: true,
            events: verdict.events,
            stream: verdict.stream,
            checkpoint: { position: checkpoint.position, hash: checkpoint.hash, time: checkpoint.time },
          },
          text: `${file} is complete and unaltered: ${verdict.events.toLocaleString('en')} events of ${verdict.stream}, linked to the checkpoint of position ${checkpoint.position} signed at ${checkpoint.time}.`,
        },
        json,
      );
    });
}
