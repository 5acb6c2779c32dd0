// The first 401 clears every cached answer, so no list of the old session stays on screen.
import { createSlice, isRejectedWithValue, type Middleware } from '@reduxjs/toolkit';

export const sessionEndedSlice = createSlice({
  name: 'sessionEnded',
  initialState: { ended: false },
  reducers: {
    sessionEnded: (state) => {
      state.ended = true;
    },
  },
});

export const { sessionEnded } = sessionEndedSlice.actions;

export const selectSessionEnded = (state: { sessionEnded?: { ended: boolean } }): boolean =>
  state.sessionEnded?.ended === true;

const isUnauthenticated = (payload: unknown): boolean =>
  typeof payload === 'object' && payload !== null && (payload as { status?: unknown }).status === 401;

/** `clearCache` comes from console-api.ts, which imports this file. */
export const sessionEndedMiddleware =
  (clearCache: () => { type: string }): Middleware =>
  (store) =>
  (next) =>
  (action) => {
    const result = next(action);
    if (isRejectedWithValue(action) && isUnauthenticated(action.payload)) {
      if (!selectSessionEnded(store.getState() as { sessionEnded?: { ended: boolean } })) {
        store.dispatch(sessionEnded());
        store.dispatch(clearCache());
      }
    }
    return result;
  };
