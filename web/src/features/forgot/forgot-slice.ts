import { createAsyncThunk, createSlice, isAnyOf } from '@reduxjs/toolkit';
import type { Services } from '../../lib/services';
import { requestPasswordReset } from './api/request-password-reset';
import { isValidResetEmail } from '@libs/domain/email/is-valid-reset-email';

/** Seed, section 4: entering -> processing (only with a valid address) -> sent, and never again. */
export type ForgotState = { status: 'entering' | 'processing' | 'sent' };

const initialState: ForgotState = { status: 'entering' };

export const sendResetLink = createAsyncThunk.withTypes<{ extra: Services; state: { forgot: ForgotState } }>()(
  'forgot/send',
  async (email: string, { extra }) => {
    await requestPasswordReset(extra.http, email);
  },
  // An invalid address does nothing, without a message (seed, section 5).
  { condition: (email, { getState }) => getState().forgot.status === 'entering' && isValidResetEmail(email) },
);

export const forgotSlice = createSlice({
  name: 'forgot',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(sendResetLink.pending, () => ({ status: 'processing' }))
      // The request's failure is ignored: the user sees the same text either way.
      .addMatcher(isAnyOf(sendResetLink.fulfilled, sendResetLink.rejected), () => ({ status: 'sent' }));
  },
  selectors: {
    selectForgotStatus: (forgot) => forgot.status,
  },
});

export const { selectForgotStatus } = forgotSlice.selectors;
