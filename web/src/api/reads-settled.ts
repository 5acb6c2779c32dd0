// The sentence that says a change is done never shows beside the figures of before.
import { QueryStatus } from '@reduxjs/toolkit/query';

type ConsoleApiState = { consoleApi?: { queries: Record<string, { status: QueryStatus } | undefined> } };
type StoreLike = { getState: () => unknown; subscribe: (listener: () => void) => () => void };

const refetching = (state: unknown): boolean =>
  Object.values((state as ConsoleApiState).consoleApi?.queries ?? {}).some(
    (query) => query?.status === QueryStatus.pending,
  );

/**
 * A mutation's invalidation starts its refetches before `unwrap()` resolves, so awaiting this after it waits for them.
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
