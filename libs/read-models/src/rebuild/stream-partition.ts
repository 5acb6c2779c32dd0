// A rebuild split over threads gives each one the streams of its partition: every event of a stream goes
// to the same partition, so a projection whose rows each follow from one stream's events alone builds the
// same rows however its streams are split.

/** Partition `index` of `count` (0 <= index < count). */
export type StreamPartition = { index: number; count: number };

/** The partition of a stream: FNV-1a of its id, the same in every thread and process. */
export function streamPartitionOf(streamId: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < streamId.length; index += 1) {
    hash ^= streamId.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % count;
}
