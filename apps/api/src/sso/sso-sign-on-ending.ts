// How every single sign-on ends, whatever the protocol: on success, where the browser goes (past the second step when
// one is awaited); on failure, the seed's `/login?error=sso` ('Single sign-on (SSO) failed.'), with the reason in the
// log and, once the organization is known, in its failure record (sso-sign-on-failure-log.ts), never in the URL.
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { OpenedSession } from '#identity';
import { safeRedirectPath } from '#web-rules';
import { secondStepPage } from '../auth/two-step-policy.js';
import { commandContextOf } from '../http/request-context.js';
import { PINO } from '../logging/pino.js';
import { SsoSignOnFailure } from './sso-sign-on-failure.error.js';
import { SsoSignOn } from './sso-sign-on.js';

/** The seed's error catalogue (section 8): 'Single sign-on (SSO) failed.' */
export const ssoFailed = '/login?error=sso';
/** docs/console.md: a signed-in browser lands in the console. */
const afterSignOn = '/app';

@Injectable()
export class SsoSignOnEnding {
  constructor(
    private readonly signOn: SsoSignOn,
    @Inject(PINO) private readonly logger: Logger,
  ) {}

  target(opened: OpenedSession, redirect: string): string {
    const safe = safeRedirectPath(redirect);
    const target = safe === '/' ? afterSignOn : safe;
    return opened.session.awaiting === null ? target : secondStepPage(target);
  }

  /** status: 302 after a GET; 303 after the identity provider's POST, so that the browser follows with a GET. */
  async fail(
    organizationId: string,
    error: unknown,
    request: Request,
    response: Response,
    status: 302 | 303 = 302,
  ): Promise<void> {
    const failure =
      error instanceof SsoSignOnFailure ? error : new SsoSignOnFailure('error', 'The sign-on could not be completed');
    if (failure.reason === 'error') this.logger.error({ err: error, organizationId }, 'SSO sign-on failed');
    else this.logger.warn({ organizationId, reason: failure.reason, detail: failure.detail }, 'SSO sign-on failed');
    try {
      await this.signOn.recordFailure(organizationId, failure, commandContextOf(request, 'anonymous'));
    } catch (recording) {
      this.logger.error({ err: recording, organizationId }, 'SSO sign-on failure could not be recorded');
    }
    if (!response.headersSent) response.redirect(status, ssoFailed);
  }
}
