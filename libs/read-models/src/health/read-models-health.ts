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

/**
 * How long an event may wait for a projector in another process before this one stops calling itself ready:
 * a projector that died or hangs says nothing, so its silence shows only as events nobody applies.
 */
export const ELSEWHERE_MAX_LAG_MS = 30_000;

export function isReady(eventStoreReachable: boolean, projections: readonly ProjectionHealth[]): boolean {
  const ready = (projection: ProjectionHealth) =>
    projection.runs === 'elsewhere' ? (projection.lagMs ?? 0) <= ELSEWHERE_MAX_LAG_MS : projection.state === 'live';
  return eventStoreReachable && projections.every((projection) => projection.state !== 'failed' && ready(projection));
}
