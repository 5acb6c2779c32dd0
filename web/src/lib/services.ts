import { createHttpClient, type HttpClient } from './http-client';

/** The thunk extra argument, so tests can replace them. */
export type Services = {
  http: HttpClient;
  /** A full-page navigation: the server takes over (session cookie, Google consent page). */
  navigate: (url: string) => void;
};

export const browserServices = (): Services => ({
  http: createHttpClient(),
  navigate: (url) => window.location.assign(url),
});
