// Queries the command line answers from the read models (org:list, org:create's same-name check) must
// see what the store holds now, also when no server has run since: the read models are brought up to
// the store's head first, by this process's own projector when nobody else's has got there yet.
import { EVENT_STORE, type EventStore } from '#event-store';
import { READ_MODELS, type ProjectionStatus, type ReadModels } from '#read-models';
import { ProblemError } from '#api';
import type { CliContext } from './cli-context.js';

/** How long one wait lasts before the projections are looked at again (a stopped one ends the wait). */
const waitStepMs = 1_000;

const reached = (statuses: readonly ProjectionStatus[], head: bigint): boolean =>
  statuses.every((status) => status.checkpoint !== undefined && status.checkpoint >= head);

function stoppedProjection(status: ProjectionStatus): ProblemError {
  const failure = status.failure;
  const where = failure === undefined ? '' : ` at position ${failure.position} (${failure.eventType} in ${failure.streamId})`;
  return new ProblemError(
    503,
    'PROJECTION_FAILED',
    'A read model stopped',
    `The read model ${status.name} stopped${where}${failure === undefined ? '' : `: ${failure.message}`}. \`chorus projector:run\` and GET /health show it.`,
  );
}

/**
 * The read models once they have applied every event stored when this was called. Two projectors on one
 * file stay correct (each re-reads the checkpoint it commits against), so running one here beside a
 * server's is harmless; when a server or `projector:run` is already there, nothing is started.
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
