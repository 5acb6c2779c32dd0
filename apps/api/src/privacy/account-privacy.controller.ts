// The signed-in person's own data (docs/privacy.md): GET /account/export, their copy; DELETE /account, forgetting
// them, proved as a change of factors is and answered once this node shows the person nowhere.
import { Body, Controller, Delete, Get, HttpCode, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Identity } from '#identity';
import { BrowserSessions } from '../auth/browser-sessions.service.js';
import { IDENTITY } from '../auth/identity.provider.js';
import { Credentials, Operation } from '../http/operation.decorator.js';
import { ProblemError } from '../http/problem-error.js';
import { commandContextOf } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { PersonalDataErasure } from './personal-data-erasure.js';
import { PersonalDataExport, type PersonalDataCopy } from './personal-data-export.js';

/** GET /account/export (PersonalDataCopy): never a secret. */
const personalDataCopyAnswer = z.object({
  exportedAt: z.string(),
  account: z.object({
    userId: z.string(),
    email: z.string(),
    username: z.string().nullable(),
    googleLinked: z.boolean(),
    ssoOrganizationIds: z.array(z.string()),
    hasPassword: z.boolean(),
  }),
  organizations: z.array(z.object({ id: z.string(), name: z.string(), role: z.string() })),
  sessions: z.array(
    z.object({
      method: z.string(),
      startedAt: z.string(),
      lastActiveAt: z.string(),
      expiresAt: z.string(),
      userAgent: z.string().nullable(),
    }),
  ),
  secondFactors: z.object({
    authenticatorApp: z.object({ setUpAt: z.string() }).nullable(),
    passkeys: z.array(z.object({ name: z.string(), registeredAt: z.string(), lastUsedAt: z.string().nullable() })),
    recoveryCodes: z.object({ generatedAt: z.string(), unused: z.int() }).nullable(),
  }),
  events: z.array(z.looseObject({ type: z.string(), at: z.string(), data: z.record(z.string(), z.unknown()) })),
  signInAttempts: z.array(z.looseObject({ type: z.string(), at: z.string() })),
  invitations: z.array(z.object({ type: z.string(), at: z.string(), data: z.record(z.string(), z.unknown()) })),
  membershipChanges: z.array(
    z.object({
      organizationId: z.string(),
      type: z.string(),
      at: z.string(),
      actor: z.string(),
      data: z.record(z.string(), z.unknown()),
    }),
  ),
  directoryRecords: z.array(
    z.object({ organizationId: z.string(), record: z.record(z.string(), z.unknown()), groups: z.array(z.string()) }),
  ),
  joinRefusals: z.array(z.object({ organizationId: z.string(), domain: z.string(), on: z.string() })),
});

export const deleteAccountRequest = z.strictObject({
  password: z.string().max(4096).optional(),
  code: z.string().max(64).optional(),
});

@Credentials('session')
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
  @Operation({
    summary: 'Download my data: everything Chorus holds about me, as JSON',
    answer: personalDataCopyAnswer,
    responses: { 401: 'UNAUTHENTICATED' },
  })
  async export(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<PersonalDataCopy> {
    response.setHeader('Cache-Control', 'no-store');
    const session = await this.sessions.signedIn(request);
    const copy = await this.copies.of(session.userId);
    if (copy === undefined) throw new ProblemError(401, 'UNAUTHENTICATED', 'Authentication required', 'Sign in first.');
    response.setHeader('Content-Disposition', 'attachment; filename="chorus-my-data.json"');
    return copy;
  }

  /**
   * 204, every session ended and the cookie cleared; 400 WRONG_PASSWORD / INVALID_CODE; 409 LAST_OWNER naming the
   * organizations.
   */
  @Delete()
  @HttpCode(204)
  @Operation({
    summary: 'Delete my account: forget my personal data',
    description:
      'Body `{password}` (or, for an account without one, `{code}` of its second factor). Every membership ends, every session ends, ' +
      'and the address, username and names read as "Erased person" everywhere, for good. 409 LAST_OWNER while you are the last owner of an organization.',
    responses: {
      400: 'WRONG_PASSWORD or INVALID_CODE',
      401: 'UNAUTHENTICATED',
      409: 'LAST_OWNER, naming the organizations',
    },
  })
  async erase(
    @Body(new ZodValidationPipe(deleteAccountRequest)) body: z.output<typeof deleteAccountRequest>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    const session = await this.sessions.signedIn(request);
    const context = commandContextOf(request, `user:${session.userId}`);
    await this.identity.twoStep.proveIdentity(session, body, context);
    await this.erasure.erase(session.userId, context);
    this.sessions.end(request, response);
  }
}
