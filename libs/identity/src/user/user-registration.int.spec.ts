import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { context, openIdentityFixture, type IdentityFixture } from '../testing/identity-fixture.js';
import { userStream } from '#domain';

let fixture: IdentityFixture;
beforeEach(async () => {
  fixture = await openIdentityFixture();
});
afterEach(async () => {
  await fixture.close();
});

describe('registering a user', () => {
  it('writes the user to its own stream with an argon2id hash (m=19 MiB, t=2, p=1), never the password', async () => {
    const { userId, email } = await fixture.identity.registration.register(
      { email: '  Ada@Example.COM ', username: 'Ada', password: 'correct horse battery staple' },
      context({ actor: 'cli' }),
    );
    expect(email).toBe('ada@example.com');
    const stream = await fixture.store.readStream(userStream(userId));
    if (!stream.found) throw new Error('no user stream');
    expect(stream.events.map((event) => event.type)).toEqual(['UserRegistered', 'PasswordSet']);
    expect(stream.events[0]?.data).toMatchObject({ userId, email: 'ada@example.com', username: 'ada' });
    expect(stream.events[0]?.metadata).toMatchObject({ actor: 'cli', correlationId: 'c0rrelation' });
    const { passwordHash } = stream.events[1]?.data as { passwordHash: string };
    expect(passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(JSON.stringify(stream.events.map((event) => [event.data, event.metadata]))).not.toContain('correct horse');
  });

  it('finds the user by e-mail whatever its case', async () => {
    const { userId } = await fixture.identity.registration.register({ email: 'ada@example.com' }, context());
    expect(await fixture.identity.directory.findUserIdByEmail('ADA@example.com')).toBe(userId);
    expect(await fixture.identity.directory.findUserIdByEmail('bob@example.com')).toBeUndefined();
    expect(await fixture.identity.directory.profile(userId)).toEqual({
      id: userId,
      email: 'ada@example.com',
      username: null,
      googleLinked: false,
    });
  });

  it('refuses an e-mail address or username that is taken, in any case', async () => {
    await fixture.identity.registration.register({ email: 'ada@example.com', username: 'ada' }, context());
    await expect(fixture.identity.registration.register({ email: 'ADA@example.com' }, context())).rejects.toMatchObject(
      { code: 'DUPLICATE' },
    );
    await expect(
      fixture.identity.registration.register({ email: 'other@example.com', username: 'ADA' }, context()),
    ).rejects.toMatchObject({ code: 'DUPLICATE' });
  });

  it('gives an address to exactly one of two simultaneous registrations', async () => {
    const outcomes = await Promise.allSettled(
      [1, 2, 3].map(() => fixture.identity.registration.register({ email: 'same@example.com' }, context())),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(
      outcomes
        .filter((outcome) => outcome.status === 'rejected')
        .map((outcome) => (outcome as PromiseRejectedResult).reason),
    ).toEqual([expect.objectContaining({ code: 'DUPLICATE' }), expect.objectContaining({ code: 'DUPLICATE' })]);
  });

  it('refuses an invalid address, username or password with the reason', async () => {
    await expect(fixture.identity.registration.register({ email: 'not-an-address' }, context())).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'email' },
    });
    await expect(
      fixture.identity.registration.register({ email: 'a@example.com', username: 'no spaces' }, context()),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'username' } });
    await expect(
      fixture.identity.registration.register({ email: 'a@example.com', password: 'password1' }, context()),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'This password is one of the most common (breached) passwords; choose another.',
    });
  });
});
