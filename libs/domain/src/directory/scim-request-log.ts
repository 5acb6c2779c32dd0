// The directory's request log (docs/directory.md, The request log): what the identity provider asked, never who.
import type { Decider } from '../decider.js';

/** The directory's request log (docs/directory.md, The request log): a stream per organization, written in batches. */
export const scimRequestLogStream = (organizationId: string): string => `scim-requests-${organizationId}`;

/** No personal data: the path without its query, the status, the token. */
export type ScimRequestLogged = {
  type: 'ScimRequestLogged';
  data: { method: string; path: string; status: number; tokenId: string; at: string; correlationId: string };
};

/**
 * Appends the batch as it is; nothing is decided on what came before, so only the last event is read (its revision).
 */
export const scimRequestLogDecider: Decider<
  null,
  { type: 'LogScimRequests'; data: { entries: ScimRequestLogged['data'][] } },
  ScimRequestLogged
> = {
  streamOf: scimRequestLogStream,
  initialState: null,
  evolve: () => null,
  decide: (command) => command.data.entries.map((entry) => ({ type: 'ScimRequestLogged', data: entry })),
  stateInLastEvent: true,
};
