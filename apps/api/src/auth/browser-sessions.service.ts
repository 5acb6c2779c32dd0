// The session a browser request carries, resolved once per request, and the XSRF binding of its
// cookies: the session id when it holds a session cookie we signed, else its pre-session id.
import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Session } from '#domain';
import type { Identity, OpenedSession, XsrfBinding } from '#identity';
import { commandContextOf } from '../http/request-context.js';
import { AuthCookies } from './auth-cookies.js';
import { IDENTITY } from './identity.provider.js';

@Injectable()
export class BrowserSessions {
  private readonly resolved = new WeakMap<Request, Promise<Session | undefined>>();

  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly cookies: AuthCookies,
  ) {}

  /**
   * The signed-in session of the request, if any (idle timeout slid forward). A half-open session (the
   * password was right, the second step is not passed) is not one: every page and call but the second step's
   * answers it as signed out, because they all ask here.
   */
  async live(request: Request): Promise<Session | undefined> {
    const session = await this.any(request);
    return session?.awaiting === null ? session : undefined;
  }

  /** The half-open session of the request, for the second step's calls only. */
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

  /** Signs out the session the request carries, if live or half open: a sign-in never leaves the one it replaces behind. */
  async endCurrent(request: Request): Promise<void> {
    const current = await this.any(request);
    if (current !== undefined) await this.identity.sessions.close(current, commandContextOf(request, `user:${current.userId}`));
  }

  /** What this browser's XSRF token must be bound to; undefined when it has neither cookie. */
  xsrfBinding(request: Request): XsrfBinding | undefined {
    const sessionId = this.identity.sessionCookies.sessionIdOf(this.cookies.read(request, this.cookies.session));
    return sessionId !== undefined ? { kind: 'session', id: sessionId } : this.preSessionOf(request);
  }

  /** Sets a fresh XSRF-TOKEN for this browser, giving it a pre-session first when it has no cookie to bind to. */
  issueXsrf(request: Request, response: Response): void {
    this.cookies.setXsrf(response, this.identity.xsrf.issue(this.xsrfBinding(request) ?? this.startPreSession(response)));
  }

  /** After sign-in: the new session's cookie, and an XSRF token bound to it. */
  begin(response: Response, opened: OpenedSession): void {
    this.cookies.set(response, this.cookies.session, opened.cookieValue);
    this.cookies.setXsrf(response, this.identity.xsrf.issue({ kind: 'session', id: opened.session.sessionId }));
  }

  /** After sign-out: no session cookie, and an XSRF token bound to the pre-session again. */
  end(request: Request, response: Response): void {
    this.cookies.clear(response, this.cookies.session);
    this.cookies.setXsrf(response, this.identity.xsrf.issue(this.preSessionOf(request) ?? this.startPreSession(response)));
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
