// The XSRF binding: the session id when the request holds a session cookie we signed, else its pre-session id.
import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Session } from '#domain';
import type { Identity, OpenedSession, XsrfBinding } from '#identity';
import { ProblemError } from '../http/problem-error.js';
import { commandContextOf } from '../http/request-context.js';
import { AuthCookies } from './auth-cookies.js';
import { IDENTITY } from './identity.provider.js';
import { SIGN_IN_JOINS, type SignInJoins } from './sign-in-joins.js';

@Injectable()
export class BrowserSessions {
  private readonly resolved = new WeakMap<Request, Promise<Session | undefined>>();

  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly cookies: AuthCookies,
    @Optional() @Inject(SIGN_IN_JOINS) private readonly joins?: SignInJoins,
  ) {}

  /** A half-open session (second step not passed) is not one: every page and call but the second step's asks here. */
  async live(request: Request): Promise<Session | undefined> {
    const session = await this.any(request);
    return session?.awaiting === null ? session : undefined;
  }

  /** The request's fully signed-in session, or 401 UNAUTHENTICATED. */
  async signedIn(request: Request): Promise<Session> {
    const session = await this.live(request);
    if (session === undefined)
      throw new ProblemError(401, 'UNAUTHENTICATED', 'Authentication required', 'Sign in first.');
    return session;
  }

  async halfOpen(request: Request): Promise<Session | undefined> {
    const session = await this.any(request);
    return session !== undefined && session.awaiting !== null ? session : undefined;
  }

  private any(request: Request): Promise<Session | undefined> {
    let session = this.resolved.get(request);
    if (session === undefined) {
      session = this.identity.sessions.resolve(this.cookies.read(request, this.cookies.session));
      this.resolved.set(request, session);
    }
    return session;
  }

  /** A sign-in never leaves the session it replaces behind. */
  async endCurrent(request: Request): Promise<void> {
    const current = await this.any(request);
    if (current !== undefined)
      await this.identity.sessions.close(current, commandContextOf(request, `user:${current.userId}`));
  }

  xsrfBinding(request: Request): XsrfBinding | undefined {
    const sessionId = this.identity.sessionCookies.sessionIdOf(this.cookies.read(request, this.cookies.session));
    return sessionId !== undefined ? { kind: 'session', id: sessionId } : this.preSessionOf(request);
  }

  issueXsrf(request: Request, response: Response): void {
    this.cookies.setXsrf(
      response,
      this.identity.xsrf.issue(this.xsrfBinding(request) ?? this.startPreSession(response)),
    );
  }

  /**
   * Sets the session's cookies; a full session (no second step awaited) first joins what the person's address lets them
   * join.
   */
  async begin(request: Request, response: Response, opened: OpenedSession): Promise<void> {
    const { session } = opened;
    if (session.awaiting === null)
      await this.joins?.afterSignIn(session.userId, commandContextOf(request, `user:${session.userId}`));
    this.cookies.set(response, this.cookies.session, opened.cookieValue);
    this.cookies.setXsrf(response, this.identity.xsrf.issue({ kind: 'session', id: session.sessionId }));
  }

  end(request: Request, response: Response): void {
    this.cookies.clear(response, this.cookies.session);
    this.cookies.setXsrf(
      response,
      this.identity.xsrf.issue(this.preSessionOf(request) ?? this.startPreSession(response)),
    );
  }

  private preSessionOf(request: Request): XsrfBinding | undefined {
    const id = this.cookies.read(request, this.cookies.preSession);
    return id !== undefined && /^[A-Za-z0-9_-]{43}$/.test(id) ? { kind: 'pre-session', id } : undefined;
  }

  private startPreSession(response: Response): XsrfBinding {
    const id = randomBytes(32).toString('base64url');
    this.cookies.set(response, this.cookies.preSession, id);
    return { kind: 'pre-session', id };
  }
}
