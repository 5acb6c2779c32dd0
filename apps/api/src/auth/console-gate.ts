// Who may load the console's pages, for the page server (web/page-visitors.ts): `/` with a live session goes to
// the console; a console page without one to the login, which comes back here; a half-open session to its second
// step; a user who belongs to no organization to the seed's message for exactly that (`/login?error=account`).
import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ConsoleAnswer, PageVisitors } from '../web/page-visitors.js';
import { BrowserSessions } from './browser-sessions.service.js';
import { Memberships } from './memberships.service.js';
import { secondStepPage } from './two-step-policy.js';

const consolePath = '/app';
/** Console pages about an organization: a user who belongs to none is sent to the seed's 'account' message. */
const organizationPages = /^\/app(\/orgs(\/.*)?)?\/?$/;
/** /app/orgs/<id>/...: the organization the page shows. */
const organizationPage = /^\/app\/orgs\/([^/]+)/;

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

@Injectable()
export class ConsoleGate implements PageVisitors {
  constructor(
    private readonly sessions: BrowserSessions,
    private readonly memberships: Memberships,
  ) {}

  async consoleAnswer(request: Request): Promise<ConsoleAnswer> {
    const session = await this.sessions.live(request);
    // A half-open session (right password, second step to go) is signed out here too: its way in is the second step.
    if (session === undefined && (await this.sessions.halfOpen(request)) !== undefined)
      return { redirect: secondStepPage(request.originalUrl) };
    if (request.path === '/') return session === undefined ? { page: 'spa' } : { redirect: consolePath };
    if (session === undefined) return { redirect: `/login?redirect=${encodeURIComponent(request.originalUrl)}` };
    const inPath = organizationPage.exec(request.path)?.[1];
    if (!organizationPages.test(request.path)) return { page: 'console', organizationId: undefined };
    const memberships = await this.memberships.of(session.userId);
    if (memberships.length === 0) return { redirect: '/login?error=account' };
    // /app shows the only organization's overview: its read is the page's first, as under /app/orgs/<id>.
    const only = memberships.length === 1 ? memberships[0]?.organizationId : undefined;
    return { page: 'console', organizationId: inPath === undefined ? only : decoded(inPath) };
  }

  issueXsrf(request: Request, response: Response): void {
    this.sessions.issueXsrf(request, response);
  }
}
