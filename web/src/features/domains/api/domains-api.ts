import { consoleApi } from '../../../api/console-api';
import type { CommandAnswer } from '../../../api/contract';
import { organizationTag } from '../../../api/organization-api';

export type DomainKind = 'qualityAssurance' | 'webAnalytics';

const domainsUrl = (organizationId: string, kind: DomainKind) =>
  `/organizations/${encodeURIComponent(organizationId)}/${kind === 'qualityAssurance' ? 'quality-assurance' : 'web-analytics'}/domains`;

type DomainChange = { organizationId: string; kind: DomainKind; domain: string };

export const domainsApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    addDomain: build.mutation<CommandAnswer, DomainChange>({
      query: ({ organizationId, kind, domain }) => ({
        url: domainsUrl(organizationId, kind),
        method: 'POST',
        body: { domain },
      }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
    removeDomain: build.mutation<CommandAnswer, DomainChange>({
      query: ({ organizationId, kind, domain }) => ({
        url: `${domainsUrl(organizationId, kind)}/${encodeURIComponent(domain)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
  }),
});

export const { useAddDomainMutation, useRemoveDomainMutation } = domainsApi;
