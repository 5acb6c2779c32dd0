// argon2id at OWASP's recommended minimum (m = 19 MiB, t = 2, p = 1).
import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { normalizePassword } from './password-policy.js';

export const argon2Parameters = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** How argon2 writes a hash made with argon2Parameters (PHC string: version, then m, p, t in this order). */
const currentParametersPrefix = `$argon2id$v=19$m=${argon2Parameters.memoryCost},p=${argon2Parameters.parallelism},t=${argon2Parameters.timeCost}$`;

export class PasswordHasher {
  // Made at start-up, so that even the first unknown user costs what a real check costs.
  private readonly dummyHash: Promise<string> = this.hash(randomBytes(32).toString('base64url'));
  private verified = 0;

  /** argon2id verifications run so far (real and dummy): what the sign-in throttle bounds, and what its tests count. */
  get verifications(): number {
    return this.verified;
  }

  hash(password: string): Promise<string> {
    return argon2.hash(normalizePassword(password), argon2Parameters);
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    this.verified += 1;
    try {
      return await argon2.verify(passwordHash, normalizePassword(password));
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
}
