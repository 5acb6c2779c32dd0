import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import type { SessionEvent, SessionStarted } from './session-events.js';
import { isLive, sessionDecider, type Session } from './session.js';

const session: Session = {
  sessionId: 's1',
  userId: 'u1',
  method: 'password',
  startedAt: '2030-01-01T09:00:00.000Z',
  lastActiveAt: '2030-01-01T10:00:00.000Z',
  idleTimeoutSeconds: 1_800,
  absoluteExpiresAt: '2030-01-01T21:00:00.000Z',
  userAgent: null,
  awaiting: null,
  ended: null,
};

describe('a session', () => {
  it('is live until 30 idle minutes have passed', () => {
    expect(isLive(session, new Date('2030-01-01T10:29:59.999Z'))).toBe(true);
    expect(isLive(session, new Date('2030-01-01T10:30:00.000Z'))).toBe(false);
  });

  it('is over at its absolute expiry however active it is', () => {
    const active = { ...session, lastActiveAt: '2030-01-01T20:59:00.000Z' };
    expect(isLive(active, new Date('2030-01-01T20:59:59.000Z'))).toBe(true);
    expect(isLive(active, new Date('2030-01-01T21:00:00.000Z'))).toBe(false);
  });

  it('is over once ended', () => {
    expect(isLive({ ...session, ended: 'signed-out' }, new Date('2030-01-01T10:00:01.000Z'))).toBe(false);
  });
});

describe('a session stream', () => {
  const spec = deciderSpec(sessionDecider);
  const startedData: SessionStarted['data'] = {
    sessionId: 's1',
    userId: 'u1',
    method: 'password',
    at: '2030-01-01T09:00:00.000Z',
    idleTimeoutSeconds: 1_800,
    absoluteExpiresAt: '2030-01-01T21:00:00.000Z',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  };
  const started: SessionEvent = { type: 'SessionStarted', data: startedData };
  const refreshed = (at: string): SessionEvent => ({ type: 'SessionRefreshed', data: { at } });
  const signedOut: SessionEvent = {
    type: 'SessionEnded',
    data: { reason: 'signed-out', at: '2030-01-01T09:20:00.000Z' },
  };
  const refresh = (now: string) =>
    ({ type: 'RefreshSession', data: { now: new Date(now), refreshAfterMs: 300_000 } }) as const;

  it('is named after the session id', () => {
    expect(sessionDecider.streamOf('s1')).toBe('session-s1');
  });

  it('starts a session once', () => {
    spec
      .given([])
      .when({ type: 'StartSession', data: startedData })
      .then([{ type: 'SessionStarted', data: startedData }]);
  });

  it('starts a half-open session awaiting the second step as it is given', () => {
    const halfOpen: SessionStarted['data'] = { ...startedData, idleTimeoutSeconds: 300, awaiting: 'second-step' };
    spec
      .given([])
      .when({ type: 'StartSession', data: halfOpen })
      .then([{ type: 'SessionStarted', data: halfOpen }]);
  });

  it('records nothing when a session of that id was started already, even ended', () => {
    const again = { type: 'StartSession', data: { ...startedData, at: '2030-01-01T09:10:00.000Z' } } as const;
    spec.given([started]).when(again).then([]);
    spec.given([started, signedOut]).when(again).then([]);
  });

  it('ends a live session with the reason given', () => {
    spec
      .given([started, refreshed('2030-01-01T09:10:00.000Z')])
      .when({ type: 'EndSession', data: { reason: 'revoked', at: '2030-01-01T09:12:00.000Z' } })
      .then([{ type: 'SessionEnded', data: { reason: 'revoked', at: '2030-01-01T09:12:00.000Z' } }]);
  });

  it('ends a session once: of several sign-outs only the first is recorded', () => {
    spec
      .given([started, signedOut])
      .when({ type: 'EndSession', data: { reason: 'password-reset', at: '2030-01-01T09:25:00.000Z' } })
      .then([]);
  });

  it('records the end of a session that timed out but was never ended', () => {
    spec
      .given([started])
      .when({ type: 'EndSession', data: { reason: 'password-changed', at: '2030-01-01T12:00:00.000Z' } })
      .then([{ type: 'SessionEnded', data: { reason: 'password-changed', at: '2030-01-01T12:00:00.000Z' } }]);
  });

  it('ends nothing for a session that was never started', () => {
    spec
      .given([])
      .when({ type: 'EndSession', data: { reason: 'signed-out', at: '2030-01-01T09:00:00.000Z' } })
      .then([]);
  });

  it('writes activity once the refresh interval has passed since the last activity, and not a millisecond sooner', () => {
    spec.given([started]).when(refresh('2030-01-01T09:04:59.999Z')).then([]);
    spec
      .given([started])
      .when(refresh('2030-01-01T09:05:00.000Z'))
      .then([refreshed('2030-01-01T09:05:00.000Z')]);
  });

  it('measures the refresh interval from the last activity written, not from the start', () => {
    const given = [started, refreshed('2030-01-01T09:10:00.000Z')];
    spec.given(given).when(refresh('2030-01-01T09:14:59.999Z')).then([]);
    spec
      .given(given)
      .when(refresh('2030-01-01T09:15:00.000Z'))
      .then([refreshed('2030-01-01T09:15:00.000Z')]);
  });

  it('writes nothing for a session idle past its timeout, and refreshes it a millisecond before', () => {
    spec
      .given([started])
      .when(refresh('2030-01-01T09:29:59.999Z'))
      .then([refreshed('2030-01-01T09:29:59.999Z')]);
    spec.given([started]).when(refresh('2030-01-01T09:30:00.000Z')).then([]);
  });

  it('writes nothing for a session past its absolute expiry, however active it was', () => {
    const given = [started, refreshed('2030-01-01T20:50:00.000Z')];
    spec
      .given(given)
      .when(refresh('2030-01-01T20:59:59.999Z'))
      .then([refreshed('2030-01-01T20:59:59.999Z')]);
    spec.given(given).when(refresh('2030-01-01T21:00:00.000Z')).then([]);
  });

  it('writes nothing for an ended session, or one never started', () => {
    spec.given([started, signedOut]).when(refresh('2030-01-01T09:25:00.000Z')).then([]);
    spec.given([]).when(refresh('2030-01-01T09:25:00.000Z')).then([]);
  });
});
