import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import argon2 from 'argon2';
import { randomUUID } from 'node:crypto';
import { context, openIdentityFixture, type IdentityFixture } from '../testing/identity-fixture.js';
import { userStream } from '../user/events.js';

const password = 'correct horse battery staple';
let fixture: IdentityFixture;
let userId: string;

beforeEach(async () => {
  fixture = await openIdentityFixture();
  ({ userId } = await fixture.identity.registration.register({ email: 'ada@example.com', username: 'ada', password }, context({ actor: 'cli' })));
});
afterEach(async () => {
  await fixture.close();
});

const signIn = (username: string, secret: string, clientIp = '203.0.113.7') =>
  fixture.identity.passwordSignIn.signIn({ username, password: secret }, context({ clientIp }));

async function eventTypes(): Promise<string[]> {
  const stream = await fixture.store.readStream(userStream(userId));
  return stream.found ? stream.events.map((event) => event.type) : [];
}

describe('signing in with a password', () => {
  it('accepts the e-mail address in any case, or the username, and opens a new session each time', async () => {
    const first = await signIn('ADA@Example.com', password);
    const second = await signIn('ada', password);
    expect(first.session).toMatchObject({ userId, method: 'password', ended: null });
    expect(second.session.sessionId).not.toBe(first.session.sessionId);
    expect(await eventTypes()).toEqual(['UserRegistered', 'PasswordSet', 'SignedIn', 'SignedIn']);
  });

  it('refuses a wrong password, an unknown user and a user without a password with the same error', async () => {
    const { userId: googleOnly } = await fixture.identity.registration.register({ email: 'grace@example.com' }, context());
    const failures = await Promise.allSettled([
      signIn('ada', 'wrong password, wrong'),
      signIn('nobody@example.com', password),
      signIn('grace@example.com', password),
      signIn('', ''),
    ]);
    for (const failure of failures) {
      expect(failure).toEqual({ status: 'rejected', reason: expect.objectContaining({ code: 'INVALID_CREDENTIALS', message: 'Incorrect username or password.' }) });
    }
    expect(await eventTypes()).toContain('SignInFailed');
    const grace = await fixture.store.readStream(userStream(googleOnly));
    expect(grace.found && grace.events.at(-1)?.data).toMatchObject({ reason: 'no-password' });
  });

  it('slows repeated failures more and more, then refuses even the right password for 15 minutes', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await expect(signIn('ada', `wrong ${attempt}`)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    }
    expect(fixture.clock.sleeps).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    await expect(signIn('ada', password)).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 900 });
    // The lock is per account: another address is refused too, and refused attempts are not recorded.
    await expect(signIn('ada@example.com', password, '198.51.100.1')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect((await eventTypes()).filter((type) => type === 'SignInFailed')).toHaveLength(10);

    fixture.clock.advance(15 * 60_000);
    await expect(signIn('ada', password)).resolves.toMatchObject({ session: { userId } });
  });

  it('locks the account for every API node, since the count lives in the user stream', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) await signIn('ada', 'wrong').catch(() => undefined);
    const otherNode = fixture.secondNode();
    await expect(otherNode.passwordSignIn.signIn({ username: 'ada', password }, context())).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('throttles a name that matches no account exactly like a real one', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await expect(signIn('nobody', 'wrong')).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    }
    expect(fixture.clock.sleeps).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    await expect(signIn('nobody', 'wrong')).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 900 });
  });

  it('upgrades a hash made with weaker parameters at the next successful sign-in', async () => {
    const weak = await argon2.hash(password, { type: argon2.argon2id, memoryCost: 4_096, timeCost: 1, parallelism: 1 });
    await fixture.identity.users.handle(userId, { type: 'SetPassword', data: { passwordHash: weak } }, context({ actor: 'system' }));
    await signIn('ada', password);
    const { state } = await fixture.identity.users.load(userId);
    expect(state.status === 'registered' && state.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    await expect(signIn('ada', password)).resolves.toMatchObject({ session: { userId } });
  });

  it('records the address and user agent of each attempt for auditors', async () => {
    await signIn('ada', password, '192.0.2.44');
    const stream = await fixture.store.readStream(userStream(userId));
    expect(stream.found && stream.events.at(-1)?.metadata).toMatchObject({ actor: `user:${userId}`, clientIp: '192.0.2.44', userAgent: 'jest' });
  });

  it('answers an unknown id the same way', async () => {
    await expect(signIn(randomUUID(), password)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });
});
