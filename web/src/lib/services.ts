import { createHttpClient, type HttpClient } from './http-client';

/** The thunk extra argument, so tests can replace them. */
export type Services = {
  http: HttpClient;
  /** A full-page navigation: the server takes over (session cookie, Google consent page). */
  navigate: (url: string) => void;
  /** Resolves after this long: the pause before a read is asked again (tests pass one that does not wait). */
  wait: (milliseconds: number) => Promise<void>;
};

export const browserServices = (): Services => ({
  http: createHttpClient(),
  navigate: (url) => window.location.assign(url),
  wait: (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
});
