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

function tokenFromMail(index = 0): string {
  const text = fixture.mail.sent[index]?.text ?? '';
  const match = /https:\/\/chorus\.example\/reset\/([A-Za-z0-9_-]+)/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no reset link in: ${text}`);
  return match[1];
}

const signIn = (password: string) =>
  fixture.identity.passwordSignIn.signIn({ username: 'ada@example.com', password }, context());

describe('password reset', () => {
  it('mails a link to a known address (in any case) and nothing to an unknown one', async () => {
    await fixture.identity.passwordReset.request('nobody@example.com', context());
    expect(fixture.mail.sent).toEqual([]);
    await fixture.identity.passwordReset.request('ADA@example.com', context());
    expect(fixture.mail.sent).toEqual([
      expect.objectContaining({
        to: 'ada@example.com',
        subject: 'Reset your Chorus password',
        text: expect.stringContaining('within 60 minutes'),
      }),
    ]);
    const stream = await fixture.store.readStream(userStream(userId));
    const requested = stream.found ? stream.events.find((event) => event.type === 'PasswordResetRequested') : undefined;
    expect(requested?.data).toEqual({
      tokenHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      expiresAt: '2030-01-01T10:00:00.000Z',
      at: '2030-01-01T09:00:00.000Z',
    });
    expect(JSON.stringify(requested?.data)).not.toContain(tokenFromMail());
  });

  it('sets the new password with the token, once', async () => {
    await fixture.identity.passwordReset.request('ada@example.com', context());
    const token = tokenFromMail();
    await fixture.identity.passwordReset.complete(token, newPassword, context());
    await expect(signIn(oldPassword)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await expect(signIn(newPassword)).resolves.toMatchObject({ session: { userId } });
    await expect(
      fixture.identity.passwordReset.complete(token, 'yet another passphrase', context()),
    ).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('refuses a token after an hour, and tokens that are not ours', async () => {
    await fixture.identity.passwordReset.request('ada@example.com', context());
    fixture.clock.advance(60 * 60_000);
    await expect(
      fixture.identity.passwordReset.complete(tokenFromMail(), newPassword, context()),
    ).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(fixture.identity.passwordReset.complete('not-a-token', newPassword, context())).rejects.toMatchObject({
      code: 'INVALID_TOKEN',
    });
  });

  it('tells whether a link would be taken without using it or recording anything, until it is used', async () => {
    await fixture.identity.passwordReset.request('ada@example.com', context());
    const token = tokenFromMail();
    const head = await fixture.store.headPosition();

    expect(await fixture.identity.passwordReset.isValid(token)).toBe(true);
    expect(await fixture.identity.passwordReset.isValid(token)).toBe(true);
    expect(await fixture.store.headPosition()).toBe(head);

    await fixture.identity.passwordReset.complete(token, newPassword, context());
    expect(await fixture.identity.passwordReset.isValid(token)).toBe(false);
  });

  it('answers false alike for an expired link, a link of another user, a made-up one and one that is not a token', async () => {
    await fixture.identity.passwordReset.request('ada@example.com', context());
    const token = tokenFromMail();
    // Same user id, other secret; other user id (unknown), same secret.
    const otherSecret = `${token.slice(0, 22)}${token.slice(22).split('').reverse().join('')}`;
    const otherUser = `${'A'.repeat(22)}${token.slice(22)}`;

    for (const guess of [otherSecret, otherUser, 'A'.repeat(64), 'not-a-token', '', token.slice(0, 63)]) {
      expect({ guess, valid: await fixture.identity.passwordReset.isValid(guess) }).toEqual({ guess, valid: false });
    }
    fixture.clock.advance(60 * 60_000);
    expect(await fixture.identity.passwordReset.isValid(token)).toBe(false);
  });

  it('refuses a weak password with the policy message and leaves the token usable', async () => {
    await fixture.identity.passwordReset.request('ada@example.com', context());
    await expect(fixture.identity.passwordReset.complete(tokenFromMail(), 'short', context())).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The password must be at least 8 characters long.',
    });
    await expect(fixture.identity.passwordReset.complete(tokenFromMail(), newPassword, context())).resolves.toEqual({
      userId,
    });
  });

  it('ends every other session of the user, keeping the one that made the reset', async () => {
    const first = await signIn(oldPassword);
    const second = await signIn(oldPassword);
    await fixture.identity.passwordReset.request('ada@example.com', context());
    await fixture.identity.passwordReset.complete(tokenFromMail(), newPassword, context(), second.session.sessionId);
    expect(await fixture.identity.sessions.resolve(first.cookieValue)).toBeUndefined();
    expect(await fixture.identity.sessions.resolve(second.cookieValue)).toBeDefined();
  });

  it('lets one of two simultaneous uses of a token through', async () => {
    await fixture.identity.passwordReset.request('ada@example.com', context());
    const outcomes = await Promise.allSettled([
      fixture.identity.passwordReset.complete(tokenFromMail(), newPassword, context()),
      fixture.identity.passwordReset.complete(tokenFromMail(), 'the other passphrase', context()),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('lifts a sign-in lock: a lock never keeps the owner out', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) await signIn('wrong guess').catch(() => undefined);
    await expect(signIn(oldPassword)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await fixture.identity.passwordReset.request('ada@example.com', context());
    await fixture.identity.passwordReset.complete(tokenFromMail(), newPassword, context());
    await expect(signIn(newPassword)).resolves.toMatchObject({ session: { userId } });
  });

  it('mails one address at most three times an hour', async () => {
    for (let request = 0; request < 5; request += 1)
      await fixture.identity.passwordReset.request('ada@example.com', context());
    expect(fixture.mail.sent).toHaveLength(3);
    fixture.clock.advance(60 * 60_000);
    await fixture.identity.passwordReset.request('ada@example.com', context());
    expect(fixture.mail.sent).toHaveLength(4);
  });

  it('refuses an eleventh request from one client address within 15 minutes, known address or not', () => {
    for (let request = 0; request < 10; request += 1) fixture.identity.passwordReset.admit('203.0.113.9');
    expect(() => fixture.identity.passwordReset.admit('203.0.113.9')).toThrow(
      expect.objectContaining({ code: 'RATE_LIMITED' }) as unknown as Error,
    );
    expect(() => fixture.identity.passwordReset.admit('198.51.100.2')).not.toThrow();
  });
});
