import { consoleApi } from '../../../api/console-api';
import type { AccountSession } from '../../../api/contract';

export const accountApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getSessions: build.query<{ sessions: AccountSession[] }, void>({
      query: () => ({ url: '/sessions' }),
      providesTags: ['Sessions'],
    }),
    revokeSession: build.mutation<void, string>({
      query: (sessionId) => ({ url: `/sessions/${encodeURIComponent(sessionId)}`, method: 'DELETE' }),
      invalidatesTags: ['Sessions'],
    }),
    revokeOtherSessions: build.mutation<void, void>({
      query: () => ({ url: '/sessions', method: 'DELETE' }),
      invalidatesTags: ['Sessions'],
    }),
    changePassword: build.mutation<void, { currentPassword: string; newPassword: string }>({
      query: (body) => ({ url: '/account/password', method: 'POST', body }),
      invalidatesTags: ['Sessions'],
    }),
  }),
});

export const { useGetSessionsQuery, useRevokeSessionMutation, useRevokeOtherSessionsMutation, useChangePasswordMutation } = accountApi;
