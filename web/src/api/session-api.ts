import { consoleApi } from './console-api';
import type { SessionAnswer } from './contract';

export const sessionApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getSession: build.query<SessionAnswer, void>({
      query: () => ({ url: '/session' }),
      providesTags: ['Session'],
    }),
    signOut: build.mutation<void, void>({
      query: () => ({ url: '/logout', method: 'POST' }),
    }),
  }),
});

export const { useGetSessionQuery, useSignOutMutation } = sessionApi;
