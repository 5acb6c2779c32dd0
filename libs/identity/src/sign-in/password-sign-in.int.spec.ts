import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import argon2 from 'argon2';
import { randomUUID } from 'node:crypto';
import { context, openIdentityFixture, type IdentityFixture } from '../testing/identity-fixture.js';
import { userStream } from '#domain';
import { signInAttemptsStream } from './sign-in-attempts.service.js';

const password = 'correct horse battery staple';
let fixture: IdentityFixture;
let userId: string;

beforeEach(async () => {
  fixture = await openIdentityFixture();
  ({ userId } = await fixture.identity.registration.register(
    { email: 'ada@example.com', username: 'ada', password },
    context({ actor: 'cli' }),
  ));
});
afterEach(async () => {
  await fixture.close();
});

const signIn = (username: string, secret: string, clientIp = '203.0.113.7') =>
  fixture.identity.passwordSignIn.signIn({ username, password: secret }, context({ clientIp }));

async function typesIn(streamId: string): Promise<string[]> {
  const stream = await fixture.store.readStream(streamId);
  return stream.found ? stream.events.map((event) => event.type) : [];
}
const eventTypes = () => typesIn(userStream(userId));
const accountAttempts = (id = userId) => typesIn(signInAttemptsStream({ kind: 'account', id }));

describe('signing in with a password', () => {
  it('accepts the e-mail address in any case, or the username, and opens a new session each time', async () => {
    const first = await signIn('ADA@Example.com', password);
    const second = await signIn('ada', password);
    expect(first.session).toMatchObject({ userId, method: 'password', ended: null });
    expect(second.session.sessionId).not.toBe(first.session.sessionId);
    expect(await eventTypes()).toEqual(['UserRegistered', 'PasswordSet', 'SignedIn', 'SignedIn']);
  });

  it('refuses a wrong password, an unknown user and a user without a password with the same error, each attempt counted for its account', async () => {
    const { userId: googleOnly } = await fixture.identity.registration.register(
      { email: 'grace@example.com' },
      context(),
    );
    const failures = await Promise.allSettled([
      signIn('ada', 'wrong password, wrong'),
      signIn('nobody@example.com', password),
      signIn('grace@example.com', password),
      signIn('', ''),
    ]);
    for (const failure of failures) {
      expect(failure).toEqual({
        status: 'rejected',
        reason: expect.objectContaining({ code: 'INVALID_CREDENTIALS', message: 'Incorrect username or password.' }),
      });
    }
    // Each failure says so on the key it was counted for: the account's history (and its webhooks) show it.
    expect(await accountAttempts()).toEqual(['SignInAttemptReserved', 'SignInAttemptFailed']);
    expect(await accountAttempts(googleOnly)).toEqual(['SignInAttemptReserved', 'SignInAttemptFailed']);
    expect(await eventTypes()).toEqual(['UserRegistered', 'PasswordSet']);
  });

  it('slows repeated failures more and more, then refuses even the right password for 15 minutes', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await expect(signIn('ada', `wrong ${attempt}`)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    }
    expect(fixture.clock.sleeps).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    await expect(signIn('ada', password)).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 900 });
    // The lock is per account: another address is refused too, and refused attempts are not recorded,
    // not even against their address.
    await expect(signIn('ada@example.com', password, '198.51.100.1')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(await accountAttempts()).toEqual(
      Array.from({ length: 10 }, () => ['SignInAttemptReserved', 'SignInAttemptFailed']).flat(),
    );
    expect(await typesIn(signInAttemptsStream(fixture.identity.signInAttempts.address('198.51.100.1')))).toEqual([]);

    fixture.clock.advance(15 * 60_000);
    await expect(signIn('ada', password)).resolves.toMatchObject({ session: { userId } });
  });

  it('checks at most 10 passwords of 50 attempts made at once for one account, from 50 addresses, on two API nodes', async () => {
    const nodes = [fixture.identity, fixture.secondNode()];
    const before = fixture.identity.hasher.verifications;

    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_unused, index) =>
        nodes[index % 2]?.passwordSignIn.signIn(
          { username: 'ada', password: `guess ${index}` },
          context({ clientIp: `198.51.100.${index}` }),
        ),
      ),
    );

    const checked = nodes.reduce((sum, node) => sum + node.hasher.verifications, 0) - before;
    const codes = outcomes.map((outcome) =>
      outcome.status === 'rejected' ? (outcome.reason as { code?: string }).code : 'signed in',
    );
    expect(checked).toBe(10);
    expect(codes.filter((code) => code === 'INVALID_CREDENTIALS')).toHaveLength(10);
    expect(codes.filter((code) => code === 'RATE_LIMITED')).toHaveLength(40);
    await expect(signIn('ada', password)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('withdraws from their address the attempts that the account refused in a race: only checked ones stay counted', async () => {
    const before = fixture.identity.hasher.verifications;

    await Promise.allSettled(
      Array.from({ length: 50 }, (_unused, index) => signIn('ada', `guess ${index}`, '198.51.100.77')),
    );

    const checked = fixture.identity.hasher.verifications - before;
    const address = await fixture.store.readStream(
      signInAttemptsStream(fixture.identity.signInAttempts.address('198.51.100.77')),
    );
    const last = address.found ? address.events.at(-1) : undefined;
    expect(checked).toBe(10);
    expect((last?.data as { streak?: { outstanding?: number } } | undefined)?.streak?.outstanding).toBe(checked);
    expect(
      address.found && address.events.filter((event) => event.type === 'SignInAttemptReserved').length,
    ).toBeGreaterThanOrEqual(checked);
  });

  it('clears the account at a success, so that its owner is not locked out by their own typos', async () => {
    for (let round = 0; round < 3; round += 1) {
      for (let attempt = 0; attempt < 9; attempt += 1)
        await expect(signIn('ada', `typo ${attempt}`)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
      await expect(signIn('ada', password)).resolves.toMatchObject({ session: { userId } });
    }
    expect((await accountAttempts()).filter((type) => type === 'SignInAttemptSucceeded')).toHaveLength(3);
  }, 60_000);

  it('locks for every API node, since the count lives in the event store', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) await signIn('ada', 'wrong').catch(() => undefined);
    const otherNode = fixture.secondNode();
    await expect(otherNode.passwordSignIn.signIn({ username: 'ada', password }, context())).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
  });

  it('throttles a name that matches no account exactly like a real one', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await expect(signIn('nobody', 'wrong')).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    }
    expect(fixture.clock.sleeps).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    await expect(signIn('nobody', 'wrong')).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 900 });
  });

  it('checks at most 100 passwords from one address, whatever names it tries, then refuses it even the right password', async () => {
    const before = fixture.identity.hasher.verifications;

    const outcomes = await Promise.allSettled(
      Array.from({ length: 120 }, (_unused, index) => signIn(`stranger-${index}`, 'a guess')),
    );

    expect(fixture.identity.hasher.verifications - before).toBe(100);
    expect(
      outcomes.filter(
        (outcome) => outcome.status === 'rejected' && (outcome.reason as { code?: string }).code === 'RATE_LIMITED',
      ),
    ).toHaveLength(20);
    await expect(signIn('ada', password)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(signIn('ada', password, '198.51.100.1')).resolves.toMatchObject({ session: { userId } });
  }, 120_000);

  it('stores an attempt only when a password check follows it: a locked account or address costs the store nothing', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) await signIn('ada', `wrong ${attempt}`).catch(() => undefined);
    const appends = fixture.storeWork().appends;

    const atLockedAccount = await Promise.allSettled(
      Array.from({ length: 50 }, (_unused, index) => signIn('ada', 'a guess', `198.51.100.${index}`)),
    );

    expect(
      atLockedAccount.every(
        (outcome) => outcome.status === 'rejected' && (outcome.reason as { code?: string }).code === 'RATE_LIMITED',
      ),
    ).toBe(true);
    expect(fixture.storeWork().appends).toBe(appends);
    const before = { appends: fixture.storeWork().appends, checks: fixture.identity.hasher.verifications };
    // One address tries ever new names: per check two reservations (address, name) and the name's failure, then
    // nothing once it is locked.
    for (let index = 0; index < 130; index += 1)
      await signIn(`made-up-${index}`, 'a guess', '192.0.2.99').catch(() => undefined);
    const checks = fixture.identity.hasher.verifications - before.checks;
    expect(checks).toBe(100);
    expect(fixture.storeWork().appends - before.appends).toBe(3 * checks);
  }, 120_000);

  it('does not count successes against their address: people behind one address are not locked out by signing in', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, () => signIn('ada', password)));

    // At once, at most 10 are checked (the account's budget); the others are told to try again, nothing worse.
    expect(
      outcomes.filter(
        (outcome) => outcome.status === 'rejected' && (outcome.reason as { code?: string }).code !== 'RATE_LIMITED',
      ),
    ).toEqual([]);
    // One after another, more than the address's 100 all get in: none of the successes counted against it.
    for (let index = 0; index < 110; index += 1)
      await expect(signIn('ada', password)).resolves.toMatchObject({ session: { userId } });
  }, 120_000);

  it('upgrades a hash made with weaker parameters at the next successful sign-in', async () => {
    const weak = await argon2.hash(password, { type: argon2.argon2id, memoryCost: 4_096, timeCost: 1, parallelism: 1 });
    await fixture.identity.users.handle(
      userId,
      { type: 'SetPassword', data: { passwordHash: weak } },
      context({ actor: 'system' }),
    );
    await signIn('ada', password);
    const { state } = await fixture.identity.users.load(userId);
    expect(state.status === 'registered' && state.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    await expect(signIn('ada', password)).resolves.toMatchObject({ session: { userId } });
  });

  it('records the address and user agent of each attempt for auditors', async () => {
    await signIn('ada', 'wrong', '192.0.2.45').catch(() => undefined);
    await signIn('ada', password, '192.0.2.44');
    const stream = await fixture.store.readStream(userStream(userId));
    expect(stream.found && stream.events.at(-1)?.metadata).toMatchObject({
      actor: `user:${userId}`,
      clientIp: '192.0.2.44',
      userAgent: 'jest',
    });
    const attempts = await fixture.store.readStream(signInAttemptsStream({ kind: 'account', id: userId }));
    expect(
      attempts.found &&
        attempts.events.map(({ type, metadata }) => ({
          type,
          clientIp: metadata.clientIp,
          userAgent: metadata.userAgent,
        })),
    ).toEqual([
      { type: 'SignInAttemptReserved', clientIp: '192.0.2.45', userAgent: 'jest' },
      { type: 'SignInAttemptFailed', clientIp: '192.0.2.45', userAgent: 'jest' },
      { type: 'SignInAttemptReserved', clientIp: '192.0.2.44', userAgent: 'jest' },
      { type: 'SignInAttemptSucceeded', clientIp: '192.0.2.44', userAgent: 'jest' },
    ]);
  });

  it('answers an unknown id the same way', async () => {
    await expect(signIn(randomUUID(), password)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });
});

describe('the work of a failed sign-in (timing must not tell which accounts exist)', () => {
  /** The store work and argon2id checks of one failed sign-in, each from an address of its own. */
  async function workOf(username: string, clientIp: string) {
    const store = fixture.storeWork();
    const verifications = fixture.identity.hasher.verifications;
    await expect(signIn(username, 'not the password', clientIp)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    const after = fixture.storeWork();
    return {
      reads: after.reads - store.reads,
      appends: after.appends - store.appends,
      verifications: fixture.identity.hasher.verifications - verifications,
    };
  }

  it('is the same for a real account (by address or username), an account without a password, an address only reserved, and names that are nobody’s', async () => {
    await fixture.identity.registration.register({ email: 'grace@example.com' }, context());
    await fixture.identity.directory.userIdForEmail('invited@example.com', context({ actor: 'cli' }));
    // Every account read once on this node before, as a sign-in finds them after the first.
    for (const name of ['ada', 'ada@example.com', 'grace@example.com'])
      await signIn(name, 'warm-up', '192.0.2.1').catch(() => undefined);

    const works = {
      account: await workOf('ada', '192.0.2.10'),
      accountByAddress: await workOf('ada@example.com', '192.0.2.11'),
      accountWithoutPassword: await workOf('grace@example.com', '192.0.2.12'),
      reservedAddress: await workOf('invited@example.com', '192.0.2.13'),
      unknownName: await workOf('nobody', '192.0.2.14'),
      unknownAddress: await workOf('nobody@example.com', '192.0.2.15'),
      emptyName: await workOf('', '192.0.2.16'),
    };

    // One claim read, one user read, and per counted key (address, account or name) one read, its lock
    // check, on which its reservation is decided, and one append; then the failure on the account or name.
    for (const work of Object.values(works)) expect(work).toEqual({ reads: 4, appends: 3, verifications: 1 });
  });
});

describe('the work of a successful sign-in (logins/s against argon2id alone)', () => {
  it('reads the claim, the user and each key once; settles the keys and records the sign-in on what this node knows, without reading again', async () => {
    await signIn('ada', password, '192.0.2.20');
    const before = fixture.storeWork();

    await signIn('ada', password, '192.0.2.20');

    const after = fixture.storeWork();
    // Appends: the two reservations, then the session, SignedIn and the two keys settled.
    expect({ reads: after.reads - before.reads, appends: after.appends - before.appends }).toEqual({
      reads: 4,
      appends: 6,
    });
    expect(await accountAttempts()).toEqual([
      'SignInAttemptReserved',
      'SignInAttemptSucceeded',
      'SignInAttemptReserved',
      'SignInAttemptSucceeded',
    ]);
  });

  it('decides again on a read when another node moved a key or the user meanwhile: nothing is lost or counted twice', async () => {
    const otherNode = fixture.secondNode();
    await signIn('ada', password, '192.0.2.21');
    // The other node signs ada in from the same address: this node's memory of both keys and of ada is now behind.
    await otherNode.passwordSignIn.signIn({ username: 'ada', password }, context({ clientIp: '192.0.2.21' }));

    await signIn('ada', password, '192.0.2.21');

    expect(await accountAttempts()).toEqual(
      Array<string[]>(3).fill(['SignInAttemptReserved', 'SignInAttemptSucceeded']).flat(),
    );
    const address = await typesIn(signInAttemptsStream(fixture.identity.signInAttempts.address('192.0.2.21')));
    expect(address).toEqual(Array<string[]>(3).fill(['SignInAttemptReserved', 'SignInAttemptSucceeded']).flat());
    expect((await eventTypes()).filter((type) => type === 'SignedIn')).toHaveLength(3);
    const streak = await fixture.store.readStream(
      signInAttemptsStream(fixture.identity.signInAttempts.address('192.0.2.21')),
      { direction: 'backwards', maxCount: 1 },
    );
    expect(streak.found && streak.events[0]?.data).toMatchObject({ streak: { outstanding: 0 } });
  });
});

describe('the work of a sign-in as the history grows', () => {
  it('reads and folds as many events at the 200th sign-in as at the 2nd', async () => {
    const workOfSignIn = async () => {
      const before = fixture.storeWork();
      await signIn('ada', password);
      const after = fixture.storeWork();
      return {
        reads: after.reads - before.reads,
        eventsRead: after.eventsRead - before.eventsRead,
        appends: after.appends - before.appends,
      };
    };
    await signIn('ada', password);
    const second = await workOfSignIn();
    for (let index = 3; index < 200; index += 1) await signIn('ada', password);

    const twoHundredth = await workOfSignIn();

    expect(twoHundredth).toEqual(second);
    expect(await eventTypes()).toHaveLength(2 + 200);
  }, 180_000);

  it('on another node, reads a user’s history once, then only what was recorded since', async () => {
    for (let index = 0; index < 30; index += 1) await signIn('ada', password);
    const otherNode = fixture.secondNode();
    const signInOn = async () => {
      const before = fixture.storeWork();
      await otherNode.passwordSignIn.signIn({ username: 'ada', password }, context());
      return fixture.storeWork().eventsRead - before.eventsRead;
    };

    const first = await signInOn();
    await signIn('ada', password);
    const next = await signInOn();

    expect(first).toBeGreaterThan(30);
    expect(next).toBeLessThan(10);
  }, 60_000);
});

describe('with one argon2id computation at once (PASSWORD_HASHES_AT_ONCE=1): sign-ins wait their turn, guarantees unchanged', () => {
  let narrow: IdentityFixture;
  let graceId: string;
  beforeEach(async () => {
    narrow = await openIdentityFixture(undefined, 1);
    ({ userId: graceId } = await narrow.identity.registration.register(
      { email: 'grace@example.com', username: 'grace', password },
      context({ actor: 'cli' }),
    ));
  });
  afterEach(async () => {
    await narrow.close();
  });
  const signInNarrow = (username: string, secret: string, clientIp: string) =>
    narrow.identity.passwordSignIn.signIn({ username, password: secret }, context({ clientIp }));

  it('still checks at most 10 of 50 guesses at once for one account, every check counted and its reservation stored before it', async () => {
    const before = narrow.identity.hasher.verifications;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_unused, index) => signInNarrow('grace', `guess ${index}`, `198.51.100.${index}`)),
    );
    const codes = outcomes.map((outcome) =>
      outcome.status === 'rejected' ? (outcome.reason as { code?: string }).code : 'signed in',
    );
    expect(narrow.identity.hasher.verifications - before).toBe(10);
    expect(codes.filter((code) => code === 'INVALID_CREDENTIALS')).toHaveLength(10);
    expect(codes.filter((code) => code === 'RATE_LIMITED')).toHaveLength(40);
    expect(narrow.identity.hasher.mostHashesAtOnce).toBe(1);
  });

  it('answers every sign-in of a burst, each with its SignedIn and session recorded before it is answered, and the dummy check waits in the same line', async () => {
    const answered: number[] = [];
    const signIns = Array.from({ length: 8 }, (_unused, index) =>
      (index % 2 === 0
        ? signInNarrow('grace', password, `192.0.2.${index}`)
        : signInNarrow(`nobody-${index}`, password, `192.0.2.${index}`)
      ).then(
        async (result) => {
          // What is recorded when the sign-in is answered: its session, and SignedIn on the user.
          const user = await narrow.store.readStream(userStream(graceId));
          const sessions = await narrow.identity.sessions.listForUser(graceId);
          answered.push(index);
          return {
            signedIn: user.found ? user.events.filter((event) => event.type === 'SignedIn').length : 0,
            recorded: sessions.some((session) => session.sessionId === result.session.sessionId),
          };
        },
        (error: unknown) => {
          answered.push(index);
          return (error as { code?: string }).code;
        },
      ),
    );
    const outcomes = await Promise.all(signIns);
    expect(outcomes.filter((outcome) => outcome === 'INVALID_CREDENTIALS')).toHaveLength(4);
    const successes = outcomes.filter(
      (outcome): outcome is { signedIn: number; recorded: boolean } => typeof outcome === 'object',
    );
    expect(successes).toHaveLength(4);
    expect(successes.every((success) => success.signedIn >= 1 && success.recorded)).toBe(true);
    expect(answered.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(narrow.identity.hasher.mostHashesAtOnce).toBe(1);
  });
});
