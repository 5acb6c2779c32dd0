// A person who could not join an organization by their address (the users limit) is told so by mail, at most once a
// day per organization: the sign-in screens keep the seed's words, so the reason reaches them by mail. One stream per
// organization and person, named by the organization's id and the person's key (a user id, or a keyed hash of the
// address for someone single sign-on would have created), so it holds no address it need not.
import type { Decider } from '../decider.js';

export const joinRefusalNoticeStreamPrefix = 'join-refusal-notice-';

/**
 * `userId` for a person with an account (the mail goes to their address as it is when sent; none once erased);
 * `email` only for someone with no account yet (a refused single sign-on), sealed under the month's key.
 */
export type JoinRefusalNoticeOwed = {
  type: 'JoinRefusalNoticeOwed';
  data: { organizationId: string; domain: string; on: string; userId?: string; email?: string };
};

export type OweJoinRefusalNotice = { type: 'OweJoinRefusalNotice'; data: JoinRefusalNoticeOwed['data'] };

/** The day (YYYY-MM-DD, UTC) of the last notice owed. */
export type JoinRefusalNoticeState = { lastOn: string | undefined };

/** `personKey`: the user id, or the keyed hash of the address; neither holds the address itself. */
export const joinRefusalNoticeId = (organizationId: string, personKey: string): string =>
  `${organizationId}-${personKey}`;

export const joinRefusalNoticeDecider: Decider<JoinRefusalNoticeState, OweJoinRefusalNotice, JoinRefusalNoticeOwed> = {
  streamOf: (id) => `${joinRefusalNoticeStreamPrefix}${id}`,
  initialState: { lastOn: undefined },
  evolve: (_state, event) => ({ lastOn: event.data.on }),
  decide: (command, state) =>
    state.lastOn === command.data.on ? [] : [{ type: 'JoinRefusalNoticeOwed', data: command.data }],
  // Only the last day matters: a person refused for years reads one event.
  stateInLastEvent: true,
};
