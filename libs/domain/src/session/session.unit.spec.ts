import { describe, expect, it } from '@jest/globals';
import { isLive, type Session } from './session.js';

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
