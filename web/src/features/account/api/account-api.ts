import { consoleApi } from '../../../api/console-api';
import type { AccountSession } from '../../../api/contract';

/** Empty for an account that confirms by a recent sign-in. */
export type AccountDeletion = { password?: string; code?: string };

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
    // A mutation, so the copy is not kept as a cached read once saved.
    exportMyData: build.mutation<unknown, void>({
      query: () => ({ url: '/account/export' }),
    }),
    deleteAccount: build.mutation<void, AccountDeletion>({
      query: (body) => ({ url: '/account', method: 'DELETE', body }),
    }),
  }),
});

export const {
  useGetSessionsQuery,
  useRevokeSessionMutation,
  useRevokeOtherSessionsMutation,
  useChangePasswordMutation,
  useExportMyDataMutation,
  useDeleteAccountMutation,
} = accountApi;
