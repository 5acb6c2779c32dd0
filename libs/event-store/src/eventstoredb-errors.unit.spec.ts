// The mapping of EventStoreDB's answers to the port's errors, fed with the client's own error objects:
// the gRPC statuses the server sends, turned into errors by the client's own conversion.
import { describe, expect, it } from '@jest/globals';
import {
  convertToCommandError,
  DeadlineExceededError,
  MaxAppendSizeExceededError,
  StreamDeletedError as ClientStreamDeletedError,
  UnknownError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { AppendTooLargeError, EventStoreTimeoutError, StreamDeletedError } from './event-store.port.js';
import {
  isInvalidPosition,
  isNotLeader,
  isSoftDeletedMetadata,
  isWriteOutcomeUnknown,
  toPortAppendError,
  toPortReadError,
} from './eventstoredb-errors.js';

/** A status as it arrives from the server, with the headers it sends. */
function statusFromServer(code: status, details: string, headers: Record<string, string> = {}): ServiceError {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(headers)) metadata.set(key, value);
  return Object.assign(new Error(`${code} ${status[code]}: ${details}`), { code, details, metadata });
}

/**
 * A follower's answer to a call that requires the leader: NOT_FOUND with the `not-leader` exception and the leader's
 * address.
 */
const notLeader = () =>
  convertToCommandError(
    statusFromServer(status.NOT_FOUND, 'Leader info available', {
      exception: 'not-leader',
      'leader-endpoint-host': 'es-2',
      'leader-endpoint-port': '2113',
    }),
  );

describe('EventStoreDB errors, mapped to the port', () => {
  it("recognises the server's InvalidPosition, which the client reports as an unknown error", () => {
    // RpcExceptions.InvalidPositionException(): INVALID_ARGUMENT, no `exception` header.
    const converted = convertToCommandError(
      statusFromServer(status.INVALID_ARGUMENT, 'Trying to read from an invalid position.'),
    );

    expect(converted).toBeInstanceOf(UnknownError);
    expect(isInvalidPosition(converted)).toBe(true);
    expect(
      isInvalidPosition(convertToCommandError(statusFromServer(status.UNAVAILABLE, 'No connection established'))),
    ).toBe(false);
    expect(isInvalidPosition(convertToCommandError(statusFromServer(status.UNKNOWN, 'boom')))).toBe(false);
  });

  it('takes a timed-out or dropped write, a lost connection or a cancelled call as an unknown outcome, and nothing else', () => {
    // Batch appends: Status.Timeout, which the client unpacks to DeadlineExceededError; unary appends:
    // DEADLINE_EXCEEDED.
    expect(isWriteOutcomeUnknown(new DeadlineExceededError())).toBe(true);
    expect(
      isWriteOutcomeUnknown(convertToCommandError(statusFromServer(status.DEADLINE_EXCEEDED, 'Deadline Exceeded'))),
    ).toBe(true);
    expect(isWriteOutcomeUnknown(convertToCommandError(statusFromServer(status.ABORTED, 'Operation timed out')))).toBe(
      true,
    );
    expect(isWriteOutcomeUnknown(new EventStoreTimeoutError('an append', 10_000))).toBe(true);

    expect(
      isWriteOutcomeUnknown(new WrongExpectedVersionError(undefined, { streamName: 's', current: 1n, expected: 0n })),
    ).toBe(false);
    // A node stopping or a leader change: the connection (and the shared batch-append call with every append in it)
    // goes.
    expect(isWriteOutcomeUnknown(convertToCommandError(statusFromServer(status.UNAVAILABLE, 'down')))).toBe(true);
    expect(
      isWriteOutcomeUnknown(convertToCommandError(statusFromServer(status.CANCELLED, 'The call was cancelled'))),
    ).toBe(true);
    expect(isWriteOutcomeUnknown(notLeader())).toBe(false);
    expect(isWriteOutcomeUnknown(new Error('anything'))).toBe(false);
  });

  it('takes NotLeader as not written (sent again to the new leader), and nothing else', () => {
    expect(isNotLeader(notLeader())).toBe(true);
    expect(isNotLeader(convertToCommandError(statusFromServer(status.UNAVAILABLE, 'down')))).toBe(false);
    expect(isNotLeader(new DeadlineExceededError())).toBe(false);
  });

  it('maps a deleted stream, a too large append and a server timeout to the port, and leaves the rest alone', () => {
    const tombstoned = convertToCommandError(
      statusFromServer(status.FAILED_PRECONDITION, 'Event stream org-1 is deleted.', {
        exception: 'stream-deleted',
        'stream-name': 'org-1',
      }),
    );
    expect(tombstoned).toBeInstanceOf(ClientStreamDeletedError);
    expect(toPortAppendError(tombstoned, 'org-1')).toEqual(new StreamDeletedError('org-1'));
    expect(toPortAppendError(ClientStreamDeletedError.fromStreamName('org-1'), 'org-1')).toBeInstanceOf(
      StreamDeletedError,
    );

    const tooLarge = toPortAppendError(MaxAppendSizeExceededError.fromMaxAppendSize(524_288), 'org-1');
    expect(tooLarge).toBeInstanceOf(AppendTooLargeError);
    expect(tooLarge).toMatchObject({ code: 'APPEND_TOO_LARGE', streamId: 'org-1', maxSize: 524_288 });

    expect(toPortAppendError(new DeadlineExceededError(), 'org-1')).toBeInstanceOf(EventStoreTimeoutError);

    // A cluster that could not take it, after the adapter's own retries: 503 (read before repeating), not a 500.
    for (const unavailable of [
      convertToCommandError(statusFromServer(status.UNAVAILABLE, 'down')),
      convertToCommandError(statusFromServer(status.CANCELLED, 'x')),
      notLeader(),
    ]) {
      expect(toPortAppendError(unavailable, 'org-1')).toBeInstanceOf(EventStoreTimeoutError);
      expect(toPortReadError(unavailable, 'a read of org-1')).toBeInstanceOf(EventStoreTimeoutError);
    }

    const other = convertToCommandError(statusFromServer(status.UNKNOWN, 'boom'));
    expect(toPortAppendError(other, 'org-1')).toBe(other);
    expect(toPortReadError(other, 'a read of org-1')).toBe(other);
  });

  it("reads a soft delete from the stream's metadata: truncate-before at the largest 64-bit number", () => {
    // The JSON EventStoreDB writes for a soft delete, parsed as the client parses it.
    expect(isSoftDeletedMetadata(JSON.parse('{"$tb":9223372036854775807}'))).toBe(true);
    expect(isSoftDeletedMetadata({ $tb: 12 })).toBe(false);
    expect(isSoftDeletedMetadata({ $maxCount: 10 })).toBe(false);
    expect(isSoftDeletedMetadata({ chorusStoreId: 'x' })).toBe(false);
    expect(isSoftDeletedMetadata(null)).toBe(false);
  });
});
