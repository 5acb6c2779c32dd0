import { consoleApi } from '../../../api/console-api';
import type { CommandAnswer, MembersPage, Role } from '../../../api/contract';
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

/** How many members a page brings: a screenful or two, whatever the organization's size. */
export const MEMBERS_PAGE_SIZE = 50;

/** `q`: part of an address ('' for everyone). */
export type MembersQuery = { organizationId: string; q: string };

export const membersApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    // Page after page from where the last ended; a change to the organization reads the pages shown again.
    members: build.infiniteQuery<MembersPage, MembersQuery, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.next },
      query: ({ queryArg: { organizationId, q }, pageParam }) => {
        const search = new URLSearchParams({ limit: String(MEMBERS_PAGE_SIZE) });
        if (q !== '') search.set('q', q);
        if (pageParam !== null) search.set('after', pageParam);
        return { url: `${membersUrl(organizationId)}?${search.toString()}`, readsOwnWrites: true };
      },
      providesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
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
  useMembersInfiniteQuery,
  useAddMemberMutation,
  useChangeMemberRoleMutation,
  useRemoveMemberMutation,
  useResendInvitationMutation,
  useUndeliveredInvitationsQuery,
} = membersApi;
