// Over the thunk extra argument's HTTP client, so tests put a fake network under it.
import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import type { HttpMethod } from '../lib/http-client';
import type { Services } from '../lib/services';
import type { Problem } from './contract';
import { asProblem } from './problem';

export type Call = {
  url: string;
  method?: HttpMethod;
  body?: unknown;
  readsOwnWrites?: boolean;
};

export const MIN_POSITION_HEADER = 'Chorus-Min-Position';

/** A read model that is still catching up answers 503 NOT_YET_CONSISTENT with Retry-After: 1. */
const CONSISTENCY_ATTEMPTS = 3;
const CONSISTENCY_RETRY_MS = 1_000;

export const httpBaseQuery: BaseQueryFn<Call, unknown, Problem> = async (
  { url, method = 'GET', body, readsOwnWrites = false },
  api,
) => {
  const { http, wait } = api.extra as Services;
  const state = api.getState() as { writes?: { position: string | null } };
  const position = readsOwnWrites ? (state.writes?.position ?? null) : null;
  // docs/api.md, Reading your writes: whichever node the read lands on answers once it has read that far.
  const headers = position === null ? undefined : { [MIN_POSITION_HEADER]: position };
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { data } = await http.request(method, url, body, {
        signal: api.signal,
        ...(headers === undefined ? {} : { headers }),
      });
      return { data };
    } catch (error) {
      const problem = asProblem(error);
      if (problem.code !== 'NOT_YET_CONSISTENT' || attempt >= CONSISTENCY_ATTEMPTS) return { error: problem };
      await wait(CONSISTENCY_RETRY_MS);
    }
  }
};
