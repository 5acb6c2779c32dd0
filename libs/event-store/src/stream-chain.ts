// EventStoreDB's chain (docs/history.md): what can be chained where the server gives positions as it commits. No hash
// can name the event before in $all, which another node may append first; a stream is linear by its expected
// revisions, so each event's metadata carries the hash of its stream's chain (`streamHash`), covering the hash before
// it in the stream and its own stream, revision, id, type, data and metadata. Its position and time are EventStoreDB's.
import { createHash } from 'node:crypto';

export const STREAM_HASH = 'streamHash';

/** What a stream's chain covers of an event: all of it but what EventStoreDB gives (position, time). */
export type StreamChainFields = {
  streamId: string;
  revision: bigint;
  id: string;
  type: string;
  data: unknown;
  /** Without its own `streamHash`. */
  metadata: Readonly<Record<string, unknown>>;
};

/** The hash of an event in its stream; `previous` undefined for a stream's first (or the first after unchained ones). */
export function streamLink(previous: string | undefined, event: StreamChainFields): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        previous ?? '',
        event.streamId,
        event.revision.toString(),
        event.id,
        event.type,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
      ]),
    )
    .digest('hex');
}

/** The metadata without its chain hash, and the hash (undefined: written before the chain). */
export function splitStreamHash(metadata: Readonly<Record<string, unknown>>): {
  metadata: Record<string, unknown>;
  hash: string | undefined;
} {
  const { [STREAM_HASH]: hash, ...own } = metadata;
  return { metadata: own, hash: typeof hash === 'string' ? hash : undefined };
}

export type StreamChainBreak = { position: bigint; reason: string };

/**
 * Walks a log's events in $all order and checks each stream's chain: every revision there, each hash the link of the
 * one before it in its stream and its own fields. Stops at the first break.
 */
export class StreamChainCheck {
  checked = 0;
  unchained = 0;
  provenTo: bigint | undefined = undefined;
  broken: StreamChainBreak | undefined = undefined;
  private readonly heads = new Map<string, { revision: bigint; hash: string | undefined }>();

  next(event: StreamChainFields & { position: bigint; metadata: Readonly<Record<string, unknown>> }): boolean {
    if (this.broken !== undefined) return false;
    const head = this.heads.get(event.streamId);
    const expected = head === undefined ? 0n : head.revision + 1n;
    if (event.revision !== expected) {
      this.broken = {
        position: event.position,
        reason:
          event.revision > expected
            ? `revision ${expected} of ${event.streamId} is missing before it`
            : `it repeats revision ${event.revision} of ${event.streamId}, or comes before it`,
      };
      return false;
    }
    const { metadata, hash } = splitStreamHash(event.metadata);
    if (hash === undefined) {
      this.unchained += 1;
    } else if (hash !== streamLink(head?.hash, { ...event, metadata })) {
      this.broken = {
        position: event.position,
        reason: `its hash is not the link of the one before it in ${event.streamId} and its own fields: it, or that one, was changed`,
      };
      return false;
    } else {
      this.checked += 1;
    }
    this.heads.set(event.streamId, { revision: event.revision, hash });
    this.provenTo = event.position;
    return true;
  }
}
