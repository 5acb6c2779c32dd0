// Change password (the console's Account page): the current password, a new one under the reset's
// policy; every other session ends; a wrong current password counts like a failed sign-in.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { context, openIdentityFixture, type IdentityFixture } from '../testing/identity-fixture.js';
import { userStream } from '#domain';

const oldPassword = 'correct horse battery staple';
const newPassword = 'a brand new passphrase';
let fixture: IdentityFixture;
let userId: string;

beforeEach(async () => {
  fixture = await openIdentityFixture();
  ({ userId } = await fixture.identity.registration.register(
    { email: 'ada@example.com', password: oldPassword },
    context({ actor: 'cli' }),
  ));
});
afterEach(async () => {
  await fixture.close();
});

const signIn = (password: string) =>
  fixture.identity.passwordSignIn.signIn({ username: 'ada@example.com', password }, context());
const change = (sessionId: string, currentPassword: string, password = newPassword) =>
  fixture.identity.passwordChange.change(
    userId,
    sessionId,
    { currentPassword, newPassword: password },
    context({ actor: `user:${userId}` }),
  );

describe('changing the password', () => {
  it('sets the new password and ends every other session, keeping this one', async () => {
    const here = await signIn(oldPassword);
    const elsewhere = await signIn(oldPassword);
    const third = await signIn(oldPassword);

    expect(await change(here.session.sessionId, oldPassword)).toEqual({ endedSessions: 2 });

    expect(await fixture.identity.sessions.resolve(here.cookieValue)).toBeDefined();
    expect(await fixture.identity.sessions.resolve(elsewhere.cookieValue)).toBeUndefined();
    expect(await fixture.identity.sessions.resolve(third.cookieValue)).toBeUndefined();
    await expect(signIn(oldPassword)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await expect(signIn(newPassword)).resolves.toBeDefined();
    const read = await fixture.store.readStream(userStream(userId));
    const changed = read.found ? read.events.find((event) => event.type === 'PasswordChanged') : undefined;
    expect(changed?.data).toEqual({
      endedSessionIds: [elsewhere.session.sessionId, third.session.sessionId],
      at: expect.any(String),
    });
  });

  it('refuses a wrong current password (WRONG_PASSWORD), changing nothing', async () => {
    const here = await signIn(oldPassword);
    await expect(change(here.session.sessionId, 'not my password')).rejects.toMatchObject({
      code: 'WRONG_PASSWORD',
      details: { field: 'currentPassword' },
    });
    await expect(signIn(oldPassword)).resolves.toBeDefined();
  });

  it('counts wrong current passwords with failed sign-ins: the account locks after 10 (RATE_LIMITED)', async () => {
    const here = await signIn(oldPassword);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await expect(change(here.session.sessionId, `guess ${attempt}`)).rejects.toMatchObject({
        code: 'WRONG_PASSWORD',
      });
    }
    await expect(change(here.session.sessionId, oldPassword)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(signIn(oldPassword)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('refuses a new password the reset policy refuses, with its sentence', async () => {
    const here = await signIn(oldPassword);
    await expect(change(here.session.sessionId, oldPassword, 'short')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The password must be at least 8 characters long.',
      details: { field: 'newPassword' },
    });
    await expect(change(here.session.sessionId, oldPassword, 'ada@example.com')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('does not let a session alone give a password to an account that has none (Google only)', async () => {
    const { userId: googleOnly } = await fixture.identity.registration.register(
      { email: 'lin@example.com' },
      context({ actor: 'cli' }),
    );
    const opened = await fixture.identity.sessions.open(googleOnly, 'google', context());
    await expect(
      fixture.identity.passwordChange.change(
        googleOnly,
        opened.session.sessionId,
        { currentPassword: '', newPassword },
        context(),
      ),
    ).rejects.toMatchObject({ code: 'WRONG_PASSWORD' });
  });
});
