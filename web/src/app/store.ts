import { combineSlices, configureStore, createDynamicMiddleware } from '@reduxjs/toolkit';
import { pageConfigSlice } from '../config/page-config-slice';
import { forgotSlice } from '../features/forgot/forgot-slice';
import { loginSlice } from '../features/login/login-slice';
import { resetSlice } from '../features/reset/reset-slice';
import { browserServices, type Services } from '../lib/services';

/** Brought along by the console's code (web/src/api augments this), so the sign-in page never downloads them. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(
  pageConfigSlice,
  loginSlice,
  forgotSlice,
  resetSlice,
).withLazyLoadedSlices<LazyLoadedSlices>();

export const dynamicMiddleware = createDynamicMiddleware();

export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloadedState?: Partial<RootState>, services: Services = browserServices()) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        thunk: { extraArgument: services },
        // A loaded test machine is slow, not wrong.
        immutableCheck: { warnAfter: 250 },
        serializableCheck: { warnAfter: 250 },
      }).concat(dynamicMiddleware.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
