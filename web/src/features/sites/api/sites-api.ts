import { consoleApi } from '../../../api/console-api';
import type { CommandAnswer } from '../../../api/contract';
import { organizationTag } from '../../../api/organization-api';

const sitesUrl = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/sites`;

export const sitesApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    addSite: build.mutation<
      CommandAnswer & { siteId: string },
      { organizationId: string; name: string; hostname: string }
    >({
      query: ({ organizationId, ...site }) => ({ url: sitesUrl(organizationId), method: 'POST', body: site }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
    removeSite: build.mutation<CommandAnswer, { organizationId: string; siteId: string }>({
      query: ({ organizationId, siteId }) => ({
        url: `${sitesUrl(organizationId)}/${encodeURIComponent(siteId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
  }),
});

export const { useAddSiteMutation, useRemoveSiteMutation } = sitesApi;
