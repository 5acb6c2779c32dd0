import type { Command } from 'commander';
import { z } from 'zod';
import { READ_MODELS, type ProjectionStatus, type ReadModels } from '#read-models';
import { parseInput, reportFailure } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';

const watchEveryMs = 250;

const batchSizeSchema = z.coerce.number().int().min(1).max(100_000).optional();

type Outcome = 'interrupted' | 'live' | 'failed';

function describe(status: ProjectionStatus): string {
  const position = status.checkpoint?.toString() ?? 'the first event';
  switch (status.state) {
    case 'catching-up':
      return `${status.name}: catching up from ${position}`;
    case 'live':
      return `${status.name}: live at ${position}`;
    case 'stopped':
      return `${status.name}: stopped at ${position}`;
    case 'failed': {
      const failure = status.failure;
      const where =
        failure === undefined ? '' : ` at position ${failure.position} (${failure.eventType} in ${failure.streamId})`;
      return `${status.name}: STOPPED${where}: ${failure?.message ?? 'unknown error'}`;
    }
  }
}

/** Prints each projection's state changes until interrupted, or until all are live when asked to. */
function watch(readModels: ReadModels, untilCaughtUp: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const shown = new Map<string, string>();
    const finish = (outcome: Outcome): void => {
      clearInterval(timer);
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
      resolve(outcome);
    };
    const interrupt = (): void => finish('interrupted');
    const look = (): void => {
      const statuses = readModels.statuses();
      for (const status of statuses) {
        if (shown.get(status.name) === status.state) continue;
        shown.set(status.name, status.state);
        (status.state === 'failed' ? process.stderr : process.stdout).write(`${describe(status)}\n`);
      }
      if (!untilCaughtUp || !statuses.every((status) => status.state === 'live' || status.state === 'failed')) return;
      finish(statuses.some((status) => status.state === 'failed') ? 'failed' : 'live');
    };
    const timer = setInterval(look, watchEveryMs);
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    look();
  });
}

/**
 * `chorus projector:run [--batch-size N] [--until-caught-up]`: runs the projector as its own process,
 * for API nodes started with PROJECTIONS=off that share this DATA_DIR (libs/read-models/README.md).
 */
export function registerProjectorRunCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('projector:run')
    .description('run the projector in this process until interrupted (for servers started with PROJECTIONS=off)')
    .option('--batch-size <events>', 'events per transaction while catching up (default 500)')
    .option(
      '--until-caught-up',
      'exit once every projection is live (exit 4 if one stopped at an event it cannot apply)',
    )
    .action(async (options: { batchSize?: string; untilCaughtUp?: boolean }) => {
      try {
        const batchSize = parseInput(batchSizeSchema, options.batchSize, 'batch-size');
        const readModels = (await getContext()).app.get<ReadModels>(READ_MODELS);
        readModels.start(batchSize === undefined ? {} : { batchSize });
        process.stdout.write(
          `projector running: ${readModels.projections.map((projection) => projection.name).join(', ')} (Ctrl-C stops it)\n`,
        );
        const outcome = await watch(readModels, options.untilCaughtUp === true);
        await readModels.stop();
        if (outcome === 'failed') process.exitCode = ExitCode.failed;
      } catch (error) {
        await reportFailure(error, false, getContext);
      }
    });
}
