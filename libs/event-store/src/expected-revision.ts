// The same rule for every adapter that checks it itself.
import { WrongExpectedRevisionError, type ExpectedRevision } from './event-store.port.js';

export function expectedRevisionHolds(expected: ExpectedRevision, current: bigint | null): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === null;
  if (expected === 'stream_exists') return current !== null;
  return current === expected;
}

export function conflict(
  streamId: string,
  expected: ExpectedRevision,
  current: bigint | null,
): WrongExpectedRevisionError {
  return new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');
}
