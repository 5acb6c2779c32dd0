// The console's data layer: one RTK Query api, loaded with the console (never by the sign-in page).
// Features add their endpoints with consoleApi.injectEndpoints; this module adds the api's reducer and
// middleware to the store the moment it is loaded.
import type { WithSlice } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query/react';
import { dynamicMiddleware, rootReducer } from '../app/store';
import { httpBaseQuery } from './base-query';
import { writesSlice } from './read-your-writes';
import { sessionEndedMiddleware, sessionEndedSlice } from './session-ended';

export const consoleApi = createApi({
  reducerPath: 'consoleApi',
  baseQuery: httpBaseQuery,
  tagTypes: ['Session', 'Organization', 'Sessions', 'History'],
  // The console is the only tab of its kind: a change made elsewhere shows when the page is looked at again.
  refetchOnFocus: true,
  endpoints: () => ({}),
});

declare module '../app/store' {
  export interface LazyLoadedSlices extends WithSlice<typeof consoleApi>, WithSlice<typeof writesSlice>, WithSlice<typeof sessionEndedSlice> {}
}

rootReducer.inject(consoleApi);
rootReducer.inject(writesSlice);
rootReducer.inject(sessionEndedSlice);
dynamicMiddleware.addMiddleware(consoleApi.middleware, sessionEndedMiddleware(() => consoleApi.util.resetApiState()));
