// Callers' addresses and user agents expire with their month (docs/privacy.md): on the injectable clock, a month's
// key is deleted PERSONAL_DATA_RETENTION_DAYS after the month ends; the events stay, those values read as removed.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '#identity';
import { expiresAt, AppClock, PersonalDataRetention } from '#api';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';

const password = 'correct horse battery staple';
let app: AuthApp;
let clock: ManualClock;

beforeAll(async () => {
  app = await startAuthApp({ PERSONAL_DATA_RETENTION_DAYS: '30' });
  clock = new ManualClock(new Date('2030-01-20T10:00:00.000Z'));
  app.app.get(AppClock).pin(clock);
}, 60_000);

afterAll(async () => {
  await app.close();
});

const setTo = (instant: string): void => clock.advance(Date.parse(instant) - clock.now().getTime());

async function signInEvents(userId: string) {
  const stream = await app.store.readStream(`user-${userId}`);
  return stream.found ? stream.events.filter((event) => event.type === 'SignedIn') : [];
}

describe('the retention of callers’ addresses', () => {
  it('ends a month’s key 30 days after the month ends, never before', () => {
    expect(new Date(expiresAt('period:2030-01', 30) ?? 0).toISOString()).toBe('2030-03-03T00:00:00.000Z');
    expect(new Date(expiresAt('period:2030-12', 30) ?? 0).toISOString()).toBe('2031-01-31T00:00:00.000Z');
  });

  it('keeps the sign-ins and their times, and reads their address and user agent as removed once the month has expired', async () => {
    const userId = await app.createUser({ email: 'kept@retention.example', password });
    await app.signedIn('kept@retention.example', password);
    setTo('2030-02-10T10:00:00.000Z');
    await app.signedIn('kept@retention.example', password);
    const before = await signInEvents(userId);
    expect(before.map((event) => event.metadata.clientIp)).toEqual(['127.0.0.1', '127.0.0.1']);

    setTo('2030-03-02T23:59:59.000Z');
    expect(await app.app.get(PersonalDataRetention).expire()).toEqual([]);
    setTo('2030-03-03T00:00:00.000Z');
    expect(await app.app.get(PersonalDataRetention).expire()).toEqual(['period:2030-01']);

    const after = await signInEvents(userId);
    expect(after.map((event) => [event.metadata.clientIp, typeof event.metadata.userAgent])).toEqual([
      ['removed', 'string'],
      ['127.0.0.1', 'string'],
    ]);
    expect(after[0]?.metadata.userAgent).toBe('removed');
    expect(after.map((event) => event.recordedAt)).toEqual(before.map((event) => event.recordedAt));
  });
});
