// GET /auth/go/[:token] starts Google sign-in; GET /auth/google/callback finishes it (docs/api.md, Sign-in).
import { Controller, Get, Inject, Optional, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { type GoogleAccount, type GoogleSignInIntent, type Identity } from '#identity';
import { safeRedirectPath } from '#web-rules';
import { commandContextOf } from '../../http/request-context.js';
import { PINO } from '../../logging/pino.js';
import { AuthCookies } from '../auth-cookies.js';
import { BrowserSessions } from '../browser-sessions.service.js';
import { IDENTITY } from '../identity.provider.js';
import { Memberships } from '../memberships.service.js';
import { PASSWORD_GATE, ssoSignOnPath, type PasswordGate } from '../password-gate.js';
import { SIGN_IN_JOINS, type SignInJoins } from '../sign-in-joins.js';
import { secondStepPage, TwoStepPolicy } from '../two-step-policy.js';
import { GOOGLE_STRATEGY } from './google-strategy.provider.js';
import type { GoogleStrategy } from './google.strategy.js';
import { Credentials, Operation } from '../../http/operation.decorator.js';

// The seed's error catalogue (section 8): 'Google sign-in failed.' / 'You don't seem to have access to any
// organization.'
const googleFailed = '/login?error=google';
const noOrganization = '/login?error=account';
/** The page's token (GOOGLE_SIGN_IN_TOKEN's alphabet); anything else is refused. */
const signInToken = /^[A-Za-z0-9._~-]{0,200}$/;

type Outcome = { account: GoogleAccount; intent: GoogleSignInIntent } | undefined;

@Credentials('none')
@Controller('auth')
export class GoogleSignInController {
  constructor(
    @Inject(GOOGLE_STRATEGY) private readonly strategy: GoogleStrategy | null,
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly sessions: BrowserSessions,
    private readonly memberships: Memberships,
    private readonly twoStepPolicy: TwoStepPolicy,
    private readonly cookies: AuthCookies,
    @Inject(PINO) private readonly logger: Logger,
    @Optional() @Inject(SIGN_IN_JOINS) private readonly joins?: SignInJoins,
    @Optional() @Inject(PASSWORD_GATE) private readonly passwordGate?: PasswordGate,
  ) {}

  @Get(['go', 'go/:token'])
  @Operation({
    summary: "Start Google sign-in: 302 to Google's consent page",
    responses: { 302: "Google's consent page, or /login?error=google" },
  })
  @Operation({
    summary: "Start Google sign-in carrying the sign-in page's token",
    responses: { 302: "Google's consent page, or /login?error=google" },
  })
  start(
    @Param('token') token: string | undefined,
    @Query('redirect') redirect: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): void {
    response.setHeader('Cache-Control', 'no-store');
    if (this.strategy === null || !signInToken.test(token ?? '')) {
      response.redirect(302, googleFailed);
      return;
    }
    const intent: GoogleSignInIntent = { token: token ?? '', redirect: safeRedirectPath(redirect) };
    // passport answers with the 302 to Google's consent page itself; `next` is only called on an error.
    // A non-string `state` goes to the store (passport-oauth2 >= 1.6), though the typings say string.
    const options = { session: false, state: intent as unknown as string };
    this.strategy.getPassportInstance().authenticate('google', options)(request, response, (error: unknown) => {
      this.logger.error({ err: error }, 'Google sign-in could not start');
      response.redirect(302, googleFailed);
    });
  }

  @Get('google/callback')
  @Operation({
    summary: 'Finish Google sign-in',
    responses: { 302: 'The saved redirect on success; /login?error=google or /login?error=account on a failure' },
  })
  async callback(@Req() request: Request, @Res() response: Response): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    this.cookies.clear(response, this.cookies.googleState);
    const outcome = this.strategy === null ? undefined : await this.authenticate(this.strategy, request, response);
    if (outcome === undefined) {
      response.redirect(302, googleFailed);
      return;
    }
    try {
      response.redirect(302, await this.signIn(outcome, request, response));
    } catch (error) {
      // E.g. two first sign-ins of one address racing to register it: the browser still gets the seed's answer.
      this.logger.error({ err: error }, 'Google sign-in could not be completed');
      if (!response.headersSent) response.redirect(302, googleFailed);
    }
  }

  /** Opens a session for the Google account's user and answers where to send the browser. */
  private async signIn(outcome: NonNullable<Outcome>, request: Request, response: Response): Promise<string> {
    const target = safeRedirectPath(outcome.intent.redirect);
    // An organization that enforces its single sign-on has its people sign in through its provider, whose policies
    // (its MFA, its deprovisioning) Google alone would go around: they are sent there, nothing linked or opened.
    const { email, emailVerified } = outcome.account;
    const enforcing =
      email !== undefined && emailVerified ? await this.passwordGate?.enforcingOrganizationOf(email) : undefined;
    if (enforcing !== undefined) return ssoSignOnPath(enforcing, target);
    const userId = await this.identity.googleSignIn.findUser(outcome.account, commandContextOf(request, 'google'));
    if (userId === undefined) return noOrganization;
    // A person of an automatic domain joins once signed in (BrowserSessions.begin), so belongs somewhere already; one
    // whose domain's organization enforces its single sign-on joins through it, and is sent there.
    if ((await this.memberships.of(userId)).length === 0 && (await this.joins?.wouldJoin(userId)) === undefined) {
      const throughSignOn = await this.joins?.joinsThroughSignOnOnly(userId);
      return throughSignOn === undefined ? noOrganization : ssoSignOnPath(throughSignOn, target);
    }
    await this.sessions.endCurrent(request);
    const signedIn = commandContextOf(request, `user:${userId}`);
    // Google vouches for the mailbox only: a factor of the account, or an organization's requirement, is asked as after
    // a password.
    const awaiting = await this.twoStepPolicy.awaitedAfter(userId);
    const context = { ...signedIn, origin: { ...signedIn.origin, googleSignInToken: outcome.intent.token } };
    const opened = await this.identity.sessions.open(userId, 'google', context, awaiting);
    await this.sessions.begin(request, response, opened);
    return awaiting === undefined ? target : secondStepPage(target);
  }

  /** Google's answer: the account and the intent saved at the start, or undefined for any failure. */
  private authenticate(strategy: GoogleStrategy, request: Request, response: Response): Promise<Outcome> {
    return new Promise((resolve) => {
      const done = (
        error: unknown,
        account: GoogleAccount | false,
        info: { state?: GoogleSignInIntent } | undefined,
      ) => {
        if (error !== null && error !== undefined) this.logger.warn({ err: error }, 'Google sign-in failed');
        resolve(
          account === false || account === undefined || info?.state === undefined
            ? undefined
            : { account, intent: info.state },
        );
      };
      strategy.getPassportInstance().authenticate('google', { session: false }, done)(
        request,
        response,
        (error: unknown) => done(error, false, undefined),
      );
    });
  }
}
