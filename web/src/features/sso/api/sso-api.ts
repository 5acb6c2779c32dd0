// PUT and DELETE /organizations/:id/sso. The client secret goes up and never comes back.
import { consoleApi } from '../../../api/console-api';
import type { CommandAnswer, SsoSettings } from '../../../api/contract';
import { organizationTag } from '../../../api/organization-api';

const ssoUrl = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/sso`;

/** Without clientSecret the one configured is kept. */
export type SsoChange = Omit<SsoSettings, 'domains'> & { domains: string[]; clientSecret?: string };

export const ssoApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    configureSso: build.mutation<CommandAnswer, { organizationId: string; settings: SsoChange }>({
      query: ({ organizationId, settings }) => ({ url: ssoUrl(organizationId), method: 'PUT', body: settings }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
    disableSso: build.mutation<CommandAnswer, { organizationId: string }>({
      query: ({ organizationId }) => ({ url: ssoUrl(organizationId), method: 'DELETE' }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
  }),
});

export const { useConfigureSsoMutation, useDisableSsoMutation } = ssoApi;
