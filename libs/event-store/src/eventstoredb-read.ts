// One read of @eventstore/db-client, bounded in time and always cancelled when left unfinished.
//
// The client (6.2.1) opens reads with `deadline: Infinity` and ignores a per-call deadline, and leaving a
// `for await` early only destroys its Node wrapper: the gRPC call stays open on the server, blocked on
// HTTP/2 flow control. The server allows 100 concurrent streams per connection (Kestrel's default), so
// about a hundred abandoned reads stop every further call on that connection.
import type { StreamingRead } from '@eventstore/db-client';
import { EventStoreTimeoutError } from './event-store.port.js';

/** Ends a read from outside (its timeout, the store closing) with the given reason. */
export type CancelRead = (reason: Error) => void;

export type BoundedReadOptions = {
  /** What is being read, for the timeout's message. */
  operation: string;
  timeoutMs: number;
  /** Lets the store's close() cancel the read; returns the function that forgets it. */
  register?: (cancel: CancelRead) => () => void;
};

/**
 * Hands each item of `read` to `visit` until the server ends the call or `visit` returns false. Rejects
 * with EventStoreTimeoutError after `timeoutMs`, or with the reason it was cancelled for. Whenever the
 * server did not end the call itself, the call is cancelled.
 */
export async function consumeRead<T>(read: StreamingRead<T>, options: BoundedReadOptions, visit: (item: T) => boolean): Promise<void> {
  let serverEnded = false;
  let cancelledFor: Error | undefined;
  const cancel: CancelRead = (reason) => {
    if (serverEnded || cancelledFor !== undefined) return;
    cancelledFor = reason;
    read.destroy(reason);
  };
  const timer = setTimeout(() => cancel(new EventStoreTimeoutError(options.operation, options.timeoutMs)), options.timeoutMs);
  const forget = options.register?.(cancel);
  try {
    for await (const item of read) {
      if (!visit(item)) return;
    }
    serverEnded = true;
  } catch (error) {
    throw cancelledFor ?? error;
  } finally {
    clearTimeout(timer);
    forget?.();
    if (!serverEnded) abandon(read);
  }
}

/** Cancels the gRPC call under a read that is no longer consumed. */
function abandon<T>(read: StreamingRead<T>): void {
  // Nobody listens any more: an error the wrapper emits later must not become an uncaught exception.
  read.on('error', () => undefined);
  // Not awaited: cancel() first waits for the call to exist, which a connection never made would delay forever.
  read.cancel().catch(() => undefined);
  read.destroy();
}
