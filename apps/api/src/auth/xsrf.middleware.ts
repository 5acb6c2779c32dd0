// Every state-changing request carrying the session cookie must echo the XSRF-TOKEN cookie in
// X-XSRF-TOKEN, signed for its session, whatever else it carries (an Authorization header included);
// so must the sign-in forms before any session (login CSRF). Exempt: the billing webhook (signed) and a SAML ACS (the
// identity provider's signed response, POSTed cross-site; saml-sign-on.controller.ts).
// API-key calls need no exemption: without a session cookie there is nothing a forged request could ride on.
import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Identity } from '#identity';
import { SAML_ACS_PATH } from '../http/json-body.js';
import { ProblemError } from '../http/problem-error.js';
import { AuthCookies, XSRF_COOKIE, XSRF_HEADER } from './auth-cookies.js';
import { BrowserSessions } from './browser-sessions.service.js';
import { IDENTITY } from './identity.provider.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const EXEMPT_PATHS = new Set(['/billing/events']);
// Accepting an invitation signs the browser in, so it is a sign-in form too.
const SIGN_IN_FORMS = new Set(['/login', '/forgot', '/reset', '/invitations/accept']);

@Injectable()
export class XsrfMiddleware implements NestMiddleware {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly cookies: AuthCookies,
    private readonly sessions: BrowserSessions,
  ) {}

  use(request: Request, _response: Response, next: NextFunction): void {
    // Safe methods first: most requests need no path worked out at all.
    if (SAFE_METHODS.has(request.method)) {
      next();
      return;
    }
    // Routes match case-insensitively and with a trailing slash: so must these lists.
    const path = request.path.toLowerCase().replace(/(.)\/+$/, '$1');
    if (EXEMPT_PATHS.has(path) || SAML_ACS_PATH.test(path)) {
      next();
      return;
    }
    const hasSession = this.cookies.read(request, this.cookies.session) !== undefined;
    if (!hasSession && !(request.method === 'POST' && SIGN_IN_FORMS.has(path))) {
      next();
      return;
    }
    const binding = this.sessions.xsrfBinding(request);
    const header = request.get(XSRF_HEADER);
    if (binding === undefined || !this.identity.xsrf.verify(binding, this.cookies.read(request, XSRF_COOKIE), header)) {
      next(
        new ProblemError(
          403,
          'XSRF_INVALID',
          'XSRF token missing or wrong',
          'Send the XSRF-TOKEN cookie of this page back in the X-XSRF-TOKEN header.',
        ),
      );
      return;
    }
    next();
  }
}
