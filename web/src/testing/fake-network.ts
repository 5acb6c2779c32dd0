import { waitFor } from '@testing-library/react';
import { createHttpClient, type HttpEnvironment } from '../lib/http-client';

export type RecordedRequest = {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** The JSON body, parsed back. */
  body: unknown;
  init: RequestInit;
  /** Answers with this status; a body that is not a string is sent as JSON. */
  respond: (status: number, body?: unknown) => void;
  failNetwork: () => void;
};

/** Answers a request at once (a stand-in server), or leaves it pending for the test to answer (undefined). */
export type FakeServer = (
  request: Pick<RecordedRequest, 'url' | 'method' | 'headers' | 'body'>,
) => { status: number; body?: unknown } | undefined;

/**
 * A stand-in for the browser's fetch that records every request and leaves it pending until the
 * test answers it, so every in-between state can be seen; with `server`, requests it answers are
 * answered at once. `http` is the real client on top of it.
 */
export function createFakeNetwork({
  origin = 'http://localhost',
  cookies = '',
  server,
}: { origin?: string; cookies?: string; server?: FakeServer } = {}) {
  const requests: RecordedRequest[] = [];
  const taken = new Set<RecordedRequest>();
  const environment: HttpEnvironment = {
    origin,
    cookies: () => cookies,
    fetch: (url, init) =>
      new Promise((resolve, reject) => {
        const signal = init.signal ?? undefined;
        const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
        if (signal?.aborted) return abort();
        signal?.addEventListener('abort', abort);
        const request: RecordedRequest = {
          url,
          method: init.method ?? 'GET',
          headers: { ...(init.headers as Record<string, string>) },
          body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
          init,
          respond: (status, body) =>
            resolve({
              status,
              text: async () => (body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)),
            }),
          failNetwork: () => reject(new TypeError('Failed to fetch')),
        };
        requests.push(request);
        const answer = server?.(request);
        if (answer !== undefined) request.respond(answer.status, answer.body);
      }),
  };
  return {
    requests,
    environment,
    http: createHttpClient(environment),
    /** The oldest request with this method not taken before, once the page has sent it (for the test to answer). */
    take(method: string): Promise<RecordedRequest> {
      return waitFor(() => {
        const request = requests.find((candidate) => candidate.method === method && !taken.has(candidate));
        if (request === undefined) throw new Error(`no ${method} request yet`);
        taken.add(request);
        return request;
      });
    },
    /** The only request so far; fails the test if there is not exactly one. */
    onlyRequest(): RecordedRequest {
      if (requests.length !== 1) throw new Error(`expected exactly one request, got ${requests.length}`);
      return requests[0]!;
    },
  };
}

export type FakeNetwork = ReturnType<typeof createFakeNetwork>;
