import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { pageConfigSlice } from '../config/page-config';
import { forgotSlice } from '../features/forgot/forgot-slice';
import { loginSlice } from '../features/login/login-slice';
import { resetSlice } from '../features/reset/reset-slice';
import { browserServices, type Services } from '../lib/services';

const rootReducer = combineSlices(pageConfigSlice, loginSlice, forgotSlice, resetSlice);

export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloadedState?: Partial<RootState>, services: Services = browserServices()) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware({ thunk: { extraArgument: services } }),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
