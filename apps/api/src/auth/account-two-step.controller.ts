// The signed-in user's second factors (docs/console.md, Account): the authenticator app, passkeys and
// recovery codes, set up, renamed and removed. A half-open session is not signed in here (BrowserSessions.live).
// Every change carries what confirms it (`password`, or `code` of the app or a recovery code; see
// changeConfirmation), so a session alone changes nothing, and the person is mailed about it.
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Session } from '#domain';
import type { Identity, SecondFactorsSummary } from '#identity';
import { commandContextOf } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { Credentials, Operation } from '../http/operation.decorator.js';
import {
  authenticatorAppStartAnswer,
  factorSetUpAnswer,
  passkeyRegistrationOptionsAnswer,
  recoveryCodesAnswer,
  twoStepAnswer,
} from './auth-responses.js';
import { BrowserSessions } from './browser-sessions.service.js';
import { IDENTITY } from './identity.provider.js';
import { TwoStepPolicy } from './two-step-policy.js';
import {
  authenticatorAppConfirmation,
  changeConfirmation,
  passkeyIdParameter,
  passkeyRegistrationRequest,
  passkeyRenameRequest,
} from './two-step-requests.js';

const signedInOnly = { 401: 'UNAUTHENTICATED: sign in first' };

export type TwoStepAnswer = SecondFactorsSummary & { requiredBy: { id: string; name: string }[] };

@Credentials('session')
@Controller('account/two-step')
export class AccountTwoStepController {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly sessions: BrowserSessions,
    private readonly policy: TwoStepPolicy,
  ) {}

  @Get()
  @Operation({
    summary: "The signed-in user's second factors, and the organizations that require them",
    answer: twoStepAnswer,
    responses: signedInOnly,
  })
  async summary(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<TwoStepAnswer> {
    response.setHeader('Cache-Control', 'no-store');
    const session = await this.sessions.signedIn(request);
    return {
      ...(await this.identity.twoStep.summary(session.userId)),
      requiredBy: this.policy.requiringOrganizations(session.userId),
    };
  }

  @Post('authenticator-app')
  @HttpCode(200)
  @Operation({
    summary: 'Start setting up an authenticator app: its secret, QR code and sealed setup',
    answer: authenticatorAppStartAnswer,
    responses: signedInOnly,
  })
  async startApp(@Req() request: Request, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    return this.identity.twoStep.startAuthenticatorApp(await this.sessions.signedIn(request));
  }

  @Put('authenticator-app')
  @HttpCode(200)
  @Operation({
    summary:
      'Finish setting up the app with its first code, confirmed by the password; a first factor comes with recovery codes, shown once',
    answer: factorSetUpAnswer,
    responses: { 400: 'INVALID_CODE, WRONG_PASSWORD', ...signedInOnly, 403: 'REAUTHENTICATION_REQUIRED' },
  })
  async confirmApp(
    @Body(new ZodValidationPipe(authenticatorAppConfirmation))
    { setup, code, password }: z.output<typeof authenticatorAppConfirmation>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ recoveryCodes: string[] | null }> {
    response.setHeader('Cache-Control', 'no-store');
    const session = await this.sessions.signedIn(request);
    const { recoveryCodes } = await this.identity.twoStep.confirmAuthenticatorApp(
      session,
      setup,
      code,
      this.context(request, session),
      { password },
    );
    return { recoveryCodes };
  }

  @Delete('authenticator-app')
  @HttpCode(204)
  @Operation({
    summary: 'Remove the authenticator app (body: password or code)',
    responses: {
      400: 'WRONG_PASSWORD, INVALID_CODE',
      ...signedInOnly,
      403: 'REAUTHENTICATION_REQUIRED',
      409: 'TWO_STEP_REQUIRED: an organization requires it and it is the last factor',
    },
  })
  async removeApp(
    @Body(new ZodValidationPipe(changeConfirmation)) confirmation: z.output<typeof changeConfirmation>,
    @Req() request: Request,
  ): Promise<void> {
    const session = await this.sessions.signedIn(request);
    await this.identity.twoStep.removeAuthenticatorApp(
      session,
      this.policy.requiredFor(session.userId),
      confirmation,
      this.context(request, session),
    );
  }

  @Post('passkeys/options')
  @HttpCode(200)
  @Operation({
    summary: 'WebAuthn options for registering a passkey, and their challenge, sealed',
    answer: passkeyRegistrationOptionsAnswer,
    responses: signedInOnly,
  })
  async passkeyRegistrationOptions(@Req() request: Request, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    return this.identity.twoStep.passkeyRegistrationOptions(await this.sessions.signedIn(request));
  }

  @Post('passkeys')
  @HttpCode(200)
  @Operation({
    summary:
      'Register a passkey, confirmed by the password or a code; a first factor comes with recovery codes, shown once',
    answer: factorSetUpAnswer,
    responses: {
      400: 'INVALID_CODE: the passkey or the code did not verify; WRONG_PASSWORD',
      ...signedInOnly,
      403: 'REAUTHENTICATION_REQUIRED',
    },
  })
  async registerPasskey(
    @Body(new ZodValidationPipe(passkeyRegistrationRequest)) body: z.output<typeof passkeyRegistrationRequest>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ recoveryCodes: string[] | null }> {
    response.setHeader('Cache-Control', 'no-store');
    const session = await this.sessions.signedIn(request);
    const registration = body.response as unknown as RegistrationResponseJSON;
    const confirmation = { password: body.password, code: body.code };
    const context = this.context(request, session);
    const { recoveryCodes } = await this.identity.twoStep.registerPasskey(
      session,
      body.registration,
      registration,
      body.name,
      context,
      confirmation,
    );
    return { recoveryCodes };
  }

  @Patch('passkeys/:passkeyId')
  @HttpCode(204)
  @Operation({
    summary: 'Rename a passkey (confirmed by the password or a code)',
    responses: { 400: 'WRONG_PASSWORD, INVALID_CODE', ...signedInOnly, 403: 'REAUTHENTICATION_REQUIRED' },
  })
  async renamePasskey(
    @Param('passkeyId', new ZodValidationPipe(passkeyIdParameter)) passkeyId: string,
    @Body(new ZodValidationPipe(passkeyRenameRequest)) { name, password, code }: z.output<typeof passkeyRenameRequest>,
    @Req() request: Request,
  ): Promise<void> {
    const session = await this.sessions.signedIn(request);
    await this.identity.twoStep.renamePasskey(
      session,
      passkeyId,
      name,
      { password, code },
      this.context(request, session),
    );
  }

  @Delete('passkeys/:passkeyId')
  @HttpCode(204)
  @Operation({
    summary: 'Remove a passkey (body: password or code)',
    responses: {
      400: 'WRONG_PASSWORD, INVALID_CODE',
      ...signedInOnly,
      403: 'REAUTHENTICATION_REQUIRED',
      409: 'TWO_STEP_REQUIRED: an organization requires it and it is the last factor',
    },
  })
  async removePasskey(
    @Param('passkeyId', new ZodValidationPipe(passkeyIdParameter)) passkeyId: string,
    @Body(new ZodValidationPipe(changeConfirmation)) confirmation: z.output<typeof changeConfirmation>,
    @Req() request: Request,
  ): Promise<void> {
    const session = await this.sessions.signedIn(request);
    await this.identity.twoStep.removePasskey(
      session,
      passkeyId,
      this.policy.requiredFor(session.userId),
      confirmation,
      this.context(request, session),
    );
  }

  @Post('recovery-codes')
  @HttpCode(200)
  @Operation({
    summary: 'Ten new recovery codes, shown once; the earlier ones stop working (body: password or code)',
    answer: recoveryCodesAnswer,
    responses: {
      400: 'WRONG_PASSWORD, INVALID_CODE',
      ...signedInOnly,
      403: 'REAUTHENTICATION_REQUIRED',
      409: 'NO_SECOND_FACTOR',
    },
  })
  async regenerateRecoveryCodes(
    @Body(new ZodValidationPipe(changeConfirmation)) confirmation: z.output<typeof changeConfirmation>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ recoveryCodes: string[] }> {
    response.setHeader('Cache-Control', 'no-store');
    const session = await this.sessions.signedIn(request);
    return {
      recoveryCodes: await this.identity.twoStep.regenerateRecoveryCodes(
        session,
        confirmation,
        this.context(request, session),
      ),
    };
  }

  private context(request: Request, session: Session) {
    return commandContextOf(request, `user:${session.userId}`);
  }
}
