import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { HttpError } from '../../lib/http-client';
import type { Services } from '../../lib/services';
import { isResetLinkValid } from './api/check-reset-link';
import { resetPassword, type NewPassword } from './api/reset-password';

export type ResetProblem =
  { kind: 'missing' } | { kind: 'mismatch' } | { kind: 'refused'; detail: string } | { kind: 'failed' };

/** unchecked -> checking -> editing -> processing -> changed; a bad link ends in invalid-token at either check. */
export type ResetState =
  | { status: 'unchecked' }
  | { status: 'checking' }
  | { status: 'editing'; problem: ResetProblem | null }
  | { status: 'processing' }
  | { status: 'changed' }
  | { status: 'invalid-token' };

type Refusal = { kind: 'invalid-token' } | Exclude<ResetProblem, { kind: 'missing' | 'mismatch' }>;

const initialState = { status: 'unchecked' } as ResetState;

function refusal(error: unknown): Refusal {
  const problem = error instanceof HttpError ? error.response?.data : undefined;
  if (typeof problem === 'object' && problem !== null && 'code' in problem) {
    if (problem.code === 'INVALID_TOKEN') return { kind: 'invalid-token' };
    if (
      problem.code === 'VALIDATION_FAILED' &&
      'detail' in problem &&
      typeof problem.detail === 'string' &&
      problem.detail !== ''
    ) {
      return { kind: 'refused', detail: problem.detail };
    }
  }
  return { kind: 'failed' };
}

// A failed check shows the form, whose submit then decides.
export const checkResetLink = createAsyncThunk.withTypes<{ extra: Services; state: { reset: ResetState } }>()(
  'reset/checkLink',
  (token: string, { extra }) => isResetLinkValid(extra.http, token),
  { condition: (_, { getState }) => getState().reset.status === 'unchecked' },
);

export const changePassword = createAsyncThunk.withTypes<{
  extra: Services;
  state: { reset: ResetState };
  rejectValue: Refusal;
}>()(
  'reset/changePassword',
  async (newPassword: NewPassword, { extra, rejectWithValue }) => {
    try {
      await resetPassword(extra.http, newPassword);
    } catch (error) {
      return rejectWithValue(refusal(error));
    }
  },
  { condition: (_, { getState }) => getState().reset.status === 'editing' },
);

export const resetSlice = createSlice({
  name: 'reset',
  initialState,
  reducers: {
    newPasswordRejected: (_, action: PayloadAction<'missing' | 'mismatch'>) => ({
      status: 'editing',
      problem: { kind: action.payload },
    }),
  },
  extraReducers: (builder) => {
    builder
      .addCase(checkResetLink.pending, () => ({ status: 'checking' }))
      .addCase(checkResetLink.fulfilled, (_, action) =>
        action.payload === false ? { status: 'invalid-token' } : { status: 'editing', problem: null },
      )
      .addCase(checkResetLink.rejected, () => ({ status: 'editing', problem: null }))
      .addCase(changePassword.pending, () => ({ status: 'processing' }))
      .addCase(changePassword.fulfilled, () => ({ status: 'changed' }))
      .addCase(changePassword.rejected, (_, action) => {
        const reason = action.payload ?? { kind: 'failed' };
        return reason.kind === 'invalid-token' ? { status: 'invalid-token' } : { status: 'editing', problem: reason };
      });
  },
  selectors: {
    selectReset: (reset) => reset,
  },
});

export const { newPasswordRejected } = resetSlice.actions;
export const { selectReset } = resetSlice.selectors;
