import type { Services } from './services';

/** So that components leave the SPA through the services tests replace. */
export const leaveTo =
  (url: string) =>
  (_dispatch: unknown, _getState: unknown, services: Services): void =>
    services.navigate(url);
