import { consoleApi } from '../../../api/console-api';
import type { Position } from '../../../api/contract';
import type {
  ChangesAnswer,
  CorrelationAnswer,
  HistoryFilters,
  HistoryProof,
  SignInSecurityPage,
  StatePoint,
  TimelineFilter,
  TimelinePage,
  UsageSeries,
} from './history-contract';

/** The members a state at a point lists: the rest are counted (an organization may have had 100,000 then). */
export const MEMBERS_LISTED_THEN = 50;

const organizationPath = (organizationId: string): string => `/organizations/${encodeURIComponent(organizationId)}`;

const queryString = (parameters: Record<string, string | undefined>): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters))
    if (value !== undefined && value !== '') search.set(name, value);
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
};

export const historyExportUrl = (
  organizationId: string,
  format: 'csv' | 'jsonl',
  filter: TimelineFilter = {},
): string => `${organizationPath(organizationId)}/history/export${queryString({ format, ...filter })}`;

/** The whole history as JSON lines with its proof, for `chorus history:verify`. */
export const historyProofExportUrl = (organizationId: string): string =>
  `${organizationPath(organizationId)}/history/export?format=jsonl&proof=true`;

/** The public key that checks the checkpoints: anyone may read it. */
export const HISTORY_PUBLIC_KEY_URL = '/history/public-key';

export const historyApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getTimeline: build.query<
      TimelinePage,
      { organizationId: string; filter: TimelineFilter; after?: Position; limit: number }
    >({
      query: ({ organizationId, filter, after, limit }) => ({
        url: `${organizationPath(organizationId)}/history/events${queryString({ limit: String(limit), after: after === undefined ? undefined : String(after), ...filter })}`,
        readsOwnWrites: true,
      }),
      providesTags: (_result, _error, { organizationId }) => [{ type: 'Organization', id: organizationId }],
    }),
    getHistoryFilters: build.query<HistoryFilters, string>({
      query: (organizationId) => ({ url: `${organizationPath(organizationId)}/history/filters`, readsOwnWrites: true }),
      providesTags: (_result, _error, organizationId) => [{ type: 'Organization', id: organizationId }],
    }),
    getChanges: build.query<ChangesAnswer, { organizationId: string; point: StatePoint }>({
      query: ({ organizationId, point }) => ({
        url: `${organizationPath(organizationId)}/history/changes${queryString({
          ...('asOf' in point ? { asOf: point.asOf } : { asOfRevision: String(point.asOfRevision) }),
          memberLimit: String(MEMBERS_LISTED_THEN),
        })}`,
      }),
    }),
    getCorrelation: build.query<CorrelationAnswer, { organizationId: string; correlationId: string }>({
      query: ({ organizationId, correlationId }) => ({
        url: `${organizationPath(organizationId)}/correlations/${encodeURIComponent(correlationId)}`,
        readsOwnWrites: true,
      }),
    }),
    getUsageSeries: build.query<UsageSeries, string>({
      query: (organizationId) => ({ url: `${organizationPath(organizationId)}/history/usage`, readsOwnWrites: true }),
      providesTags: (_result, _error, organizationId) => [{ type: 'Organization', id: organizationId }],
    }),
    getHistoryProof: build.query<HistoryProof, string>({
      query: (organizationId) => ({ url: `${organizationPath(organizationId)}/history/proof` }),
    }),
    getSignInSecurity: build.query<SignInSecurityPage, { organizationId: string; before?: Position }>({
      query: ({ organizationId, before }) => ({
        url: `${organizationPath(organizationId)}/history/sign-in-security${queryString({ limit: '20', before: before === undefined ? undefined : String(before) })}`,
      }),
      providesTags: ['TwoStep'],
    }),
  }),
});

export const {
  useGetTimelineQuery,
  useGetHistoryFiltersQuery,
  useGetChangesQuery,
  useGetCorrelationQuery,
  useGetUsageSeriesQuery,
  useGetSignInSecurityQuery,
  useGetHistoryProofQuery,
} = historyApi;
