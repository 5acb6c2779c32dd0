// The state of an SSO sign-on in the browser that started it (as Google's, sign-in/google-state.ts, but
// sealed rather than only signed, since it holds the PKCE verifier): the `state` and `nonce` sent to the
// provider and the code verifier, in an encrypted, 10-minute, HttpOnly cookie. The callback is accepted
// only with that cookie, only for the state it names, once (the cookie is cleared), within ten minutes.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import { safeEqual } from '../hashing.js';
import type { SecretBox } from './secret-box.js';

/** linkUserId: a signed-in user linking their account to the organization's SSO (the callback records the link). */
export type SsoSignOnIntent = { organizationId: string; redirect: string; linkUserId?: string };

/** What the callback needs: the intent and the checks openid-client makes on the provider's answer. */
export type SsoSignOnChecks = SsoSignOnIntent & { state: string; nonce: string; codeVerifier: string };

type Sealed = SsoSignOnChecks & { expiresAt: string };

export const ssoStateLifetimeMs = 10 * 60_000;

const random = (): string => randomBytes(32).toString('base64url');

export class SsoStateSeal {
  constructor(
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** New checks for a sign-on, and the cookie value that carries them. */
  seal(intent: SsoSignOnIntent): { checks: SsoSignOnChecks; cookieValue: string } {
    const checks: SsoSignOnChecks = { ...intent, state: random(), nonce: random(), codeVerifier: random() };
    const expiresAt = new Date(this.clock.now().getTime() + ssoStateLifetimeMs).toISOString();
    return { checks, cookieValue: this.box.seal(JSON.stringify({ ...checks, expiresAt } satisfies Sealed), 'sso-state') };
  }

  /** The checks, when the cookie is ours, unexpired, and names the state the provider sent back. */
  open(cookieValue: string | undefined, state: unknown): SsoSignOnChecks | undefined {
    if (cookieValue === undefined || typeof state !== 'string' || state === '') return undefined;
    const opened = this.box.open(cookieValue, 'sso-state');
    if (opened === undefined) return undefined;
    let sealed: Partial<Sealed>;
    try {
      sealed = JSON.parse(opened) as Partial<Sealed>;
    } catch {
      return undefined;
    }
    const { organizationId, redirect, nonce, codeVerifier, expiresAt, linkUserId } = sealed;
    if ([organizationId, redirect, nonce, codeVerifier, expiresAt, sealed.state].some((value) => typeof value !== 'string')) return undefined;
    if (linkUserId !== undefined && typeof linkUserId !== 'string') return undefined;
    if (!safeEqual(sealed.state as string, state) || new Date(expiresAt as string).getTime() <= this.clock.now().getTime()) return undefined;
    const checks = {
      organizationId: organizationId as string,
      redirect: redirect as string,
      state,
      nonce: nonce as string,
      codeVerifier: codeVerifier as string,
    };
    return linkUserId === undefined ? checks : { ...checks, linkUserId };
  }
}
