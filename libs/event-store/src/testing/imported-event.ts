import { randomUUID } from 'node:crypto';
import type { StoredEvent } from '../event-store.port.js';

/** An event as an import carries it: at its own position, stream and revision, with its time. */
export const importedAt = (position: bigint, streamId: string, revision: bigint): StoredEvent => ({
  position,
  streamId,
  revision,
  id: randomUUID(),
  type: 'Imported',
  data: JSON.stringify({ value: Number(revision) }),
  metadata: JSON.stringify({ actor: 'cli', correlationId: 'c', causationId: 'c' }),
  recordedAt: '2020-02-29T12:34:56.789Z',
});
