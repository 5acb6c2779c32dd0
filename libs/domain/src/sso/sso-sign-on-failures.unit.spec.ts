import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import {
  ssoSignOnFailuresDecider,
  type SsoFailureReason,
  type SsoSignOnFailed,
  type SsoSignOnFailureEvent,
} from './sso-sign-on-failures.js';

const spec = deciderSpec(ssoSignOnFailuresDecider);

const failure = (at: string, reason: SsoFailureReason = 'token-refused'): SsoSignOnFailed['data'] => ({
  reason,
  detail: 'id_token signature did not verify',
  at,
});
const failed = (at: string, reason?: SsoFailureReason): SsoSignOnFailureEvent => ({
  type: 'SsoSignOnFailed',
  data: failure(at, reason),
});
const record = (at: string, reason?: SsoFailureReason) =>
  ({ type: 'RecordSsoSignOnFailure', data: failure(at, reason) }) as const;

/** `count` failures stored in full, one a minute from `from` (an ISO time on the minute). */
const failuresFrom = (from: string, count: number): SsoSignOnFailureEvent[] =>
  Array.from({ length: count }, (_, index) => failed(new Date(Date.parse(from) + index * 60_000).toISOString()));

describe("an organization's SSO sign-on failures stream", () => {
  it('is named after the organization', () => {
    expect(ssoSignOnFailuresDecider.streamOf('org-1')).toBe('sso-sign-on-org-1');
  });
});

describe('recording an SSO sign-on failure', () => {
  it('keeps the first failure of an organization in full, with who it was about', () => {
    const data = {
      reason: 'foreign-domain',
      detail: "evil.example is not one of the organization's SSO domains",
      email: 'eve@evil.example',
      subject: 'sub-42',
      at: '2030-01-01T10:00:00.000Z',
    } as const;
    spec
      .given([])
      .when({ type: 'RecordSsoSignOnFailure', data })
      .then([{ type: 'SsoSignOnFailed', data }]);
  });

  it('keeps the 20th failure of an hour in full', () => {
    spec
      .given(failuresFrom('2030-01-01T10:00:00.000Z', 19))
      .when(record('2030-01-01T10:30:00.000Z'))
      .then([failed('2030-01-01T10:30:00.000Z')]);
  });

  it('keeps the first 20 failures of an hour in full and counts the 21st: nothing recorded for it here', () => {
    spec.given(failuresFrom('2030-01-01T10:00:00.000Z', 20)).when(record('2030-01-01T10:30:00.000Z', 'state')).then([]);
  });

  it('counts failures to the end of the hour, to its last millisecond', () => {
    spec.given(failuresFrom('2030-01-01T10:00:00.000Z', 20)).when(record('2030-01-01T10:59:59.999Z')).then([]);
  });

  it('starts a new clock hour afresh', () => {
    spec
      .given(failuresFrom('2030-01-01T10:00:00.000Z', 20))
      .when(record('2030-01-01T11:00:00.000Z'))
      .then([failed('2030-01-01T11:00:00.000Z')]);
  });

  it('counts by clock hour, not by the last 60 minutes', () => {
    spec
      .given(failuresFrom('2030-01-01T10:40:00.000Z', 20))
      .when(record('2030-01-01T11:00:01.000Z'))
      .then([failed('2030-01-01T11:00:01.000Z')]);
  });

  it('does not carry an hour’s failures into the next: 19 then 1 leaves the second hour room', () => {
    spec
      .given([...failuresFrom('2030-01-01T10:30:00.000Z', 19), failed('2030-01-01T11:00:00.000Z')])
      .when(record('2030-01-01T11:01:00.000Z'))
      .then([failed('2030-01-01T11:01:00.000Z')]);
  });

  it('fills a new hour as it filled the last: its 21st failure is counted', () => {
    spec
      .given([...failuresFrom('2030-01-01T10:00:00.000Z', 20), ...failuresFrom('2030-01-01T11:00:00.000Z', 20)])
      .when(record('2030-01-01T11:45:00.000Z'))
      .then([]);
  });

  it('leaves room in an hour for as many in full whatever counts were recorded', () => {
    const counted: SsoSignOnFailureEvent = {
      type: 'SsoSignOnFailuresCounted',
      data: { from: '2030-01-01T09:00:00.000Z', to: '2030-01-01T10:00:00.000Z', total: 500, byReason: { state: 500 } },
    };
    spec
      .given([...failuresFrom('2030-01-01T10:00:00.000Z', 19), counted])
      .when(record('2030-01-01T10:30:00.000Z'))
      .then([failed('2030-01-01T10:30:00.000Z')]);
  });

  // A failure stamped just before the hour can be decided after one stamped just after it (concurrent requests, or
  // nodes whose clocks differ).
  it('does not reopen a full hour to 20 more in full after a failure of the hour before it', () => {
    spec
      .given([...failuresFrom('2030-01-01T10:00:00.000Z', 20), failed('2030-01-01T09:59:59.900Z')])
      .when(record('2030-01-01T10:30:00.000Z'))
      .then([]);
  });
});

describe("recording a node's count of an hour's failures beyond those in full", () => {
  it('records the count as it is given, however full the hour', () => {
    const data = {
      from: '2030-01-01T10:00:00.000Z',
      to: '2030-01-01T11:00:00.000Z',
      total: 7,
      byReason: { state: 5, 'token-refused': 2 },
    };
    spec
      .given(failuresFrom('2030-01-01T10:00:00.000Z', 20))
      .when({ type: 'CountSsoSignOnFailures', data })
      .then([{ type: 'SsoSignOnFailuresCounted', data }]);
  });

  it('records a count on a stream with nothing in full', () => {
    const data = { from: '2030-01-01T10:00:00.000Z', to: '2030-01-01T11:00:00.000Z', total: 1, byReason: { error: 1 } };
    spec
      .given([])
      .when({ type: 'CountSsoSignOnFailures', data })
      .then([{ type: 'SsoSignOnFailuresCounted', data }]);
  });
});
