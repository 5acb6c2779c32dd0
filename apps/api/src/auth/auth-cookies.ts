// The cookies of sign-in. HttpOnly, SameSite=Lax, Path=/; Secure and `__Host-` (no Domain, so no
// sibling subdomain can plant one) when PUBLIC_URL is https. XSRF-TOKEN alone is readable by script.
import { Inject, Injectable } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { CONFIG, type Config } from '#config';
import { SAML_REQUEST_LIFETIME_MS } from '#domain';
import { googleStateLifetimeMs, ssoStateLifetimeMs } from '#identity';

/** The seed's client sends the XSRF-TOKEN cookie back as X-XSRF-TOKEN (section 7). */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

/** One cookie by name from the Cookie header (the first, when a name repeats). */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

@Injectable()
export class AuthCookies {
  readonly secure: boolean;
  readonly session: string;
  readonly preSession: string;
  readonly googleState: string;
  readonly ssoState: string;
  readonly samlRequest: string;

  constructor(@Inject(CONFIG) config: Config) {
    this.secure = config.publicUrl.startsWith('https://');
    const prefix = this.secure ? '__Host-' : '';
    this.session = `${prefix}chorus_session`;
    this.preSession = `${prefix}chorus_presession`;
    this.googleState = `${prefix}chorus_google_state`;
    this.ssoState = `${prefix}chorus_sso_state`;
    this.samlRequest = `${prefix}chorus_saml_request`;
  }

  read(request: Request, name: string): string | undefined {
    return readCookie(request, name);
  }

  /** A browser-session cookie: the server's idle and absolute timeouts decide how long it is good. */
  set(response: Response, name: string, value: string): void {
    response.cookie(name, value, this.options(true));
  }

  setGoogleState(response: Response, value: string): void {
    response.cookie(this.googleState, value, { ...this.options(true), maxAge: googleStateLifetimeMs });
  }

  setSsoState(response: Response, value: string): void {
    response.cookie(this.ssoState, value, { ...this.options(true), maxAge: ssoStateLifetimeMs });
  }

  /**
   * Binds a SAML sign-on to the browser that started it. SameSite=None, since the identity provider's POST is
   * cross-site and a Lax cookie would not come back; that needs Secure, so only over https (docs/directory.md).
   */
  setSamlRequest(response: Response, value: string): void {
    if (this.secure)
      response.cookie(this.samlRequest, value, { ...this.samlRequestOptions(), maxAge: SAML_REQUEST_LIFETIME_MS });
  }

  clearSamlRequest(response: Response): void {
    if (this.secure) response.clearCookie(this.samlRequest, this.samlRequestOptions());
  }

  private samlRequestOptions(): CookieOptions {
    return { httpOnly: true, secure: true, sameSite: 'none', path: '/' };
  }

  setXsrf(response: Response, token: string): void {
    response.cookie(XSRF_COOKIE, token, this.options(false));
  }

  clear(response: Response, name: string): void {
    response.clearCookie(name, this.options(true));
  }

  private options(httpOnly: boolean): CookieOptions {
    return { httpOnly, secure: this.secure, sameSite: 'lax', path: '/' };
  }
}
