// GET /session (docs/api.md, Sign-in), and the signed-in user's own sessions: list and revoke.
import { Controller, Delete, Get, HttpCode, Inject, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Session } from '#domain';
import type { Identity } from '#identity';
import { commandContextOf } from '../http/request-context.js';
import { ProblemError } from '../http/problem-error.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { BrowserSessions } from './browser-sessions.service.js';
import { IDENTITY } from './identity.provider.js';
import { Memberships } from './memberships.service.js';
import { sessionIdParameter } from './sign-in-requests.js';
import { Credentials, Operation } from '../http/operation.decorator.js';
import { sessionAnswer, sessionsAnswer } from './auth-responses.js';

export type SessionAnswer = {
  user: { id: string; email: string; username: string | null };
  organizations: { id: string; name: string; role: string }[];
};

const unauthenticated = () => new ProblemError(401, 'UNAUTHENTICATED', 'Authentication required', 'Sign in first.');

@Credentials('session')
@Controller()
export class SessionController {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly sessions: BrowserSessions,
    private readonly memberships: Memberships,
  ) {}

  @Get('session')
  @Operation({
    summary: 'The signed-in user and their organizations',
    answer: sessionAnswer,
    responses: { 401: 'UNAUTHENTICATED' },
  })
  async session(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<SessionAnswer> {
    response.setHeader('Cache-Control', 'no-store');
    const session = await this.signedIn(request);
    const user = await this.identity.directory.profile(session.userId);
    if (user === undefined) throw unauthenticated();
    return {
      user: { id: user.id, email: user.email, username: user.username },
      organizations: (await this.memberships.of(user.id)).map(({ organizationId, name, role }) => ({
        id: organizationId,
        name,
        role,
      })),
    };
  }

  @Get('sessions')
  @Operation({
    summary: "The signed-in user's open sessions",
    answer: sessionsAnswer,
    responses: { 401: 'UNAUTHENTICATED' },
  })
  async list(@Req() request: Request, @Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    const current = await this.signedIn(request);
    const sessions = await this.identity.sessions.listForUser(current.userId);
    return {
      sessions: sessions.map(
        ({ sessionId, method, startedAt, lastActiveAt, absoluteExpiresAt, userAgent, awaiting }) => ({
          id: sessionId,
          method,
          // The password was right there, the second step is not passed (yet): signing it out stops that sign-in.
          secondStepPending: awaiting !== null,
          startedAt,
          lastActiveAt,
          expiresAt: absoluteExpiresAt,
          userAgent,
          current: sessionId === current.sessionId,
        }),
      ),
    };
  }

  /** "Sign out everywhere else": every live session of the user but this one. */
  @Delete('sessions')
  @HttpCode(204)
  @Operation({ summary: 'End every session of the signed-in user but this one', responses: { 401: 'UNAUTHENTICATED' } })
  async revokeOthers(@Req() request: Request): Promise<void> {
    const current = await this.signedIn(request);
    await this.identity.sessions.revokeOthers(
      current.userId,
      current.sessionId,
      commandContextOf(request, `user:${current.userId}`),
    );
  }

  @Delete('sessions/:sessionId')
  @HttpCode(204)
  @Operation({
    summary: 'End one session of the signed-in user',
    responses: { 401: 'UNAUTHENTICATED', 404: 'NOT_FOUND: no live session of yours with this id' },
  })
  async revoke(
    @Param('sessionId', new ZodValidationPipe(sessionIdParameter)) sessionId: string,
    @Req() request: Request,
  ): Promise<void> {
    const current = await this.signedIn(request);
    const revoked = await this.identity.sessions.revoke(
      current.userId,
      sessionId,
      commandContextOf(request, `user:${current.userId}`),
    );
    if (!revoked) throw new ProblemError(404, 'NOT_FOUND', 'Not found', 'You have no live session with this id.');
  }

  private async signedIn(request: Request): Promise<Session> {
    const session = await this.sessions.live(request);
    if (session === undefined) throw unauthenticated();
    return session;
  }
}
