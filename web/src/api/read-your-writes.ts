// docs/console.md: "A change shows in the view right after it is acknowledged": the position of the latest
// acknowledged write, which the reads after it name (Chorus-Min-Position).
import { createSlice, type UnknownAction } from '@reduxjs/toolkit';
import type { Position } from './contract';

type WritesState = { position: string | null };

const initialState: WritesState = { position: null };

function isAcknowledgedWrite(action: UnknownAction): action is UnknownAction & { payload: { position: Position } } {
  if (!action.type.endsWith('/executeMutation/fulfilled')) return false;
  const payload = (action as { payload?: unknown }).payload;
  const position =
    typeof payload === 'object' && payload !== null ? (payload as { position?: unknown }).position : undefined;
  return (
    (typeof position === 'number' && Number.isSafeInteger(position)) ||
    (typeof position === 'string' && /^\d+$/.test(position))
  );
}

export const writesSlice = createSlice({
  name: 'writes',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    // A reducer, not an onQueryStarted callback: it runs before the refetch the mutation's invalidation starts.
    builder.addMatcher(isAcknowledgedWrite, (state, action) => {
      const next = BigInt(action.payload.position);
      if (state.position === null || next > BigInt(state.position)) state.position = next.toString();
    });
  },
  selectors: {
    selectLastWritePosition: (writes) => writes.position,
  },
});
