// POST /login, /logout, /forgot, /reset and /reset/validity (docs/api.md, Sign-in).
import { Body, Controller, HttpCode, Inject, Optional, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Identity } from '#identity';
import { commandContextOf } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { PINO } from '../logging/pino.js';
import { BrowserSessions } from './browser-sessions.service.js';
import { PASSWORD_GATE, type PasswordGate } from './password-gate.js';
import { TwoStepPolicy } from './two-step-policy.js';
import { IDENTITY } from './identity.provider.js';
import { forgotRequest, loginRequest, resetRequest, resetValidityRequest } from './sign-in-requests.js';
import { Credentials, Operation } from '../http/operation.decorator.js';
import { forgotAnswerSchema, resetValidityAnswer } from './auth-responses.js';

/** Whether or not the address is known. */
export const forgotAnswer = {
  message: 'If this address belongs to an account, a link to reset the password is on its way.',
};

@Credentials('none')
@Controller()
export class SignInController {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly sessions: BrowserSessions,
    private readonly twoStepPolicy: TwoStepPolicy,
    @Inject(PINO) private readonly logger: Logger,
    @Optional() @Inject(PASSWORD_GATE) private readonly passwordGate?: PasswordGate,
  ) {}

  @Post('login')
  @HttpCode(204)
  @Operation({
    summary: 'Sign in with a username or e-mail address and a password',
    responses: { 401: 'INVALID_CREDENTIALS, the same for any wrong user or password', 429: 'RATE_LIMITED' },
  })
  async login(
    @Body(new ZodValidationPipe(loginRequest)) credentials: z.output<typeof loginRequest>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    if (await this.passwordGate?.requiresSso(credentials.username))
      await this.passwordGate?.refusePassword(credentials.password);
    // A half-open session: the 2xx the seed asks for, after which every page but the second step's treats the browser
    // as signed out.
    const opened = await this.identity.passwordSignIn.signIn(
      credentials,
      commandContextOf(request, 'anonymous'),
      (userId) => this.twoStepPolicy.requiredAtSignIn(userId),
    );
    await this.sessions.endCurrent(request);
    await this.sessions.begin(request, response, opened);
  }

  @Post('logout')
  @HttpCode(204)
  // Without a session there is nothing to end: the same 204.
  @Credentials('session', 'none')
  @Operation({ summary: 'End the current session' })
  async logout(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    await this.sessions.endCurrent(request);
    this.sessions.end(request, response);
  }

  /** The lookup, the token and the mail happen after the answer is sent. */
  @Post('forgot')
  @HttpCode(202)
  @Operation({
    summary: 'Ask for a password reset link',
    description: 'Answers 202 whatever the address; a known address is sent a single-use link.',
    answer: forgotAnswerSchema,
    responses: { 429: 'RATE_LIMITED' },
  })
  forgot(
    @Body(new ZodValidationPipe(forgotRequest)) { email }: z.output<typeof forgotRequest>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): typeof forgotAnswer {
    const context = commandContextOf(request, 'anonymous');
    this.identity.passwordReset.admit(context.origin.clientIp);
    response.once('finish', () => {
      this.requestReset(email, context).catch((error: unknown) => {
        this.logger.error({ err: error, correlationId: context.correlationId }, 'password reset request failed');
      });
    });
    return forgotAnswer;
  }

  /** No reset mail for an address that must sign in through SSO (a password it could not use). */
  private async requestReset(
    email: string,
    context: Parameters<Identity['passwordReset']['request']>[1],
  ): Promise<void> {
    if (await this.passwordGate?.requiresSso(email)) {
      this.logger.info(
        { correlationId: context.correlationId },
        'password reset not sent: the address signs in through enforced single sign-on',
      );
      return;
    }
    await this.identity.passwordReset.request(email, context);
  }

  /** The token travels in the body (as RFC 7662 introspection) to stay out of URLs and access logs. */
  @Post('reset/validity')
  @HttpCode(200)
  @Operation({ summary: 'Whether a reset token still works, without using it', answer: resetValidityAnswer })
  async resetValidity(
    @Body(new ZodValidationPipe(resetValidityRequest)) { token }: z.output<typeof resetValidityRequest>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ valid: boolean }> {
    response.setHeader('Cache-Control', 'no-store');
    return { valid: await this.identity.passwordReset.isValid(token) };
  }

  @Post('reset')
  @HttpCode(204)
  @Operation({
    summary: 'Set a new password with a reset token; ends every other session of the user',
    responses: { 400: 'INVALID_TOKEN: unknown, used or expired' },
  })
  async reset(
    @Body(new ZodValidationPipe(resetRequest)) { token, password }: z.output<typeof resetRequest>,
    @Req() request: Request,
  ): Promise<void> {
    const current = await this.sessions.live(request);
    await this.identity.passwordReset.complete(
      token,
      password,
      commandContextOf(request, 'anonymous'),
      current?.sessionId,
    );
  }
}
