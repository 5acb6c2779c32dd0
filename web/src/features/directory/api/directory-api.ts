// An organization's directory (docs/api.md, Directory): SCIM tokens, the group-to-role mapping, and how a verified
// domain's people join. Tokens and the mapping live in the directory's own stream, read as of the command before.
import { consoleApi } from '../../../api/console-api';
import type { CommandAnswer, Role } from '../../../api/contract';
import { organizationTag } from '../../../api/organization-api';

/** One SCIM request of the identity provider and how it ended; no query, no body: nothing of a person. */
export type ScimRequest = { method: string; path: string; status: number; tokenId: string; at: string };

export type ScimToken = {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};
/** Group displayName (any case) to role. */
export type GroupRoles = Record<string, Role>;
export type JoinRole = Exclude<Role, 'owner'>;

const scimUrl = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/scim`;
const tokensTag = (organizationId: string) => [{ type: 'ScimTokens' as const, id: organizationId }];
const rolesTag = (organizationId: string) => [{ type: 'GroupRoles' as const, id: organizationId }];

export const directoryApi = consoleApi.enhanceEndpoints({ addTagTypes: ['ScimTokens', 'GroupRoles'] }).injectEndpoints({
  endpoints: (build) => ({
    scimTokens: build.query<{ tokens: ScimToken[] }, string>({
      query: (organizationId) => ({ url: `${scimUrl(organizationId)}/tokens` }),
      providesTags: (_result, _error, organizationId) => tokensTag(organizationId),
    }),
    createScimToken: build.mutation<ScimToken & { token: string }, { organizationId: string; name: string }>({
      query: ({ organizationId, name }) => ({
        url: `${scimUrl(organizationId)}/tokens`,
        method: 'POST',
        body: { name },
      }),
      invalidatesTags: (_result, _error, { organizationId }) => tokensTag(organizationId),
    }),
    revokeScimToken: build.mutation<void, { organizationId: string; tokenId: string }>({
      query: ({ organizationId, tokenId }) => ({
        url: `${scimUrl(organizationId)}/tokens/${encodeURIComponent(tokenId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, { organizationId }) => tokensTag(organizationId),
    }),
    scimRequests: build.query<{ requests: ScimRequest[] }, string>({
      query: (organizationId) => ({ url: `${scimUrl(organizationId)}/requests` }),
    }),
    groupRoles: build.query<GroupRoles, string>({
      query: (organizationId) => ({ url: `${scimUrl(organizationId)}/group-roles` }),
      providesTags: (_result, _error, organizationId) => rolesTag(organizationId),
    }),
    mapGroupRoles: build.mutation<GroupRoles, { organizationId: string; roles: GroupRoles }>({
      query: ({ organizationId, roles }) => ({
        url: `${scimUrl(organizationId)}/group-roles`,
        method: 'PUT',
        body: roles,
      }),
      // Roles of members change with it.
      invalidatesTags: (_result, _error, { organizationId }) => [
        ...rolesTag(organizationId),
        ...organizationTag(organizationId),
      ],
    }),
    setDomainJoin: build.mutation<CommandAnswer, { organizationId: string; domain: string; role: JoinRole | null }>({
      query: ({ organizationId, domain, role }) => ({
        url: `/organizations/${encodeURIComponent(organizationId)}/sso/domains/${encodeURIComponent(domain)}/join`,
        method: 'PUT',
        body: role === null ? { join: 'invitation' } : { join: 'automatic', role },
      }),
      invalidatesTags: (_result, _error, { organizationId }) => organizationTag(organizationId),
    }),
  }),
});

export const {
  useScimTokensQuery,
  useScimRequestsQuery,
  useCreateScimTokenMutation,
  useRevokeScimTokenMutation,
  useGroupRolesQuery,
  useMapGroupRolesMutation,
  useSetDomainJoinMutation,
} = directoryApi;
