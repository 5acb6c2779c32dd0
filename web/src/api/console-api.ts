// Features add their endpoints with injectEndpoints; it joins the store only when the console loads.
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
