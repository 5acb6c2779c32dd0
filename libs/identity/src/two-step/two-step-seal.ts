// Short-lived values the browser carries between two calls of one step (the authenticator secret being set
// up, a WebAuthn challenge), sealed (AES-256-GCM) and bound to the session and purpose they were made for,
// so any node can open them and nothing is stored for a step that is never finished.
import type { Clock } from '../clock.js';
import type { SecretBox } from '../sso/secret-box.js';

export type SealPurpose = 'authenticator-app-setup' | 'passkey-registration' | 'passkey-sign-in';

export class TwoStepSeal {
  constructor(
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  seal(purpose: SealPurpose, sessionId: string, value: string, lifetimeMs: number): string {
    const expiresAt = this.clock.now().getTime() + lifetimeMs;
    return this.box.seal(JSON.stringify({ value, expiresAt }), `${purpose} ${sessionId}`);
  }

  /**
   * The value, or undefined when the token was sealed for another session or purpose, tampered with, or has expired.
   */
  open(purpose: SealPurpose, sessionId: string, token: string): string | undefined {
    const opened = this.box.open(token, `${purpose} ${sessionId}`);
    if (opened === undefined) return undefined;
    const { value, expiresAt } = JSON.parse(opened) as { value: string; expiresAt: number };
    return this.clock.now().getTime() < expiresAt ? value : undefined;
  }
}
