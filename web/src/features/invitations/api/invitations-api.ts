import { consoleApi } from '../../../api/console-api';
import type { InvitationDetails } from '../../../api/contract';

export const invitationsApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getInvitation: build.query<InvitationDetails, string>({
      query: (token) => ({ url: `/invitations/${encodeURIComponent(token)}` }),
    }),
    /** 204 and a session cookie: the browser is signed in as the invited person. */
    acceptInvitation: build.mutation<void, { token: string; password: string }>({
      query: (body) => ({ url: '/invitations/accept', method: 'POST', body }),
    }),
  }),
});

export const { useGetInvitationQuery, useAcceptInvitationMutation } = invitationsApi;
