import { consoleApi } from '../../../api/console-api';
import type { CommandAnswer, Role } from '../../../api/contract';
import { organizationTag } from '../../../api/organization-api';

export type NewMember = { organizationId: string; email: string; role: Role; chorusUser: boolean };

/** Refused for good: it is not tried again. */
export type UndeliveredInvitation = {
  userId: string;
  email: string;
  reason: 'address_refused' | 'mail_server_refused';
  responseCode?: number;
  at: string;
};

const membersUrl = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/members`;

export const membersApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    addMember: build.mutation<CommandAnswer & { userId: string }, NewMember>({
      query: ({ organizationId, ...member }) => ({ url: membersUrl(organizationId), method: 'POST', body: member }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
    undeliveredInvitations: build.query<{ failures: UndeliveredInvitation[] }, string>({
      query: (organizationId) => ({ url: `${membersUrl(organizationId)}/invitation-failures` }),
      providesTags: (_result, _error, organizationId) => organizationTag(organizationId),
    }),
    changeMemberRole: build.mutation<CommandAnswer, { organizationId: string; userId: string; role: Role }>({
      query: ({ organizationId, userId, role }) => ({
        url: `${membersUrl(organizationId)}/${encodeURIComponent(userId)}`,
        method: 'PATCH',
        body: { role },
      }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
    resendInvitation: build.mutation<CommandAnswer, { organizationId: string; userId: string }>({
      query: ({ organizationId, userId }) => ({
        url: `${membersUrl(organizationId)}/${encodeURIComponent(userId)}/invitation`,
        method: 'POST',
        body: {},
      }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
    removeMember: build.mutation<CommandAnswer, { organizationId: string; userId: string }>({
      query: ({ organizationId, userId }) => ({
        url: `${membersUrl(organizationId)}/${encodeURIComponent(userId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
  }),
});

export const {
  useAddMemberMutation,
  useChangeMemberRoleMutation,
  useRemoveMemberMutation,
  useResendInvitationMutation,
  useUndeliveredInvitationsQuery,
} = membersApi;
