// PROJECTIONS: whether this process runs the projector (inline, the default) or leaves it to
// another process sharing DATA_DIR (off), e.g. one `chorus projector:run` for several API nodes.
import type { ProjectorMode } from './read-models.js';

export function parseProjectorMode(value: string | undefined): ProjectorMode {
  const mode = value === undefined || value.trim() === '' ? 'inline' : value.trim();
  if (mode === 'inline' || mode === 'off') return mode;
  throw new Error(`Invalid configuration:\n  - PROJECTIONS: must be inline or off (got "${value}")`);
}
