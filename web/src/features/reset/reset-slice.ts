import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { HttpError } from '../../lib/http-client';
import type { Services } from '../../lib/services';
import { resetPassword, type NewPassword } from './api/reset-password';

/** Why the form is still shown: checked here (missing, mismatch) or refused by the server. */
export type ResetProblem =
  | { kind: 'missing' }
  | { kind: 'mismatch' }
  | { kind: 'refused'; detail: string }
  | { kind: 'failed' };

/** editing -> processing -> changed; an unknown, used or expired link ends in invalid-token. */
export type ResetState =
  | { status: 'editing'; problem: ResetProblem | null }
  | { status: 'processing' }
  | { status: 'changed' }
  | { status: 'invalid-token' };

type Refusal = { kind: 'invalid-token' } | Exclude<ResetProblem, { kind: 'missing' | 'mismatch' }>;

const initialState = { status: 'editing', problem: null } as ResetState;

function refusal(error: unknown): Refusal {
  const problem = error instanceof HttpError ? error.response?.data : undefined;
  if (typeof problem === 'object' && problem !== null && 'code' in problem) {
    if (problem.code === 'INVALID_TOKEN') return { kind: 'invalid-token' };
    if (problem.code === 'VALIDATION_FAILED' && 'detail' in problem && typeof problem.detail === 'string' && problem.detail !== '') {
      return { kind: 'refused', detail: problem.detail };
    }
  }
  return { kind: 'failed' };
}

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
