// A SAML sign-on's state lives in the store, not in a cookie: the identity provider POSTs its answer cross-site, where
// no SameSite cookie is sent, and it may reach any node. Two streams, each spent once through optimistic concurrency:
// the request (answered once, by this organization, within its lifetime) and the assertion (accepted once, ever).
import type { Decider } from '../decider.js';
import { DomainError } from '../errors.js';

export const SAML_REQUEST_LIFETIME_MS = 10 * 60_000;

/** requestId: the AuthnRequest's ID, random from this server. */
export const samlRequestStream = (requestId: string): string => `saml-request-${requestId}`;
/** assertionKey: a digest of the organization and the assertion's ID (an identity provider's ID may hold anything). */
export const samlAssertionStream = (assertionKey: string): string => `saml-assertion-${assertionKey}`;

/**
 * redirect: where the browser goes after; linkUserId: a signed-in user linking their account; browserBinding: a digest
 * of the value the starting browser holds in a cookie (over https), which the answer must be posted with.
 */
export type SamlRequestStarted = {
  type: 'SamlRequestStarted';
  data: { organizationId: string; redirect: string; linkUserId?: string; browserBinding?: string; at: string };
};
export type SamlRequestAnswered = { type: 'SamlRequestAnswered'; data: { at: string } };
type SamlRequestEvent = SamlRequestStarted | SamlRequestAnswered;

/** Answered, it keeps what it was started with: the answer's caller reads where the browser goes next from it. */
export type SamlRequestState =
  | { status: 'none' }
  | {
      status: 'started' | 'answered';
      organizationId: string;
      redirect: string;
      linkUserId?: string;
      browserBinding?: string;
      startedAt: string;
    };

type StartSamlRequest = { type: 'StartSamlRequest'; data: SamlRequestStarted['data'] };
type AnswerSamlRequest = {
  type: 'AnswerSamlRequest';
  data: { organizationId: string; browserBinding?: string; at: string };
};

const refused = (detail: string): DomainError =>
  new DomainError('SAML_RESPONSE_REFUSED', detail, { reason: 'in-response-to' });

function decideRequest(command: StartSamlRequest | AnswerSamlRequest, state: SamlRequestState): SamlRequestEvent[] {
  if (command.type === 'StartSamlRequest') {
    if (state.status !== 'none')
      throw new DomainError('DUPLICATE', 'This request id is taken.', { entity: 'saml-request' });
    return [{ type: 'SamlRequestStarted', data: command.data }];
  }
  if (state.status === 'none') throw refused('InResponseTo names no request of this server.');
  if (state.status === 'answered') throw refused('The request was answered already.');
  if (state.organizationId !== command.data.organizationId)
    throw refused("InResponseTo names another organization's request.");
  if (Date.parse(command.data.at) - Date.parse(state.startedAt) > SAML_REQUEST_LIFETIME_MS)
    throw refused('The request is older than its lifetime.');
  // Another browser posting this request's answer: a response carried into someone else's browser (login CSRF).
  if (state.browserBinding !== undefined && command.data.browserBinding !== state.browserBinding) {
    throw refused('The response was posted by another browser than the one that started the sign-on.');
  }
  return [{ type: 'SamlRequestAnswered', data: { at: command.data.at } }];
}

export const samlRequestDecider: Decider<SamlRequestState, StartSamlRequest | AnswerSamlRequest, SamlRequestEvent> = {
  streamOf: samlRequestStream,
  initialState: { status: 'none' },
  evolve: (state, event) => {
    if (event.type === 'SamlRequestStarted')
      return { status: 'started', ...withoutAt(event.data), startedAt: event.data.at };
    return state.status === 'none' ? state : { ...state, status: 'answered' };
  },
  decide: decideRequest,
};

const withoutAt = ({ organizationId, redirect, linkUserId, browserBinding }: SamlRequestStarted['data']) => ({
  organizationId,
  redirect,
  ...(linkUserId === undefined ? {} : { linkUserId }),
  ...(browserBinding === undefined ? {} : { browserBinding }),
});

/** No personal data: the organization and when the assertion stops being valid, for a later clean-up. */
export type SamlAssertionAccepted = {
  type: 'SamlAssertionAccepted';
  data: { organizationId: string; notOnOrAfter: string | null; at: string };
};
type AcceptSamlAssertion = { type: 'AcceptSamlAssertion'; data: SamlAssertionAccepted['data'] };

export const samlAssertionDecider: Decider<boolean, AcceptSamlAssertion, SamlAssertionAccepted> = {
  streamOf: samlAssertionStream,
  initialState: false,
  evolve: () => true,
  decide: (command, accepted) => {
    if (accepted)
      throw new DomainError('SAML_RESPONSE_REFUSED', 'This assertion was accepted before: a replay.', {
        reason: 'replay',
      });
    return [{ type: 'SamlAssertionAccepted', data: command.data }];
  },
};
