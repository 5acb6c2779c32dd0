// The invitation link's page calls (docs/console.md, Members): what the invitation is for, and accepting it,
// which registers the person with the password they chose and signs this browser in.
import { Body, Controller, Get, HttpCode, Inject, Optional, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { invalidInvitation, type DescribedInvitation, type Identity, type InvitationDetails } from '#identity';
import { ProblemError } from '../http/problem-error.js';
import { commandContextOf } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { Organizations } from '../organizations/organizations.service.js';
import { BrowserSessions } from './browser-sessions.service.js';
import { IDENTITY } from './identity.provider.js';
import { PASSWORD_GATE, ssoSignOnPath, type PasswordGate } from './password-gate.js';
import { TwoStepPolicy } from './two-step-policy.js';
import { acceptInvitationRequest, invitationTokenParameter } from './sign-in-requests.js';
import { Credentials, Operation } from '../http/operation.decorator.js';
import { invitationAnswer } from './auth-responses.js';

@Credentials('none')
@Controller('invitations')
export class InvitationsController {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly sessions: BrowserSessions,
    private readonly twoStepPolicy: TwoStepPolicy,
    private readonly organizations: Organizations,
    @Optional() @Inject(PASSWORD_GATE) private readonly passwordGate?: PasswordGate,
  ) {}

  /**
   * 200 `{email, organizationName, expiresAt, singleSignOn}`; 400 INVALID_TOKEN for an unknown, used or expired link.
   */
  @Get(':token')
  @Operation({
    summary: 'What an invitation is for (organization, address), before it is accepted',
    answer: invitationAnswer,
    responses: { 400: 'INVALID_TOKEN: unknown, used or expired' },
  })
  async describe(
    @Param('token', new ZodValidationPipe(invitationTokenParameter)) token: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<InvitationDetails & { singleSignOn: string | null }> {
    response.setHeader('Cache-Control', 'no-store');
    const { email, organizationName, expiresAt } = await this.standing(token);
    return { email, organizationName, expiresAt, singleSignOn: (await this.singleSignOnOf(email)) ?? null };
  }

  /**
   * A link is good only while the membership it came with stands: removed by an owner or by the company's directory
   * before accepting, the person is no longer invited (it made their account and opened a session all the same).
   */
  private async standing(token: string): Promise<DescribedInvitation> {
    const invitation = await this.identity.invitations.describe(token);
    const { state } = await this.organizations.load(invitation.organizationId);
    if (!state.exists || !state.members.has(invitation.userId)) {
      throw invalidInvitation();
    }
    return invitation;
  }

  /** Where an address that must sign in through an organization's single sign-on joins instead (docs/directory.md). */
  private async singleSignOnOf(email: string): Promise<string | undefined> {
    const organizationId = await this.passwordGate?.enforcingOrganizationOf(email);
    return organizationId === undefined ? undefined : ssoSignOnPath(organizationId, '/app');
  }

  /**
   * 204 and a session cookie; 400 INVALID_TOKEN, or VALIDATION_FAILED with the password policy's sentence (the link
   * stays usable).
   */
  @Post('accept')
  @HttpCode(204)
  @Operation({
    summary: 'Accept an invitation: create the account and join the organization',
    responses: {
      400: "INVALID_TOKEN, or VALIDATION_FAILED with the password policy's sentence",
      409: 'SSO_REQUIRED: the address signs in through enforced single sign-on',
    },
  })
  async accept(
    @Body(new ZodValidationPipe(acceptInvitationRequest)) { token, password }: z.output<typeof acceptInvitationRequest>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    // A password the person could never use: enforced single sign-on is the way in, for invitees too.
    const { email, organizationName } = await this.standing(token);
    const singleSignOn = await this.singleSignOnOf(email);
    if (singleSignOn !== undefined) {
      const detail = `${organizationName} signs ${email} in through its single sign-on: join there instead of choosing a password.`;
      throw new ProblemError(409, 'SSO_REQUIRED', 'Single sign-on is the way in', detail, { singleSignOn });
    }
    // An organization that requires two-step sign-in has the new member set a factor up before anything else.
    const required = (userId: string) => this.twoStepPolicy.requiredAtSignIn(userId);
    const opened = await this.identity.invitations.accept(
      token,
      password,
      commandContextOf(request, 'anonymous'),
      required,
    );
    // Whoever was signed in in this browser before is signed out: the browser is the invited person's now.
    await this.sessions.endCurrent(request);
    await this.sessions.begin(request, response, opened);
  }
}
