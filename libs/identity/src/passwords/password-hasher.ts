// argon2id at OWASP's recommended minimum (m = 19 MiB, t = 2, p = 1).
import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { normalizePassword } from './password-policy.js';

export const argon2Parameters = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

const currentParametersPrefix = `$argon2id$v=19$m=${argon2Parameters.memoryCost},p=${argon2Parameters.parallelism},t=${argon2Parameters.timeCost}$`;

/** One more than the cores, so none idles between hand-outs; one libuv pool thread stays free for file and DNS work. */
export function defaultHashesAtOnce(
  cores = availableParallelism(),
  poolThreads = Number(process.env['UV_THREADPOOL_SIZE'] ?? 4) || 4,
): number {
  return Math.max(1, Math.min(cores + 1, poolThreads - 1));
}

/** First come, first served: every argon2id computation of the process, dummy ones included, takes its turn here. */
export class Turns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.running -= 1;
      else next();
    }
  }
}

export type PasswordHasherOptions = {
  hashesAtOnce?: number;
};

export class PasswordHasher {
  readonly hashesAtOnce: number;
  private readonly turns: Turns;
  private readonly dummyHash: Promise<string>;
  private verified = 0;
  private running = 0;
  private mostAtOnce = 0;

  constructor(options: PasswordHasherOptions = {}) {
    const limit = options.hashesAtOnce ?? defaultHashesAtOnce();
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`hashesAtOnce must be a positive integer, not ${limit}`);
    this.hashesAtOnce = limit;
    this.turns = new Turns(limit);
    // Made at start-up, so that even the first unknown user costs what a real check costs.
    this.dummyHash = this.hash(randomBytes(32).toString('base64url'));
  }

  get verifications(): number {
    return this.verified;
  }

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

  needsRehash(passwordHash: string): boolean {
    // By prefix: argon2's own check decodes the whole PHC string at every sign-in.
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
