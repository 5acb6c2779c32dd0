import type { ProjectionState } from '../checkpoints.js';

export type ProjectionHealth = {
  name: string;
  checkpoint: number | null;
  head: number | null;
  /** Counted up to 1,000: 1000 means at least that. */
  lag: number | null;
  /** Since the oldest event not yet applied was recorded. */
  lagMs: number | null;
  state: ProjectionState;
  runs: 'inline' | 'elsewhere';
  error?: { message: string; position: number; eventId: string; eventType: string; streamId: string };
};

export type ReadModelsHealth = {
  live: true;
  /** Inline, each projection has also caught up once. */
  ready: boolean;
  eventStore: { reachable: boolean; error?: string };
  projections: ProjectionHealth[];
};

/** A projector in another process that died or hangs says nothing: its silence shows only as events nobody applies. */
export const ELSEWHERE_MAX_LAG_MS = 30_000;

export function isReady(eventStoreReachable: boolean, projections: readonly ProjectionHealth[]): boolean {
  const ready = (projection: ProjectionHealth) =>
    projection.runs === 'elsewhere' ? (projection.lagMs ?? 0) <= ELSEWHERE_MAX_LAG_MS : projection.state === 'live';
  return eventStoreReachable && projections.every((projection) => projection.state !== 'failed' && ready(projection));
}
