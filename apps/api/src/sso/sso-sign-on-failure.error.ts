// Why an SSO sign-on failed (the stream and its rules: libs/domain's sso-sign-on-failures.ts). Also logged.
// Never in the URL the browser is sent to, which is always the seed's `/login?error=sso`.
import type { SsoFailureReason } from '#domain';

export { ssoSignOnStream, type SsoFailureReason, type SsoSignOnFailed, type SsoSignOnFailuresCounted } from '#domain';

export class SsoSignOnFailure extends Error {
  constructor(
    readonly reason: SsoFailureReason,
    readonly detail: string,
    readonly who: { email?: string; subject?: string } = {},
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'SsoSignOnFailure';
  }
}
