// The history's signed checkpoints, kept in the log (docs/history.md): one stream, whose last event is all a decision
// needs. A checkpoint is kept when it signs further than the latest one; one signed by another node meanwhile for as
// far or further makes it nothing to keep.
import type { Decider } from '../decider.js';

export const historyCheckpointsStream = 'history-checkpoints';

/** As signed (libs/event-store, history-checkpoint.ts): positions as decimal text, hashes as hex. */
export type SignedCheckpointData = {
  id: string;
  position: string;
  hash: string;
  time: string;
  signature: string;
  publicKey: string;
  reason: string;
  previousKey?: string;
  rechainedFrom?: string;
};

export type HistoryCheckpointSigned = { type: 'HistoryCheckpointSigned'; data: SignedCheckpointData };

export type KeepCheckpoint = { type: 'KeepCheckpoint'; data: SignedCheckpointData };

/** The position the latest checkpoint signs. */
export type HistoryCheckpointsState = { signedTo: bigint | undefined };

export const historyCheckpointsDecider: Decider<HistoryCheckpointsState, KeepCheckpoint, HistoryCheckpointSigned> = {
  streamOf: () => historyCheckpointsStream,
  initialState: { signedTo: undefined },
  evolve: (_state, event) => ({ signedTo: BigInt(event.data.position) }),
  decide: (command, state) =>
    state.signedTo !== undefined && BigInt(command.data.position) <= state.signedTo
      ? []
      : [{ type: 'HistoryCheckpointSigned', data: command.data }],
  stateInLastEvent: true,
};
