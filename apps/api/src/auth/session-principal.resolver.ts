import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from '../access/principal.js';
import { PrincipalResolverProvider, type PrincipalResolver } from '../access/principal-resolver.js';
import { BrowserSessions } from './browser-sessions.service.js';

/** A signed-in browser: its session cookie names a live session (asked after API keys). */
@PrincipalResolverProvider({ order: 20 })
@Injectable()
export class SessionPrincipalResolver implements PrincipalResolver {
  constructor(private readonly sessions: BrowserSessions) {}

  async resolve(request: Request): Promise<Principal | undefined> {
    const session = await this.sessions.live(request);
    return session === undefined ? undefined : { kind: 'user', userId: session.userId, sessionId: session.sessionId };
  }
}
