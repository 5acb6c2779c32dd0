// The OAuth `state` of a Google sign-in: a random nonce sent to Google, and a signed cookie in the
// browser holding the same nonce with what to do afterwards (the page's token, the redirect).
// The callback is accepted only from the browser that started it, within ten minutes, once.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import { hmacBase64Url, safeEqual } from '../hashing.js';

export type GoogleSignInIntent = { token: string; redirect: string };

type Sealed = GoogleSignInIntent & { nonce: string; expiresAt: string };

export const googleStateLifetimeMs = 10 * 60_000;

export class GoogleStateSeal {
  constructor(
    private readonly key: Buffer,
    private readonly clock: Clock,
  ) {}

  /** nonce goes to Google as `state`; cookieValue goes to the browser. */
  seal(intent: GoogleSignInIntent): { nonce: string; cookieValue: string } {
    const nonce = randomBytes(24).toString('base64url');
    const expiresAt = new Date(this.clock.now().getTime() + googleStateLifetimeMs).toISOString();
    const payload = Buffer.from(JSON.stringify({ ...intent, nonce, expiresAt } satisfies Sealed), 'utf8').toString(
      'base64url',
    );
    return { nonce, cookieValue: `${payload}.${hmacBase64Url(this.key, payload)}` };
  }

  /** The intent, when the cookie is ours, unexpired, and names the state Google sent back. */
  open(cookieValue: string | undefined, state: unknown): GoogleSignInIntent | undefined {
    if (cookieValue === undefined || typeof state !== 'string' || state === '') return undefined;
    const [payload, mac, ...rest] = cookieValue.split('.');
    if (payload === undefined || mac === undefined || rest.length > 0) return undefined;
    if (!safeEqual(mac, hmacBase64Url(this.key, payload))) return undefined;
    let sealed: Partial<Sealed>;
    try {
      sealed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Sealed>;
    } catch {
      return undefined;
    }
    const { nonce, expiresAt, token, redirect } = sealed;
    if (
      typeof nonce !== 'string' ||
      typeof expiresAt !== 'string' ||
      typeof token !== 'string' ||
      typeof redirect !== 'string'
    ) {
      return undefined;
    }
    if (!safeEqual(nonce, state) || new Date(expiresAt).getTime() <= this.clock.now().getTime()) return undefined;
    return { token, redirect };
  }
}
