// POST /two-step-reset and /two-step-reset/validity: the person agrees to an owner's request to reset their second
// factors, through the link mailed to them (OwnerResets), on the page /two-step-reset/:token. Signed out, as
// someone who lost their phone is; the password of the account is the proof beside the mailbox.
import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Identity } from '#identity';
import { READ_MODELS, type ReadModels } from '#read-models';
import { commandContextOf } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { Credentials, Operation } from '../http/operation.decorator.js';
import { twoStepResetValidityAnswer } from './auth-responses.js';
import { IDENTITY } from './identity.provider.js';

const validityRequest = z.strictObject({ token: z.string().max(200) });
const confirmRequest = z.strictObject({ token: z.string().max(200), password: z.string().min(1).max(4096).optional() });

export type TwoStepResetValidity =
  { valid: false } | { valid: true; organizationName: string; passwordRequired: boolean };

@Credentials('none')
@Controller('two-step-reset')
export class TwoStepResetController {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  @Post('validity')
  @HttpCode(200)
  @Operation({
    summary:
      "Whether a link to agree to an owner's reset of your second factors still works, who asked, and whether the password is needed",
    answer: twoStepResetValidityAnswer,
  })
  async validity(
    @Body(new ZodValidationPipe(validityRequest)) { token }: z.output<typeof validityRequest>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TwoStepResetValidity> {
    response.setHeader('Cache-Control', 'no-store');
    const status = await this.identity.ownerResets.status(token);
    if (!status.valid) return { valid: false };
    return {
      valid: true,
      organizationName: this.organizationName(status.organizationId),
      passwordRequired: status.passwordRequired,
    };
  }

  @Post()
  @HttpCode(204)
  @Operation({
    summary: "Agree to an owner's reset of your second factors: every factor and recovery code is removed",
    responses: { 400: 'INVALID_TOKEN: unknown, used or expired; WRONG_PASSWORD', 429: 'RATE_LIMITED' },
  })
  async confirm(
    @Body(new ZodValidationPipe(confirmRequest)) { token, password }: z.output<typeof confirmRequest>,
    @Req() request: Request,
  ): Promise<void> {
    await this.identity.ownerResets.confirm(
      token,
      password,
      (id) => this.organizationName(id),
      commandContextOf(request, 'anonymous'),
    );
  }

  private organizationName(organizationId: string): string {
    return this.readModels.organizations.getOrganization(organizationId)?.view.name ?? organizationId;
  }
}
