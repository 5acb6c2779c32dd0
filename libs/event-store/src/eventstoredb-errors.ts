// How EventStoreDB's answers (as @eventstore/db-client 6.2.1 reports them) map to the port's errors.
// Pure functions over the client's error objects, unit-tested in eventstoredb-errors.unit.spec.ts.
import { ErrorType } from '@eventstore/db-client';
import { AppendTooLargeError, EventStoreTimeoutError, MAX_APPEND_SIZE, StreamDeletedError } from './event-store.port.js';

/** gRPC's INVALID_ARGUMENT status code. */
const GRPC_INVALID_ARGUMENT = 3;

/**
 * EventStoreDB's soft delete sets the stream's truncate-before ($tb) to the largest signed 64-bit number,
 * 2^63 - 1, which a JavaScript number holds as 2^63.
 */
const SOFT_DELETED_TRUNCATE_BEFORE = 2 ** 63;

function typeOf(error: unknown): string | undefined {
  return error instanceof Error && 'type' in error ? String(error.type) : undefined;
}

/**
 * The server may or may not have written the append: it timed out, or it dropped a repeat that arrived
 * before the original was indexed (IdempotentNotReady: no answer, then the server's write timeout,
 * 2 s by default, answered as Timeout, which the client reports as DeadlineExceededError).
 */
export function isWriteOutcomeUnknown(error: unknown): boolean {
  const type = typeOf(error);
  return (
    error instanceof EventStoreTimeoutError ||
    type === ErrorType.DEADLINE_EXCEEDED ||
    type === ErrorType.TIMEOUT ||
    // The connection went (a node stopping, a leader change) or the shared batch-append call was cancelled
    // with this append in it: it may have been written before.
    type === ErrorType.UNAVAILABLE ||
    type === ErrorType.CANCELLED
  );
}

/** The node that took the call is not the leader (an election): nothing was written; the client reconnects to the leader. */
export function isNotLeader(error: unknown): boolean {
  return typeOf(error) === ErrorType.NOT_LEADER;
}

/**
 * What an append's caller is told when the cluster could not take it: the outcome was unknown and is still
 * unknown after reading back, or no leader took it. 503 with "read before repeating" (EVENT_STORE_TIMEOUT),
 * never a 500: the store is the one that is not there.
 */
function isClusterUnavailable(type: string | undefined): boolean {
  const unavailable: readonly string[] = [ErrorType.DEADLINE_EXCEEDED, ErrorType.TIMEOUT, ErrorType.UNAVAILABLE, ErrorType.CANCELLED, ErrorType.NOT_LEADER];
  return type !== undefined && unavailable.includes(type);
}

/** A read or subscription's error as the port's: a cluster without a leader or a lost connection is a 503, not a 500. */
export function toPortReadError(error: unknown, operation: string): unknown {
  return isClusterUnavailable(typeOf(error)) ? new EventStoreTimeoutError(`${operation} (${typeOf(error) ?? 'unavailable'})`) : error;
}

/**
 * The server refused a read or subscription's start position. Its InvalidPosition arrives as
 * INVALID_ARGUMENT without the `exception` header the client maps by, so the client reports it as
 * UnknownError keeping the gRPC code.
 */
export function isInvalidPosition(error: unknown): boolean {
  if (typeOf(error) === ErrorType.INVALID_ARGUMENT) return true;
  return error instanceof Error && 'code' in error && error.code === GRPC_INVALID_ARGUMENT;
}

/** Whether a stream's metadata (the data of its last `$metadata` event) marks it soft-deleted. */
export function isSoftDeletedMetadata(metadata: unknown): boolean {
  if (metadata === null || typeof metadata !== 'object') return false;
  const truncateBefore = (metadata as { $tb?: unknown }).$tb;
  return typeof truncateBefore === 'number' && truncateBefore >= SOFT_DELETED_TRUNCATE_BEFORE;
}

/** The port's error for an append the server refused, or the error itself when the port has none. */
export function toPortAppendError(error: unknown, streamId: string): unknown {
  switch (typeOf(error)) {
    case ErrorType.STREAM_DELETED:
      return new StreamDeletedError(streamId);
    case ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED: {
      const maxSize = (error as { maxAppendSize?: unknown }).maxAppendSize;
      return new AppendTooLargeError(streamId, undefined, typeof maxSize === 'number' ? maxSize : MAX_APPEND_SIZE);
    }
    default:
      return isClusterUnavailable(typeOf(error)) ? new EventStoreTimeoutError(`an append to ${streamId} (${typeOf(error) ?? 'unavailable'})`) : error;
  }
}
