// Why an SSO sign-on failed, thrown to end it (the stream of failures and its rules: libs/domain). Also logged.
// Never in the URL the browser is sent to, which is always the seed's `/login?error=sso`.
import type { SsoFailureReason } from '#domain';

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
