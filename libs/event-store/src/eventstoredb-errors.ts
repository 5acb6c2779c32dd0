// As @eventstore/db-client 6.2.1 reports EventStoreDB's answers.
import { ErrorType } from '@eventstore/db-client';
import {
  AppendTooLargeError,
  EventStoreTimeoutError,
  MAX_APPEND_SIZE,
  StreamDeletedError,
} from './event-store.port.js';

const GRPC_INVALID_ARGUMENT = 3;

/** Soft delete sets $tb to 2^63 - 1, which a JavaScript number holds as 2^63. */
const SOFT_DELETED_TRUNCATE_BEFORE = 2 ** 63;

function typeOf(error: unknown): string | undefined {
  return error instanceof Error && 'type' in error ? String(error.type) : undefined;
}

/**
 * A repeat that arrives before the original is indexed (IdempotentNotReady) gets no answer, then a Timeout after 2 s.
 */
export function isWriteOutcomeUnknown(error: unknown): boolean {
  const type = typeOf(error);
  return (
    error instanceof EventStoreTimeoutError ||
    type === ErrorType.DEADLINE_EXCEEDED ||
    type === ErrorType.TIMEOUT ||
    // The connection went, or the shared batch-append call was cancelled: it may have been written before.
    type === ErrorType.UNAVAILABLE ||
    type === ErrorType.CANCELLED
  );
}

/** Nothing was written; the client reconnects to the leader. */
export function isNotLeader(error: unknown): boolean {
  return typeOf(error) === ErrorType.NOT_LEADER;
}

/** A 503 with "read before repeating" (EVENT_STORE_TIMEOUT), never a 500: the store is the one that is not there. */
function isClusterUnavailable(type: string | undefined): boolean {
  const unavailable: readonly string[] = [
    ErrorType.DEADLINE_EXCEEDED,
    ErrorType.TIMEOUT,
    ErrorType.UNAVAILABLE,
    ErrorType.CANCELLED,
    ErrorType.NOT_LEADER,
  ];
  return type !== undefined && unavailable.includes(type);
}

export function toPortReadError(error: unknown, operation: string): unknown {
  return isClusterUnavailable(typeOf(error))
    ? new EventStoreTimeoutError(`${operation} (${typeOf(error) ?? 'unavailable'})`)
    : error;
}

/** InvalidPosition arrives without the `exception` header the client maps by: an UnknownError with the gRPC code. */
export function isInvalidPosition(error: unknown): boolean {
  if (typeOf(error) === ErrorType.INVALID_ARGUMENT) return true;
  return error instanceof Error && 'code' in error && error.code === GRPC_INVALID_ARGUMENT;
}

export function isSoftDeletedMetadata(metadata: unknown): boolean {
  if (metadata === null || typeof metadata !== 'object') return false;
  const truncateBefore = (metadata as { $tb?: unknown }).$tb;
  return typeof truncateBefore === 'number' && truncateBefore >= SOFT_DELETED_TRUNCATE_BEFORE;
}

export function toPortAppendError(error: unknown, streamId: string): unknown {
  switch (typeOf(error)) {
    case ErrorType.STREAM_DELETED:
      return new StreamDeletedError(streamId);
    case ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED: {
      const maxSize = (error as { maxAppendSize?: unknown }).maxAppendSize;
      return new AppendTooLargeError(streamId, undefined, typeof maxSize === 'number' ? maxSize : MAX_APPEND_SIZE);
    }
    default:
      return isClusterUnavailable(typeOf(error))
        ? new EventStoreTimeoutError(`an append to ${streamId} (${typeOf(error) ?? 'unavailable'})`)
        : error;
  }
}
