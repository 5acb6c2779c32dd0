// The console's data layer joins the store when a chunk that needs it loads, so the sign-in page never downloads it.
import type { WithSlice } from '@reduxjs/toolkit';
import { consoleApi } from '../api/console-api';
import { writesSlice } from '../api/read-your-writes';
import { sessionEndedMiddleware, sessionEndedSlice } from '../api/session-ended';
import { dynamicMiddleware, rootReducer } from './store';

declare module './store' {
  export interface LazyLoadedSlices
    extends WithSlice<typeof consoleApi>, WithSlice<typeof writesSlice>, WithSlice<typeof sessionEndedSlice> {}
}

rootReducer.inject(consoleApi);
rootReducer.inject(writesSlice);
rootReducer.inject(sessionEndedSlice);
dynamicMiddleware.addMiddleware(
  consoleApi.middleware,
  sessionEndedMiddleware(() => consoleApi.util.resetApiState()),
);
