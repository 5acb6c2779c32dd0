// GET /auth/sso?email=, GET /auth/sso/:orgId, GET /auth/sso/callback. Every failure sends the
// browser to the seed's `/login?error=sso` ('Single sign-on (SSO) failed.'); why is in the log and, once
// the organization is known, in its audit trail (sso-sign-on-ending.ts), never in the URL.
import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { emailDomain } from '#domain';
import type { Identity } from '#identity';
import { safeRedirectPath } from '#web-rules';
import { AuthCookies } from '../auth/auth-cookies.js';
import { BrowserSessions } from '../auth/browser-sessions.service.js';
import { IDENTITY } from '../auth/identity.provider.js';
import { ssoSignOnPath } from '../auth/password-gate.js';
import { commandContextOf } from '../http/request-context.js';
import { PINO } from '../logging/pino.js';
import { organizationIdSchema } from '../http/organization-ids.js';
import { SsoDomainClaims } from './sso-domain-claims.js';
import { SsoSignOnFailure } from './sso-sign-on-failure.error.js';
import { SsoSignOn } from './sso-sign-on.js';
import { ssoFailed, SsoSignOnEnding } from './sso-sign-on-ending.js';
import { Credentials, Operation } from '../http/operation.decorator.js';

@Credentials('none')
@Controller('auth/sso')
export class SsoSignOnController {
  constructor(
    private readonly signOn: SsoSignOn,
    private readonly claims: SsoDomainClaims,
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly sessions: BrowserSessions,
    private readonly cookies: AuthCookies,
    @Inject(PINO) private readonly logger: Logger,
    private readonly ending: SsoSignOnEnding,
  ) {}

  /** Finds the organization whose verified SSO domains hold the address's domain, and starts its sign-on. */
  @Get()
  @Operation({
    summary: "Start single sign-on for an e-mail address: 302 to its organization's sign-on",
    responses: { 302: '/auth/sso/<organization id>, or /login?error=sso when no organization holds the domain' },
  })
  async byEmail(
    @Query('email') email: unknown,
    @Query('redirect') redirect: unknown,
    @Res() response: Response,
  ): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    const domain = typeof email === 'string' && email.length <= 320 ? emailDomain(email.trim()) : null;
    const organizationId = domain === null ? undefined : await this.claims.organizationOf(domain);
    if (organizationId === undefined) {
      this.logger.info(
        { reason: 'foreign-domain', domain },
        'SSO sign-on failed: no organization signs this address in',
      );
      response.redirect(302, ssoFailed);
      return;
    }
    response.redirect(302, ssoSignOnPath(organizationId, typeof redirect === 'string' ? redirect : undefined));
  }

  // Declared before :orgId, which would otherwise take it.
  @Get('callback')
  @Operation({
    summary: 'Finish single sign-on: checks the id_token, signs a member in or adds a person of the domain as member',
    responses: {
      302: 'The saved redirect or /app on success; /login?error=sso on any failure (the reason is logged and audited, never in the URL)',
    },
  })
  async callback(@Req() request: Request, @Res() response: Response): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    // Once: whatever happens next, this browser's sign-on state is spent.
    this.cookies.clear(response, this.cookies.ssoState);
    const context = commandContextOf(request, 'anonymous');
    const checks = this.identity.ssoState.open(this.cookies.read(request, this.cookies.ssoState), request.query.state);
    if (checks === undefined) {
      this.logger.warn(
        { reason: 'state' },
        "SSO sign-on failed: the state is not this browser's sign-on (missing, replayed, swapped or expired)",
      );
      response.redirect(302, ssoFailed);
      return;
    }
    try {
      const search = request.originalUrl.includes('?')
        ? request.originalUrl.slice(request.originalUrl.indexOf('?'))
        : '';
      const opened = await this.signOn.finish(checks, search, context, (await this.sessions.live(request))?.userId);
      await this.sessions.endCurrent(request);
      await this.sessions.begin(request, response, opened);
      response.redirect(302, this.ending.target(opened, checks.redirect));
    } catch (error) {
      await this.ending.fail(checks.organizationId, error, request, response);
    }
  }

  @Get(':orgId')
  @Operation({
    summary: "Start single sign-on with the organization's provider (authorization code with PKCE)",
    responses: { 302: "The provider's authorization page, or /login?error=sso" },
  })
  async start(
    @Param('orgId') organizationId: string,
    @Query('redirect') redirect: unknown,
    @Query('intent') intent: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    if (!organizationIdSchema.safeParse(organizationId).success) {
      this.logger.info({ reason: 'not-configured' }, 'SSO sign-on failed: not an organization id');
      response.redirect(302, ssoFailed);
      return;
    }
    try {
      // intent=link: the signed-in user links their account; without a live session there is nothing to link.
      const linkUserId = intent === 'link' ? (await this.sessions.live(request))?.userId : undefined;
      if (intent === 'link' && linkUserId === undefined)
        throw new SsoSignOnFailure('link-refused', 'A link needs a signed-in account');
      const { url, cookieValue, samlBinding } = await this.signOn.start(
        organizationId,
        safeRedirectPath(redirect),
        linkUserId,
        this.cookies.secure,
      );
      if (cookieValue !== undefined) this.cookies.setSsoState(response, cookieValue);
      if (samlBinding !== undefined) this.cookies.setSamlRequest(response, samlBinding);
      response.redirect(302, url.href);
    } catch (error) {
      await this.ending.fail(organizationId, error, request, response);
    }
  }
}
