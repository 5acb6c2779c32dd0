// The client secret goes up and never comes back.
import { consoleApi } from '../../../api/console-api';
import type { CommandAnswer, SsoDomainCheck, SsoSettings } from '../../../api/contract';
import { organizationTag } from '../../../api/organization-api';

const ssoUrl = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/sso`;

/** Without clientSecret the one configured is kept. */
export type SsoChange = Omit<SsoSettings, 'domains' | 'domainStates'> & { domains: string[]; clientSecret?: string };

export const ssoApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    configureSso: build.mutation<CommandAnswer, { organizationId: string; settings: SsoChange }>({
      query: ({ organizationId, settings }) => ({ url: ssoUrl(organizationId), method: 'PUT', body: settings }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
    checkSsoDomain: build.mutation<SsoDomainCheck, { organizationId: string; domain: string }>({
      query: ({ organizationId, domain }) => ({ url: `${ssoUrl(organizationId)}/domains/${encodeURIComponent(domain)}/verify`, method: 'POST', body: {} }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
    disableSso: build.mutation<CommandAnswer, { organizationId: string }>({
      query: ({ organizationId }) => ({ url: ssoUrl(organizationId), method: 'DELETE' }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
  }),
});

export const { useCheckSsoDomainMutation, useConfigureSsoMutation, useDisableSsoMutation } = ssoApi;
