import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import type { Services } from '../../lib/services';
import { logIn, type Credentials } from './api/log-in';

/** Seed, section 4: idle -> processing -> a full-page redirect, or back to idle with the error shown. */
export type LoginState = { status: 'idle'; failed: boolean } | { status: 'processing' } | { status: 'redirecting' };

const initialState = { status: 'idle', failed: false } as LoginState;

export const submitLogin = createAsyncThunk.withTypes<{ extra: Services; state: { login: LoginState } }>()(
  'login/submit',
  async ({ credentials, redirect }: { credentials: Credentials; redirect: string }, { extra, signal }) => {
    await logIn(extra.http, credentials, signal);
    extra.navigate(redirect);
  },
  // A second Enter while a request is on its way sends nothing.
  { condition: (_, { getState }) => getState().login.status === 'idle' },
);

export const loginSlice = createSlice({
  name: 'login',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(submitLogin.pending, () => ({ status: 'processing' }))
      .addCase(submitLogin.fulfilled, () => ({ status: 'redirecting' }))
      // Any failure, whatever the status or cause, ends the same way (seed, section 7).
      .addCase(submitLogin.rejected, () => ({ status: 'idle', failed: true }));
  },
  selectors: {
    selectLoginBusy: (login) => login.status !== 'idle',
    selectLoginFailed: (login) => login.status === 'idle' && login.failed,
  },
});

export const { selectLoginBusy, selectLoginFailed } = loginSlice.selectors;
