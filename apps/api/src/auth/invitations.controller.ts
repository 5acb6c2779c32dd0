// The invitation link's page calls (docs/console.md, Members): what the invitation is for, and accepting it,
// which registers the person with the password they chose and signs this browser in.
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Identity, InvitationDetails } from '#identity';
import { commandContextOf } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { BrowserSessions } from './browser-sessions.service.js';
import { IDENTITY } from './identity.provider.js';
import { TwoStepPolicy } from './two-step-policy.js';
import { acceptInvitationRequest, invitationTokenParameter } from './sign-in-requests.js';
import { Operation } from '../http/operation.decorator.js';
import { invitationAnswer } from './auth-responses.js';

@Controller('invitations')
export class InvitationsController {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly sessions: BrowserSessions,
    private readonly twoStepPolicy: TwoStepPolicy,
  ) {}

  /** 200 `{email, organizationName, expiresAt}`; 400 INVALID_TOKEN for an unknown, used or expired link. */
  @Get(':token')
  @Operation({ summary: 'What an invitation is for (organization, address), before it is accepted', answer: invitationAnswer, responses: { 400: 'INVALID_TOKEN: unknown, used or expired' } })
  async describe(
    @Param('token', new ZodValidationPipe(invitationTokenParameter)) token: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<InvitationDetails> {
    response.setHeader('Cache-Control', 'no-store');
    return this.identity.invitations.describe(token);
  }

  /** 204 and a session cookie; 400 INVALID_TOKEN, or VALIDATION_FAILED with the password policy's sentence (the link stays usable). */
  @Post('accept')
  @HttpCode(204)
  @Operation({ summary: 'Accept an invitation: create the account and join the organization', responses: { 400: 'INVALID_TOKEN, or VALIDATION_FAILED with the password policy\'s sentence' } })
  async accept(
    @Body(new ZodValidationPipe(acceptInvitationRequest)) { token, password }: z.output<typeof acceptInvitationRequest>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    // An organization that requires two-step sign-in has the new member set a factor up before anything else.
    const required = (userId: string) => this.twoStepPolicy.requiredAtSignIn(userId);
    const opened = await this.identity.invitations.accept(token, password, commandContextOf(request, 'anonymous'), required);
    // Whoever was signed in in this browser before is signed out: the browser is the invited person's now.
    await this.sessions.endCurrent(request);
    await this.sessions.begin(request, response, opened);
  }
}
