// An address's id is fixed before its user registers (a member added by e-mail), and registering takes it.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { context, openIdentityFixture, type IdentityFixture } from '../testing/identity-fixture.js';
import { userStream } from '#domain';
import type { ClaimKind } from '#domain';

let fixture: IdentityFixture;
beforeEach(async () => {
  fixture = await openIdentityFixture();
});
afterEach(async () => {
  await fixture.close();
});

const claimStream = (kind: ClaimKind, value: string) => fixture.identity.identifierNames.streamOf(kind, value);

const invite = (email: string, actor = 'api-key:k1') =>
  fixture.identity.directory.userIdForEmail(email, context({ actor, correlationId: 'add-member-1' }));

async function streamOf(streamId: string) {
  const result = await fixture.store.readStream(streamId);
  return result.found ? result.events : [];
}

describe('the id of a member added by e-mail', () => {
  it('is reserved once, auditably, and answered again for the address in any case', async () => {
    const userId = await invite('Grace@Example.com');
    expect(await invite('  grace@EXAMPLE.com ')).toBe(userId);
    const events = await streamOf(await claimStream('email', 'grace@example.com'));
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['IdentifierReserved', { kind: 'email', userId }],
    ]);
    expect(events[0]?.metadata).toMatchObject({
      actor: 'api-key:k1',
      correlationId: 'add-member-1',
      causationId: 'add-member-1',
    });
    // Reserved is not registered: nobody signs in or resets a password with it.
    expect(await fixture.identity.directory.findUserIdByEmail('grace@example.com')).toBeUndefined();
    expect(await fixture.identity.directory.profile(userId)).toBeUndefined();
  });

  it("is the registered user's id, without recording anything", async () => {
    const { userId } = await fixture.identity.registration.register(
      { email: 'ada@example.com' },
      context({ actor: 'cli' }),
    );
    expect(await invite('ADA@example.com')).toBe(userId);
    expect((await streamOf(await claimStream('email', 'ada@example.com'))).map((event) => event.type)).toEqual([
      'IdentifierClaimed',
    ]);
  });

  it('is one id for concurrent adds of the same new address, on two API nodes', async () => {
    const second = fixture.secondNode();
    const ids = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        (index % 2 === 0 ? fixture.identity : second).directory.userIdForEmail(
          index % 3 === 0 ? 'New@Example.com' : 'new@example.com',
          context(),
        ),
      ),
    );
    expect(new Set(ids).size).toBe(1);
    expect(await streamOf(await claimStream('email', 'new@example.com'))).toHaveLength(1);
  });

  it('is a new, unreserved id for an address no one can register with', async () => {
    const first = await invite('root@localhost');
    expect(first).not.toBe(await invite('root@localhost'));
    expect((await fixture.store.readStream(await claimStream('email', 'root@localhost'))).found).toBe(false);
  });
});

describe('registering with a reserved address', () => {
  it('takes the reserved id and says so in the user stream and the claim stream', async () => {
    const reserved = await invite('grace@example.com');
    const { userId } = await fixture.identity.registration.register(
      { email: 'GRACE@example.com', username: 'grace', password: 'a long enough passphrase' },
      context({ actor: 'cli', correlationId: 'user-create-1' }),
    );
    expect(userId).toBe(reserved);
    const [registered] = await streamOf(userStream(userId));
    expect(registered?.data).toMatchObject({ userId, email: 'grace@example.com', username: 'grace', invited: true });
    const claims = await streamOf(await claimStream('email', 'grace@example.com'));
    expect(claims.map((event) => [event.type, event.data, event.metadata.actor])).toEqual([
      ['IdentifierReserved', { kind: 'email', userId }, 'api-key:k1'],
      ['IdentifierClaimed', { kind: 'email', userId }, 'cli'],
    ]);
    expect(await fixture.identity.directory.findUserIdByEmail('grace@example.com')).toBe(userId);
    await expect(
      fixture.identity.registration.register({ email: 'grace@example.com' }, context()),
    ).rejects.toMatchObject({ code: 'DUPLICATE' });
  });

  it('gives the address to exactly one of simultaneous registrations; the loser keeps no username', async () => {
    const reserved = await invite('grace@example.com');
    const outcomes = await Promise.allSettled(
      ['grace', 'hopper', 'gmh'].map((username) =>
        fixture.identity.registration.register({ email: 'grace@example.com', username }, context()),
      ),
    );
    const won = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.userId] : []));
    expect(won).toEqual([reserved]);
    expect(
      outcomes
        .filter((outcome) => outcome.status === 'rejected')
        .map((outcome) => (outcome as PromiseRejectedResult).reason),
    ).toEqual([expect.objectContaining({ code: 'DUPLICATE' }), expect.objectContaining({ code: 'DUPLICATE' })]);
    const profile = await fixture.identity.directory.profile(reserved);
    // Usernames the losers claimed on the way are not the user's, so they are free again.
    for (const username of ['grace', 'hopper', 'gmh'].filter((name) => name !== profile?.username)) {
      const other = await fixture.identity.registration.register(
        { email: `${username}@example.org`, username },
        context(),
      );
      expect(other.userId).not.toBe(reserved);
    }
  });

  it('takes the id left by a registration that stopped halfway', async () => {
    const leftOver = randomUUID();
    await fixture.store.append(
      await claimStream('email', 'stopped@example.com'),
      [
        {
          id: randomUUID(),
          type: 'IdentifierClaimed',
          data: { kind: 'email', userId: leftOver },
          metadata: { actor: 'cli', correlationId: 'c', causationId: 'c' },
        },
      ],
      'no_stream',
    );
    expect(await invite('stopped@example.com')).toBe(leftOver);
    expect((await fixture.identity.registration.register({ email: 'stopped@example.com' }, context())).userId).toBe(
      leftOver,
    );
  });
});

describe('registering an invited user without a password', () => {
  it('registers only an address a member was added by', async () => {
    expect(
      await fixture.identity.registration.registerInvited('stranger@example.com', context({ actor: 'google' })),
    ).toBe(false);
    expect((await fixture.store.readStream(await claimStream('email', 'stranger@example.com'))).found).toBe(false);

    const reserved = await invite('grace@example.com');
    expect(await fixture.identity.registration.registerInvited('Grace@example.com', context({ actor: 'google' }))).toBe(
      true,
    );
    const [registered] = await streamOf(userStream(reserved));
    expect(registered?.data).toMatchObject({ email: 'grace@example.com', invited: true });
    expect(registered?.metadata).toMatchObject({ actor: 'google' });
    expect((await streamOf(userStream(reserved))).map((event) => event.type)).toEqual(['UserRegistered']);
    // Already registered: still true, nothing more recorded.
    expect(await fixture.identity.registration.registerInvited('grace@example.com', context({ actor: 'google' }))).toBe(
      true,
    );
    expect(await streamOf(userStream(reserved))).toHaveLength(1);
  });
});
