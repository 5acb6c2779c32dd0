// The console's data layer: one RTK Query api; features add their endpoints with consoleApi.injectEndpoints.
// app/console-store.ts adds it to the store when the console loads (never on the sign-in page).
import { createApi } from '@reduxjs/toolkit/query/react';
import { httpBaseQuery } from './base-query';

export const consoleApi = createApi({
  reducerPath: 'consoleApi',
  baseQuery: httpBaseQuery,
  tagTypes: ['Session', 'Organization', 'Sessions', 'History', 'TwoStep'],
  // The console is the only tab of its kind: a change made elsewhere shows when the page is looked at again.
  refetchOnFocus: true,
  endpoints: () => ({}),
});
