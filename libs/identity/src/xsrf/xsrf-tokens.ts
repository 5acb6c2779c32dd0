// OWASP's signed double-submit cookie: the XSRF-TOKEN cookie is `<nonce>.<HMAC(binding, nonce)>`,
// bound to the session (or, before sign-in, to the pre-session cookie), and a state-changing
// request must echo it in X-XSRF-TOKEN. A token planted by another site or copied from another
// session fails the HMAC check even when cookie and header agree.
import { randomBytes } from 'node:crypto';
import { hmacBase64Url, safeEqual } from '../hashing.js';

/** What a token is bound to: a session id, or the pre-session id of a visitor not signed in. */
export type XsrfBinding = { kind: 'session' | 'pre-session'; id: string };

export class XsrfTokens {
  constructor(private readonly key: Buffer) {}

  issue(binding: XsrfBinding): string {
    const nonce = randomBytes(18).toString('base64url');
    return `${nonce}.${this.mac(binding, nonce)}`;
  }

  /** True only when cookie and header carry the same token and it was signed for this binding. */
  verify(binding: XsrfBinding, cookie: string | undefined, header: string | undefined): boolean {
    if (cookie === undefined || header === undefined || !safeEqual(cookie, header)) return false;
    const [nonce, mac, ...rest] = cookie.split('.');
    if (nonce === undefined || mac === undefined || rest.length > 0 || nonce === '') return false;
    return safeEqual(mac, this.mac(binding, nonce));
  }

  private mac(binding: XsrfBinding, nonce: string): string {
    return hmacBase64Url(this.key, `${binding.kind}\n${binding.id}\n${nonce}`);
  }
}
