// Sealed rather than only signed (as Google's state is), since it holds the PKCE verifier.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import { safeEqual } from '../hashing.js';
import type { SecretBox } from './secret-box.js';

/** linkUserId: a signed-in user linking their account to the organization's SSO. */
export type SsoSignOnIntent = { organizationId: string; redirect: string; linkUserId?: string };

export type SsoSignOnChecks = SsoSignOnIntent & { state: string; nonce: string; codeVerifier: string };

type Sealed = SsoSignOnChecks & { expiresAt: string };

export const ssoStateLifetimeMs = 10 * 60_000;

const random = (): string => randomBytes(32).toString('base64url');

export class SsoStateSeal {
  constructor(
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  seal(intent: SsoSignOnIntent): { checks: SsoSignOnChecks; cookieValue: string } {
    const checks: SsoSignOnChecks = { ...intent, state: random(), nonce: random(), codeVerifier: random() };
    const expiresAt = new Date(this.clock.now().getTime() + ssoStateLifetimeMs).toISOString();
    return {
      checks,
      cookieValue: this.box.seal(JSON.stringify({ ...checks, expiresAt } satisfies Sealed), 'sso-state'),
    };
  }

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
    if (
      [organizationId, redirect, nonce, codeVerifier, expiresAt, sealed.state].some(
        (value) => typeof value !== 'string',
      )
    )
      return undefined;
    if (linkUserId !== undefined && typeof linkUserId !== 'string') return undefined;
    if (
      !safeEqual(sealed.state as string, state) ||
      new Date(expiresAt as string).getTime() <= this.clock.now().getTime()
    )
      return undefined;
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
