// The command line's read-model queries must see what the store holds now, also when no server has run since.
import { EVENT_STORE, type EventStore } from '#event-store';
import { READ_MODELS, type ProjectionStatus, type ReadModels } from '#read-models';
import { ProblemError } from '#api';
import type { CliContext } from './cli-context.js';

/** A stopped projection ends the wait. */
const waitStepMs = 1_000;

const reached = (statuses: readonly ProjectionStatus[], head: bigint): boolean =>
  statuses.every((status) => status.checkpoint !== undefined && status.checkpoint >= head);

function stoppedProjection(status: ProjectionStatus): ProblemError {
  const failure = status.failure;
  const where =
    failure === undefined ? '' : ` at position ${failure.position} (${failure.eventType} in ${failure.streamId})`;
  return new ProblemError(
    503,
    'PROJECTION_FAILED',
    'A read model stopped',
    `The read model ${status.name} stopped${where}${failure === undefined ? '' : `: ${failure.message}`}. \`chorus projector:run\` and GET /health show it.`,
  );
}

/**
 * Two projectors on one file stay correct (each re-reads the checkpoint it commits against), so one here is harmless.
 */
export async function caughtUpReadModels(context: CliContext): Promise<ReadModels> {
  const readModels = context.app.get<ReadModels>(READ_MODELS);
  const head = await context.app.get<EventStore>(EVENT_STORE).headPosition();
  if (head === undefined || reached(readModels.statuses(), head)) return readModels;
  if (process.stderr.isTTY) process.stderr.write('chorus: bringing the read models up to date...\n');
  readModels.start();
  try {
    while (!(await readModels.waitForPosition(head, waitStepMs))) {
      const failed = readModels.statuses().find((status) => status.state === 'failed');
      if (failed !== undefined) throw stoppedProjection(failed);
    }
  } finally {
    await readModels.stop();
  }
  return readModels;
}
