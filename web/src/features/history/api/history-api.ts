// GET /organizations/:id/history (API.md): the organization's events, oldest first, a page at a time.
import { consoleApi } from '../../../api/console-api';
import type { HistoryPage } from '../../../api/contract';

export const historyApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getHistory: build.query<HistoryPage, { organizationId: string; fromRevision: number; limit: number }>({
      query: ({ organizationId, fromRevision, limit }) => ({ url: `/organizations/${encodeURIComponent(organizationId)}/history?fromRevision=${fromRevision}&limit=${limit}` }),
      providesTags: (_result, _error, { organizationId }) => [{ type: 'Organization', id: organizationId }],
    }),
  }),
});

export const { useGetHistoryQuery } = historyApi;
