// OWASP's signed double-submit cookie: a token planted by another site or copied from another session fails
// the HMAC check even when cookie and header agree.
import { randomBytes } from 'node:crypto';
import { hmacBase64Url, safeEqual } from '../hashing.js';

export type XsrfBinding = { kind: 'session' | 'pre-session'; id: string };

export class XsrfTokens {
  constructor(private readonly key: Buffer) {}

  issue(binding: XsrfBinding): string {
    const nonce = randomBytes(18).toString('base64url');
    return `${nonce}.${this.mac(binding, nonce)}`;
  }

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
