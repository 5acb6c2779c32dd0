// Setting up a factor is the same pair of calls under either base: a first factor at sign-in, or any on the Account
// page.
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { consoleApi } from '../../../api/console-api';
import type { CommandAnswer } from '../../../api/contract';

export type SetupBase = '/session/second-step' | '/account/two-step';

export type SecondStepStatus = {
  awaiting: 'second-step' | 'enrolment';
  email: string;
  methods: { authenticatorApp: boolean; passkeys: number; recoveryCodes: number };
  requiredBy: string[];
};

export type ConfirmWith = 'password' | 'code' | 'recent-sign-in';
/** Empty for an account that confirms by a recent sign-in. */
export type ChangeConfirmation = { password?: string; code?: string };

export type SecondFactors = {
  confirmWith: ConfirmWith;
  authenticatorApp: { enrolledAt: string } | null;
  passkeys: { id: string; name: string; registeredAt: string; lastUsedAt: string | null }[];
  recoveryCodes: { remaining: number; generatedAt: string } | null;
  requiredBy: { id: string; name: string }[];
};

export type AuthenticatorAppSetup = { secret: string; uri: string; qrCode: string; setup: string };
export type RecoveryCodesAnswer = { recoveryCodes: string[] | null };
/** `reset` (at once) only for an account the organization answers for. */
export type OwnerResetOutcome = 'reset' | 'confirmation-mailed' | 'nothing-to-reset';
export type TwoStepResetValidity =
  { valid: false } | { valid: true; organizationName: string; passwordRequired: boolean };
export type TwoStepMember = { userId: string; email: string; role: string; secondFactor: boolean };
/** One page of the members, and what concerns all of them: the requirement and how many have no second factor. */
export type OrganizationTwoStepPage = {
  required: boolean;
  members: TwoStepMember[];
  total: number;
  next: string | null;
  withoutSecondFactor: number;
};

/** How many members a page brings, as on the members' own list. */
const TWO_STEP_PAGE_SIZE = 50;

export const twoStepApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getSecondStep: build.query<SecondStepStatus, void>({ query: () => ({ url: '/session/second-step' }) }),
    passWithCode: build.mutation<void, string>({
      query: (code) => ({ url: '/session/second-step/code', method: 'POST', body: { code } }),
    }),
    passkeySignInOptions: build.mutation<{ options: PublicKeyCredentialRequestOptionsJSON; challenge: string }, void>({
      query: () => ({ url: '/session/second-step/passkey/options', method: 'POST' }),
    }),
    passWithPasskey: build.mutation<void, { challenge: string; response: unknown }>({
      query: (body) => ({ url: '/session/second-step/passkey', method: 'POST', body }),
    }),

    startAuthenticatorApp: build.mutation<AuthenticatorAppSetup, SetupBase>({
      query: (base) => ({ url: `${base}/authenticator-app`, method: 'POST' }),
    }),
    confirmAuthenticatorApp: build.mutation<
      RecoveryCodesAnswer,
      { base: SetupBase; setup: string; code: string; password?: string }
    >({
      query: ({ base, ...body }) => ({ url: `${base}/authenticator-app`, method: 'PUT', body }),
      invalidatesTags: ['TwoStep'],
    }),
    passkeyRegistrationOptions: build.mutation<
      { options: PublicKeyCredentialCreationOptionsJSON; registration: string },
      SetupBase
    >({
      query: (base) => ({ url: `${base}/passkeys/options`, method: 'POST' }),
    }),
    registerPasskey: build.mutation<
      RecoveryCodesAnswer,
      { base: SetupBase; registration: string; name: string; response: unknown } & ChangeConfirmation
    >({
      query: ({ base, ...body }) => ({ url: `${base}/passkeys`, method: 'POST', body }),
      invalidatesTags: ['TwoStep'],
    }),

    getSecondFactors: build.query<SecondFactors, void>({
      query: () => ({ url: '/account/two-step' }),
      providesTags: ['TwoStep'],
    }),
    removeAuthenticatorApp: build.mutation<void, ChangeConfirmation>({
      query: (confirmation) => ({ url: '/account/two-step/authenticator-app', method: 'DELETE', body: confirmation }),
      invalidatesTags: ['TwoStep'],
    }),
    renamePasskey: build.mutation<void, { id: string; name: string } & ChangeConfirmation>({
      query: ({ id, ...body }) => ({
        url: `/account/two-step/passkeys/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body,
      }),
      invalidatesTags: ['TwoStep'],
    }),
    removePasskey: build.mutation<void, { id: string } & ChangeConfirmation>({
      query: ({ id, ...confirmation }) => ({
        url: `/account/two-step/passkeys/${encodeURIComponent(id)}`,
        method: 'DELETE',
        body: confirmation,
      }),
      invalidatesTags: ['TwoStep'],
    }),
    regenerateRecoveryCodes: build.mutation<{ recoveryCodes: string[] }, ChangeConfirmation>({
      query: (confirmation) => ({ url: '/account/two-step/recovery-codes', method: 'POST', body: confirmation }),
      invalidatesTags: ['TwoStep'],
    }),

    organizationTwoStep: build.infiniteQuery<
      OrganizationTwoStepPage,
      { organizationId: string; q: string },
      string | null
    >({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.next },
      query: ({ queryArg: { organizationId, q }, pageParam }) => {
        const search = new URLSearchParams({ limit: String(TWO_STEP_PAGE_SIZE) });
        if (q !== '') search.set('q', q);
        if (pageParam !== null) search.set('after', pageParam);
        return { url: `/organizations/${encodeURIComponent(organizationId)}/two-step-sign-in?${search.toString()}` };
      },
      providesTags: ['TwoStep'],
    }),
    setTwoStepRequirement: build.mutation<CommandAnswer, { organizationId: string; required: boolean }>({
      query: ({ organizationId, required }) => ({
        url: `/organizations/${encodeURIComponent(organizationId)}/two-step-sign-in`,
        method: 'PUT',
        body: { required },
      }),
      invalidatesTags: ['TwoStep', 'Organization'],
    }),
    resetMemberSecondFactors: build.mutation<
      { outcome: OwnerResetOutcome },
      { organizationId: string; userId: string }
    >({
      query: ({ organizationId, userId }) => ({
        url: `/organizations/${encodeURIComponent(organizationId)}/two-step-sign-in/members/${encodeURIComponent(userId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: ['TwoStep'],
    }),

    getTwoStepResetValidity: build.query<TwoStepResetValidity, string>({
      query: (token) => ({ url: '/two-step-reset/validity', method: 'POST', body: { token } }),
    }),
    confirmTwoStepReset: build.mutation<void, { token: string; password?: string }>({
      query: (body) => ({ url: '/two-step-reset', method: 'POST', body }),
    }),
  }),
});

export const {
  useGetSecondStepQuery,
  usePassWithCodeMutation,
  usePasskeySignInOptionsMutation,
  usePassWithPasskeyMutation,
  useStartAuthenticatorAppMutation,
  useConfirmAuthenticatorAppMutation,
  usePasskeyRegistrationOptionsMutation,
  useRegisterPasskeyMutation,
  useGetSecondFactorsQuery,
  useRemoveAuthenticatorAppMutation,
  useRenamePasskeyMutation,
  useRemovePasskeyMutation,
  useRegenerateRecoveryCodesMutation,
  useOrganizationTwoStepInfiniteQuery,
  useSetTwoStepRequirementMutation,
  useResetMemberSecondFactorsMutation,
  useGetTwoStepResetValidityQuery,
  useConfirmTwoStepResetMutation,
} = twoStepApi;
