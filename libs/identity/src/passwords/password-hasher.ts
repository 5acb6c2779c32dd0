// argon2id at OWASP's recommended minimum (m = 19 MiB, t = 2, p = 1).
import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { normalizePassword } from './password-policy.js';

export const argon2Parameters = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** How argon2 writes a hash made with argon2Parameters (PHC string: version, then m, p, t in this order). */
const currentParametersPrefix = `$argon2id$v=19$m=${argon2Parameters.memoryCost},p=${argon2Parameters.parallelism},t=${argon2Parameters.timeCost}$`;

/**
 * How many argon2id computations run at once by default (PASSWORD_HASHES_AT_ONCE): one more than the
 * cores, so that a core does not idle while the main thread (busy with a request, or waiting for a commit's
 * fsync) has not yet handed the next check out, and at most libuv's pool (UV_THREADPOOL_SIZE, 4 by default)
 * less one thread, which stays free for file and DNS work. 3 on 2 cores.
 */
export function defaultHashesAtOnce(cores = availableParallelism(), poolThreads = Number(process.env['UV_THREADPOOL_SIZE'] ?? 4) || 4): number {
  return Math.max(1, Math.min(cores + 1, poolThreads - 1));
}

/**
 * First come, first served: at most `limit` holders at once, the others wait in the order they asked.
 * Every argon2id computation of the process (a real check, the dummy one, a new hash) takes its turn here.
 */
export class Turns {
  private running = 0;
  /** Who waits, in the order they asked. */
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The turn passes straight to the next in line (running stays the same), or is given back.
      const next = this.waiting.shift();
      if (next === undefined) this.running -= 1;
      else next();
    }
  }
}

export type PasswordHasherOptions = {
  /** argon2id computations at once (defaultHashesAtOnce()); the rest wait their turn in order. */
  hashesAtOnce?: number;
};

export class PasswordHasher {
  /** The most argon2id computations at once. */
  readonly hashesAtOnce: number;
  private readonly turns: Turns;
  private readonly dummyHash: Promise<string>;
  private verified = 0;
  private running = 0;
  private mostAtOnce = 0;

  constructor(options: PasswordHasherOptions = {}) {
    const limit = options.hashesAtOnce ?? defaultHashesAtOnce();
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`hashesAtOnce must be a positive integer, not ${limit}`);
    this.hashesAtOnce = limit;
    this.turns = new Turns(limit);
    // Made at start-up, so that even the first unknown user costs what a real check costs.
    this.dummyHash = this.hash(randomBytes(32).toString('base64url'));
  }

  /** argon2id verifications run so far (real and dummy): what the sign-in throttle bounds, and what its tests count. */
  get verifications(): number {
    return this.verified;
  }

  /** The most argon2id computations that ran at once so far (never above hashesAtOnce). */
  get mostHashesAtOnce(): number {
    return this.mostAtOnce;
  }

  hash(password: string): Promise<string> {
    return this.turns.run(() => this.counted(argon2.hash(normalizePassword(password), argon2Parameters)));
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    this.verified += 1;
    try {
      return await this.turns.run(() => this.counted(argon2.verify(passwordHash, normalizePassword(password))));
    } catch {
      return false;
    }
  }

  /** Same work as a real check, for unknown users, so timing does not tell who has an account. */
  async verifyNobody(password: string): Promise<false> {
    await this.verify(await this.dummyHash, password);
    return false;
  }

  /** Hashes made with weaker parameters are upgraded at the next successful sign-in. */
  needsRehash(passwordHash: string): boolean {
    // Nearly every hash was made with today's parameters: told by its prefix, without decoding it (argon2's own
    // check decodes the whole PHC string, salt and digest included, at every sign-in).
    if (passwordHash.startsWith(currentParametersPrefix)) return false;
    return argon2.needsRehash(passwordHash, argon2Parameters);
  }

  private async counted<T>(computation: Promise<T>): Promise<T> {
    this.running += 1;
    if (this.running > this.mostAtOnce) this.mostAtOnce = this.running;
    try {
      return await computation;
    } finally {
      this.running -= 1;
    }
  }
}
