// GET /health: is the store reachable, where is each projection, how far behind, in what state.
import type { ProjectionState } from '../checkpoints.js';

export type ProjectionHealth = {
  name: string;
  /** Last global position applied; null before the first. */
  checkpoint: number | null;
  /** Position of the store's last event; null when unknown or empty. */
  head: number | null;
  /** Events stored after the checkpoint, counted up to 1,000 (1000 means at least that); null when unknown. */
  lag: number | null;
  /** Milliseconds since the oldest event not yet applied was recorded; 0 when none; null when unknown. */
  lagMs: number | null;
  state: ProjectionState;
  /** Where the projector runs: in this process, or in another one sharing DATA_DIR. */
  runs: 'inline' | 'elsewhere';
  error?: { message: string; position: number; eventId: string; eventType: string; streamId: string };
};

export type ReadModelsHealth = {
  live: true;
  /** The store answers and no projection has stopped (inline: each has caught up once). */
  ready: boolean;
  eventStore: { reachable: boolean; error?: string };
  projections: ProjectionHealth[];
};

export function isReady(eventStoreReachable: boolean, projections: readonly ProjectionHealth[]): boolean {
  return (
    eventStoreReachable &&
    projections.every((projection) => projection.state !== 'failed' && (projection.runs === 'elsewhere' || projection.state === 'live'))
  );
}
