// The second step of a password sign-in, for a half-open session only (docs/api.md, Two-step sign-in): what
// it needs, a code (authenticator app or recovery code), a passkey; or, when an organization requires two-step
// sign-in of someone without a factor, setting up the first one. Passing it replaces the half-open session by
// a full one under a new cookie. Which half-open session may do what (prove, or set up) is TwoStep's to say.
import { Body, Controller, Get, HttpCode, Inject, Post, Put, Req, Res } from '@nestjs/common';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Session } from '#domain';
import type { Identity, OpenedSession } from '#identity';
import { ProblemError } from '../http/problem-error.js';
import { commandContextOf } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { Credentials, Operation } from '../http/operation.decorator.js';
import {
  authenticatorAppStartAnswer,
  factorSetUpAnswer,
  passkeyRegistrationOptionsAnswer,
  passkeySignInOptionsAnswer,
  secondStepStatusAnswer,
} from './auth-responses.js';
import { BrowserSessions } from './browser-sessions.service.js';
import { IDENTITY } from './identity.provider.js';
import { TwoStepPolicy } from './two-step-policy.js';
import {
  authenticatorAppConfirmation,
  passkeyRegistrationRequest,
  passkeySignInRequest,
  secondStepCodeRequest,
} from './two-step-requests.js';

const halfOpenOnly = { 401: 'UNAUTHENTICATED: no half-open session in this browser' };

export type SecondStepStatus = {
  /** second-step: prove a factor; enrolment: set one up first (an organization requires it). */
  awaiting: 'second-step' | 'enrolment';
  email: string;
  methods: { authenticatorApp: boolean; passkeys: number; recoveryCodes: number };
  /** The organizations that require it (enrolment only), so the page can say why. */
  requiredBy: string[];
};

const noSecondStep = () =>
  new ProblemError(
    401,
    'UNAUTHENTICATED',
    'Authentication required',
    'No sign-in is waiting for a second step here: sign in again.',
  );

@Credentials('session')
@Controller('session/second-step')
export class SecondStepController {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly sessions: BrowserSessions,
    private readonly policy: TwoStepPolicy,
  ) {}

  @Get()
  @Operation({
    summary: 'What the half-open session of this browser needs: a second step, or setting up a first factor',
    answer: secondStepStatusAnswer,
    responses: halfOpenOnly,
  })
  async status(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<SecondStepStatus> {
    response.setHeader('Cache-Control', 'no-store');
    const half = await this.halfOpen(request);
    const { state } = await this.identity.users.load(half.userId);
    if (state.status !== 'registered') throw noSecondStep();
    const { authenticatorApp, passkeys, recoveryCodes } = state.secondFactors;
    return {
      awaiting: half.awaiting === 'enrolment' ? 'enrolment' : 'second-step',
      email: state.email,
      methods: {
        authenticatorApp: authenticatorApp !== null,
        passkeys: passkeys.length,
        recoveryCodes: recoveryCodes?.unused.length ?? 0,
      },
      requiredBy:
        half.awaiting === 'enrolment' ? (await this.policy.requiringAtSignIn(half.userId)).map(({ name }) => name) : [],
    };
  }

  @Post('code')
  @HttpCode(204)
  @Operation({
    summary: 'Pass the second step with a code from the authenticator app, or a recovery code',
    responses: {
      400: 'INVALID_CODE, or CODE_ALREADY_USED for a code of a time step used already',
      ...halfOpenOnly,
      429: 'RATE_LIMITED',
    },
  })
  async code(
    @Body(new ZodValidationPipe(secondStepCodeRequest)) { code }: z.output<typeof secondStepCodeRequest>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const half = await this.halfOpen(request);
    await this.begin(
      request,
      response,
      await this.identity.twoStep.passWithCode(half, code, this.context(request, half)),
    );
  }

  @Post('passkey/options')
  @HttpCode(200)
  @Operation({
    summary: "WebAuthn options for signing in with one of the account's passkeys, and their challenge, sealed",
    answer: passkeySignInOptionsAnswer,
    responses: halfOpenOnly,
  })
  async passkeyOptions(@Req() request: Request, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    return this.identity.twoStep.passkeySignInOptions(await this.halfOpen(request));
  }

  @Post('passkey')
  @HttpCode(204)
  @Operation({
    summary: 'Pass the second step with a passkey',
    responses: { 400: 'INVALID_CODE: the passkey did not verify', ...halfOpenOnly, 429: 'RATE_LIMITED' },
  })
  async passkey(
    @Body(new ZodValidationPipe(passkeySignInRequest)) body: z.output<typeof passkeySignInRequest>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const half = await this.halfOpen(request);
    const assertion = body.response as unknown as AuthenticationResponseJSON;
    await this.begin(
      request,
      response,
      await this.identity.twoStep.passWithPasskey(half, body.challenge, assertion, this.context(request, half)),
    );
  }

  @Post('authenticator-app')
  @HttpCode(200)
  @Operation({
    summary: 'Start setting up an authenticator app (enrolment): its secret, QR code and sealed setup',
    answer: authenticatorAppStartAnswer,
    responses: halfOpenOnly,
  })
  async startApp(@Req() request: Request, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    return this.identity.twoStep.startAuthenticatorApp(await this.halfOpen(request));
  }

  @Put('authenticator-app')
  @HttpCode(200)
  @Operation({
    summary:
      'Finish setting up the app with its first code: the sign-in completes; the answer holds the recovery codes, shown once',
    answer: factorSetUpAnswer,
    responses: { 400: 'INVALID_CODE', ...halfOpenOnly },
  })
  async confirmApp(
    @Body(new ZodValidationPipe(authenticatorAppConfirmation))
    { setup, code }: z.output<typeof authenticatorAppConfirmation>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ recoveryCodes: string[] | null }> {
    response.setHeader('Cache-Control', 'no-store');
    const half = await this.halfOpen(request);
    const { recoveryCodes, opened } = await this.identity.twoStep.confirmAuthenticatorApp(
      half,
      setup,
      code,
      this.context(request, half),
    );
    if (opened !== undefined) await this.begin(request, response, opened);
    return { recoveryCodes };
  }

  @Post('passkeys/options')
  @HttpCode(200)
  @Operation({
    summary: 'WebAuthn options for registering a first passkey (enrolment), and their challenge, sealed',
    answer: passkeyRegistrationOptionsAnswer,
    responses: halfOpenOnly,
  })
  async passkeyRegistrationOptions(@Req() request: Request, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    return this.identity.twoStep.passkeyRegistrationOptions(await this.halfOpen(request));
  }

  @Post('passkeys')
  @HttpCode(200)
  @Operation({
    summary:
      'Register a first passkey (enrolment): the sign-in completes; the answer holds the recovery codes, shown once',
    answer: factorSetUpAnswer,
    responses: { 400: 'INVALID_CODE: the passkey did not verify', ...halfOpenOnly },
  })
  async registerPasskey(
    @Body(new ZodValidationPipe(passkeyRegistrationRequest)) body: z.output<typeof passkeyRegistrationRequest>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ recoveryCodes: string[] | null }> {
    response.setHeader('Cache-Control', 'no-store');
    const half = await this.halfOpen(request);
    const response_ = body.response as unknown as RegistrationResponseJSON;
    const { recoveryCodes, opened } = await this.identity.twoStep.registerPasskey(
      half,
      body.registration,
      response_,
      body.name,
      this.context(request, half),
    );
    if (opened !== undefined) await this.begin(request, response, opened);
    return { recoveryCodes };
  }

  private async halfOpen(request: Request): Promise<Session> {
    const half = await this.sessions.halfOpen(request);
    if (half === undefined) throw noSecondStep();
    return half;
  }

  private context(request: Request, half: Session) {
    return commandContextOf(request, `user:${half.userId}`);
  }

  private async begin(request: Request, response: Response, opened: OpenedSession): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    await this.sessions.begin(request, response, opened);
  }
}
