// The signed-in person's own data (docs/privacy.md): GET /account/export, their copy; DELETE /account, forgetting
// them, proved as a change of factors is and answered once this node shows the person nowhere.
import { Body, Controller, Delete, Get, HttpCode, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Identity } from '#identity';
import { BrowserSessions } from '../auth/browser-sessions.service.js';
import { IDENTITY } from '../auth/identity.provider.js';
import { Operation } from '../http/operation.decorator.js';
import { ProblemError } from '../http/problem-error.js';
import { commandContextOf } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { PersonalDataErasure } from './personal-data-erasure.js';
import { PersonalDataExport, type PersonalDataCopy } from './personal-data-export.js';

export const deleteAccountRequest = z.strictObject({
  password: z.string().max(4096).optional(),
  code: z.string().max(64).optional(),
});

@Controller('account')
export class AccountPrivacyController {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly sessions: BrowserSessions,
    private readonly erasure: PersonalDataErasure,
    private readonly copies: PersonalDataExport,
  ) {}

  /** 200, a download: every fact Chorus holds about the signed-in person, never a secret. */
  @Get('export')
  @Operation({ summary: 'Download my data: everything Chorus holds about me, as JSON' })
  async export(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<PersonalDataCopy> {
    response.setHeader('Cache-Control', 'no-store');
    const session = await this.sessions.live(request);
    if (session === undefined) throw new ProblemError(401, 'UNAUTHENTICATED', 'Authentication required', 'Sign in first.');
    const copy = await this.copies.of(session.userId);
    if (copy === undefined) throw new ProblemError(401, 'UNAUTHENTICATED', 'Authentication required', 'Sign in first.');
    response.setHeader('Content-Disposition', 'attachment; filename="chorus-my-data.json"');
    return copy;
  }

  /** 204, every session ended and the cookie cleared; 400 WRONG_PASSWORD / INVALID_CODE; 409 LAST_OWNER naming the organizations. */
  @Delete()
  @HttpCode(204)
  @Operation({
    summary: 'Delete my account: forget my personal data',
    description:
      'Body `{password}` (or, for an account without one, `{code}` of its second factor). Every membership ends, every session ends, ' +
      'and the address, username and names read as "Erased person" everywhere, for good. 409 LAST_OWNER while you are the last owner of an organization.',
  })
  async erase(
    @Body(new ZodValidationPipe(deleteAccountRequest)) body: z.output<typeof deleteAccountRequest>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    const session = await this.sessions.live(request);
    if (session === undefined) throw new ProblemError(401, 'UNAUTHENTICATED', 'Authentication required', 'Sign in first.');
    const context = commandContextOf(request, `user:${session.userId}`);
    await this.identity.twoStep.proveIdentity(session, body, context);
    await this.erasure.erase(session.userId, context);
    this.sessions.end(request, response);
  }
}
