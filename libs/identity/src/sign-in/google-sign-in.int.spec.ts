import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { context, openIdentityFixture, type IdentityFixture } from '../testing/identity-fixture.js';
import { userStream } from '#domain';

let fixture: IdentityFixture;
let userId: string;

beforeEach(async () => {
  fixture = await openIdentityFixture();
  ({ userId } = await fixture.identity.registration.register({ email: 'ada@example.com' }, context({ actor: 'cli' })));
});
afterEach(async () => {
  await fixture.close();
});

const find = (subject: string, email: string | undefined, emailVerified: boolean) =>
  fixture.identity.googleSignIn.findUser({ subject, email, emailVerified }, context({ actor: 'google' }));

describe('Google sign-in', () => {
  it('links by e-mail only when Google says the address is verified, then finds the user by subject', async () => {
    expect(await find('google-1', 'ada@example.com', false)).toBeUndefined();
    expect(await find('google-1', 'Ada@Example.com', true)).toBe(userId);
    expect(await find('google-1', 'changed@elsewhere.example', false)).toBe(userId);
    expect(await fixture.identity.directory.profile(userId)).toMatchObject({ googleLinked: true });
  });

  it('finds nobody for an account that is not a user', async () => {
    expect(await find('google-2', 'stranger@example.com', true)).toBeUndefined();
    expect(await find('google-2', undefined, true)).toBeUndefined();
  });

  it('registers a member added by a verified address at their first sign-in, under the id the membership has', async () => {
    const memberId = await fixture.identity.directory.userIdForEmail(
      'grace@example.com',
      context({ actor: 'api-key:k1' }),
    );
    expect(await find('google-grace', 'grace@example.com', false)).toBeUndefined();
    expect(await fixture.identity.directory.profile(memberId)).toBeUndefined();
    expect(await find('google-grace', 'Grace@Example.com', true)).toBe(memberId);
    expect(await fixture.identity.directory.profile(memberId)).toEqual({
      id: memberId,
      email: 'grace@example.com',
      username: null,
      googleLinked: true,
    });
    const stream = await fixture.store.readStream(userStream(memberId));
    expect(stream.found && stream.events.map((event) => [event.type, event.metadata.actor])).toEqual([
      ['UserRegistered', 'google'],
      ['GoogleAccountLinked', 'google'],
    ]);
    expect(await find('google-grace', undefined, false)).toBe(memberId);
  });

  it('does not let a second Google account take over a linked user by e-mail', async () => {
    await find('google-1', 'ada@example.com', true);
    expect(await find('google-3', 'ada@example.com', true)).toBeUndefined();
  });
});
