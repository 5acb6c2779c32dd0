import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { z } from 'zod';
import { ProblemError, signBillingPayload } from '#api';
import { parseInput, reportFailure } from '../cli-action.js';

const unixSeconds = z
  .string()
  .regex(/^\d{1,12}$/, 'must be unix seconds')
  .transform(Number);

async function readBody(file: string | undefined): Promise<Buffer> {
  if (file !== undefined) {
    try {
      return await readFile(file);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', `cannot read ${file}: ${reason}`);
    }
  }
  if (process.stdin.isTTY) {
    throw new ProblemError(
      400,
      'VALIDATION_FAILED',
      'The request is not valid',
      'give the body as a file argument or on standard input',
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * `chorus billing:sign [file] --secret S [--timestamp T]`: prints the Billing-Signature header for a body, as the
 * payment provider would send it. It signs the exact bytes read (a trailing newline included): send those bytes.
 */
export function registerBillingSignCommand(program: Command): void {
  program
    .command('billing:sign')
    .description('print the Billing-Signature header value for a billing event body (a file, or standard input)')
    .argument('[file]', 'the JSON body to sign; standard input when absent')
    .addOption(
      new Option('--secret <secret>', 'the webhook secret').env('BILLING_WEBHOOK_SECRET').makeOptionMandatory(),
    )
    .option('--timestamp <seconds>', 'the signing time in unix seconds (default: now)')
    .option('--json', 'print {header, timestamp} as JSON')
    .action(async (file: string | undefined, options: { secret: string; timestamp?: string; json?: boolean }) => {
      try {
        const timestamp =
          options.timestamp === undefined
            ? Math.floor(Date.now() / 1000)
            : parseInput(unixSeconds, options.timestamp, 'timestamp');
        const header = signBillingPayload(options.secret, timestamp, await readBody(file));
        process.stdout.write(options.json === true ? `${JSON.stringify({ header, timestamp })}\n` : `${header}\n`);
      } catch (error) {
        await reportFailure(error, options.json === true);
      }
    });
}
