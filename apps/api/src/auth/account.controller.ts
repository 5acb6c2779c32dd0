// The signed-in user's own account (docs/console.md, Account): changing the password.
import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Identity } from '#identity';
import { commandContextOf } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { BrowserSessions } from './browser-sessions.service.js';
import { IDENTITY } from './identity.provider.js';
import { changePasswordRequest } from './sign-in-requests.js';
import { Credentials, Operation } from '../http/operation.decorator.js';

@Credentials('session')
@Controller('account')
export class AccountController {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly sessions: BrowserSessions,
  ) {}

  /**
   * 204: changed, and every other session of the user ended; 400 WRONG_PASSWORD or VALIDATION_FAILED; 429 when locked.
   */
  @Post('password')
  @HttpCode(204)
  @Operation({
    summary: "Change the signed-in user's password",
    responses: {
      400: "WRONG_PASSWORD, or VALIDATION_FAILED with the password policy's sentence",
      401: 'UNAUTHENTICATED',
    },
  })
  async changePassword(
    @Body(new ZodValidationPipe(changePasswordRequest)) body: z.output<typeof changePasswordRequest>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    const session = await this.sessions.signedIn(request);
    await this.identity.passwordChange.change(
      session.userId,
      session.sessionId,
      body,
      commandContextOf(request, `user:${session.userId}`),
    );
  }
}
