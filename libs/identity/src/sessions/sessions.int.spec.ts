import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { context, openIdentityFixture, type IdentityFixture } from '../testing/identity-fixture.js';
import { sessionStream } from '#domain';

const minute = 60_000;
let fixture: IdentityFixture;
let userId: string;

beforeEach(async () => {
  fixture = await openIdentityFixture();
  ({ userId } = await fixture.identity.registration.register({ email: 'ada@example.com' }, context({ actor: 'cli' })));
});
afterEach(async () => {
  await fixture.close();
});

const open = () => fixture.identity.sessions.open(userId, 'password', context({ actor: `user:${userId}` }));

describe('sessions', () => {
  it('resolve from the cookie while live; a forged or unknown cookie resolves to nothing', async () => {
    const { cookieValue, session } = await open();
    expect(await fixture.identity.sessions.resolve(cookieValue)).toMatchObject({
      sessionId: session.sessionId,
      userId,
    });
    expect(await fixture.identity.sessions.resolve(`${cookieValue}x`)).toBeUndefined();
    expect(
      await fixture.identity.sessions.resolve(fixture.identity.sessionCookies.issue().cookieValue),
    ).toBeUndefined();
    expect(await fixture.identity.sessions.resolve(undefined)).toBeUndefined();
  });

  it('end after 30 idle minutes, and activity slides that timeout', async () => {
    const { cookieValue } = await open();
    fixture.clock.advance(29 * minute);
    expect(await fixture.identity.sessions.resolve(cookieValue)).toBeDefined();
    fixture.clock.advance(29 * minute);
    expect(await fixture.identity.sessions.resolve(cookieValue)).toBeDefined();
    fixture.clock.advance(30 * minute);
    expect(await fixture.identity.sessions.resolve(cookieValue)).toBeUndefined();
  });

  it('end 12 hours after sign-in however active they are', async () => {
    const { cookieValue } = await open();
    for (let elapsed = 0; elapsed < 12 * 60; elapsed += 20) {
      expect(await fixture.identity.sessions.resolve(cookieValue)).toBeDefined();
      fixture.clock.advance(20 * minute);
    }
    expect(await fixture.identity.sessions.resolve(cookieValue)).toBeUndefined();
  });

  it('write activity at most every five minutes', async () => {
    const { cookieValue, session } = await open();
    for (let second = 0; second <= 10 * 60; second += 30) {
      await fixture.identity.sessions.resolve(cookieValue);
      fixture.clock.advance(30_000);
    }
    const stream = await fixture.store.readStream(sessionStream(session.sessionId));
    expect(stream.found && stream.events.map((event) => event.type)).toEqual([
      'SessionStarted',
      'SessionRefreshed',
      'SessionRefreshed',
    ]);
  });

  it('are shared by every API node, and a sign-out on one reaches the others within the cache time', async () => {
    const otherNode = fixture.secondNode();
    const { cookieValue, session } = await open();
    expect(await otherNode.sessions.resolve(cookieValue)).toMatchObject({ sessionId: session.sessionId });
    await fixture.identity.sessions.close(session, context({ actor: `user:${userId}` }));
    expect(await fixture.identity.sessions.resolve(cookieValue)).toBeUndefined();
    fixture.clock.advance(5_000);
    expect(await otherNode.sessions.resolve(cookieValue)).toBeUndefined();
  });

  it("list the user's live sessions and revoke one; nobody revokes another user's session", async () => {
    const first = await open();
    const second = await open();
    const { userId: otherUser } = await fixture.identity.registration.register({ email: 'bob@example.com' }, context());
    expect((await fixture.identity.sessions.listForUser(userId)).map((session) => session.sessionId).sort()).toEqual(
      [first.session.sessionId, second.session.sessionId].sort(),
    );
    expect(await fixture.identity.sessions.revoke(otherUser, first.session.sessionId, context())).toBe(false);
    expect(await fixture.identity.sessions.revoke(userId, first.session.sessionId, context())).toBe(true);
    expect((await fixture.identity.sessions.listForUser(userId)).map((session) => session.sessionId)).toEqual([
      second.session.sessionId,
    ]);
    expect(await fixture.identity.sessions.resolve(first.cookieValue)).toBeUndefined();
  });

  it('keep the browser they were started from, for the account page', async () => {
    const { cookieValue } = await fixture.identity.sessions.open(
      userId,
      'password',
      context({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0' }),
    );
    expect(await fixture.identity.sessions.resolve(cookieValue)).toMatchObject({
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0',
    });
    expect((await fixture.identity.sessions.listForUser(userId))[0]).toMatchObject({
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0',
    });
  });

  it('sign out everywhere else: every live session of the user but this one ends, on every node', async () => {
    const here = await open();
    const others = [await open(), await open()];
    const stranger = await fixture.identity.registration.register(
      { email: 'lin@example.com' },
      context({ actor: 'cli' }),
    );
    const strangers = await fixture.identity.sessions.open(stranger.userId, 'password', context());

    expect(
      await fixture.identity.sessions.revokeOthers(
        userId,
        here.session.sessionId,
        context({ actor: `user:${userId}` }),
      ),
    ).toBe(2);

    const otherNode = fixture.secondNode();
    for (const other of others) expect(await otherNode.sessions.resolve(other.cookieValue)).toBeUndefined();
    expect(await fixture.identity.sessions.resolve(here.cookieValue)).toBeDefined();
    expect(await fixture.identity.sessions.resolve(strangers.cookieValue)).toBeDefined();
    expect((await fixture.identity.sessions.listForUser(userId)).map((session) => session.sessionId)).toEqual([
      here.session.sessionId,
    ]);
  });
});
