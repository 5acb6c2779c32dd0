// The client secret goes up and never comes back; the SAML metadata goes up and comes back as what it said.
import { consoleApi } from '../../../api/console-api';
import type { CommandAnswer, SsoDomainCheck } from '../../../api/contract';
import { organizationTag } from '../../../api/organization-api';

const ssoUrl = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/sso`;

type SsoCommonChange = { domains: string[]; enforce: boolean; trustProviderMfa: boolean };

/** Without clientSecret the one configured is kept. No protocol: the body of before SAML, which every server takes. */
export type OidcChange = SsoCommonChange & { issuer: string; clientId: string; clientSecret?: string };

/**
 * One of metadataUrl and metadataXml; neither, on an organization already on SAML: the saved provider values are kept.
 */
export type SamlChange = SsoCommonChange & {
  protocol: 'saml';
  metadataUrl?: string;
  metadataXml?: string;
  allowIdpInitiated: boolean;
};

export type SsoChange = OidcChange | SamlChange;

export const ssoApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    configureSso: build.mutation<CommandAnswer, { organizationId: string; settings: SsoChange }>({
      query: ({ organizationId, settings }) => ({ url: ssoUrl(organizationId), method: 'PUT', body: settings }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
    checkSsoDomain: build.mutation<SsoDomainCheck, { organizationId: string; domain: string }>({
      query: ({ organizationId, domain }) => ({
        url: `${ssoUrl(organizationId)}/domains/${encodeURIComponent(domain)}/verify`,
        method: 'POST',
        body: {},
      }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
    disableSso: build.mutation<CommandAnswer, { organizationId: string }>({
      query: ({ organizationId }) => ({ url: ssoUrl(organizationId), method: 'DELETE' }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
  }),
});

export const { useCheckSsoDomainMutation, useConfigureSsoMutation, useDisableSsoMutation } = ssoApi;
