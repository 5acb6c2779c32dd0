// Features that change the organization invalidate its tag, and the refetch reads their own write.
import { consoleApi } from './console-api';
import type { NotificationRecipients, Organization } from './contract';

export const organizationApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getOrganization: build.query<Organization, string>({
      // Without its member list, which grows with the organization: the Members page reads it page by page.
      query: (organizationId) => ({
        url: `/organizations/${encodeURIComponent(organizationId)}?members=none`,
        readsOwnWrites: true,
      }),
      providesTags: (_result, _error, organizationId) => [{ type: 'Organization', id: organizationId }],
    }),
    getNotificationRecipients: build.query<NotificationRecipients, string>({
      query: (organizationId) => ({
        url: `/organizations/${encodeURIComponent(organizationId)}/notification-recipients`,
        readsOwnWrites: true,
      }),
      providesTags: (_result, _error, organizationId) => [{ type: 'Organization', id: organizationId }],
    }),
  }),
});

export const { useGetOrganizationQuery, useGetNotificationRecipientsQuery } = organizationApi;

export const organizationTag = (organizationId: string) => [{ type: 'Organization' as const, id: organizationId }];
