// The session cookie carries `<secret>.<HMAC(secret)>`: 256 random bits, signed so that forged
// values are refused before any store lookup. The store only ever sees SHA-256(secret).
import { randomBytes } from 'node:crypto';
import { hmacBase64Url, safeEqual, sha256Hex } from '../hashing.js';

export type IssuedSessionCookie = { cookieValue: string; sessionId: string };

export class SessionCookies {
  constructor(private readonly key: Buffer) {}

  issue(): IssuedSessionCookie {
    const secret = randomBytes(32).toString('base64url');
    return { cookieValue: `${secret}.${hmacBase64Url(this.key, secret)}`, sessionId: sha256Hex(secret) };
  }

  /** The session id a cookie names, or undefined for anything not signed by us. */
  sessionIdOf(cookieValue: string | undefined): string | undefined {
    if (cookieValue === undefined || cookieValue.length > 200) return undefined;
    const [secret, mac, ...rest] = cookieValue.split('.');
    if (secret === undefined || mac === undefined || secret === '' || rest.length > 0) return undefined;
    return safeEqual(mac, hmacBase64Url(this.key, secret)) ? sha256Hex(secret) : undefined;
  }
}
