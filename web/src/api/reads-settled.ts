// A change is announced once the reads it invalidated have answered: the page's figures and the sentence
// that says the change is done appear together, never the sentence beside the state before it.
import { QueryStatus } from '@reduxjs/toolkit/query';

type ConsoleApiState = { consoleApi?: { queries: Record<string, { status: QueryStatus } | undefined> } };
type StoreLike = { getState: () => unknown; subscribe: (listener: () => void) => () => void };

const refetching = (state: unknown): boolean =>
  Object.values((state as ConsoleApiState).consoleApi?.queries ?? {}).some((query) => query?.status === QueryStatus.pending);

/**
 * Settles once no read of the console's data layer is in flight. A mutation's invalidation starts its
 * refetches as the mutation is answered (before `unwrap()` resolves), so awaiting this after it waits for them.
 */
export function readsSettled(store: StoreLike): Promise<void> {
  if (!refetching(store.getState())) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = store.subscribe(() => {
      if (refetching(store.getState())) return;
      unsubscribe();
      resolve();
    });
  });
}
