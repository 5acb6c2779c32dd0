// The client (6.2.1) ignores a per-call deadline, and leaving a `for await` early leaves the gRPC call open on the
// server: about a hundred abandoned reads (Kestrel's 100 streams per connection) stop every further call.
import type { StreamingRead } from '@eventstore/db-client';
import { EventStoreTimeoutError } from './event-store.port.js';

export type CancelRead = (reason: Error) => void;

/** A follower may be behind: a read there could miss an acknowledged append or look past a checkpoint. */
export const ON_THE_LEADER = { requiresLeader: true } as const;

export type BoundedReadOptions = {
  operation: string;
  timeoutMs: number;
  /** Returns the function that forgets it. */
  register?: (cancel: CancelRead) => () => void;
};

/** Until `visit` returns false; whenever the server did not end the call itself, the call is cancelled. */
export async function consumeRead<T>(
  read: StreamingRead<T>,
  options: BoundedReadOptions,
  visit: (item: T) => boolean,
): Promise<void> {
  let serverEnded = false;
  let cancelledFor: Error | undefined;
  const cancel: CancelRead = (reason) => {
    if (serverEnded || cancelledFor !== undefined) return;
    cancelledFor = reason;
    read.destroy(reason);
  };
  const timer = setTimeout(
    () => cancel(new EventStoreTimeoutError(options.operation, options.timeoutMs)),
    options.timeoutMs,
  );
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

function abandon<T>(read: StreamingRead<T>): void {
  // Nobody listens any more: an error the wrapper emits later must not become an uncaught exception.
  read.on('error', () => undefined);
  // Not awaited: cancel() first waits for the call to exist, which a connection never made would delay forever.
  read.cancel().catch(() => undefined);
  read.destroy();
}
