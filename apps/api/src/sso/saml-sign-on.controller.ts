// The service provider's side of SAML per organization: its metadata (whose URL is its entity id) and its assertion
// consumer service. The identity provider POSTs cross-site, where no Lax or Strict cookie is sent: the ACS needs no
// XSRF token and no session cookie; it trusts the signed response and the request kept in the store (saml-sign-on.ts),
// and over https the request's own SameSite=None cookie, which binds it to the browser that started it.
import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthCookies } from '../auth/auth-cookies.js';
import { BrowserSessions } from '../auth/browser-sessions.service.js';
import { commandContextOf } from '../http/request-context.js';
import { organizationIdSchema } from '../http/organization-ids.js';
import { z } from 'zod';
import { Credentials, Operation, textAnswer } from '../http/operation.decorator.js';
import { ProblemError } from '../http/problem-error.js';
import { SamlSignOn } from './saml-sign-on.service.js';
import { SsoSignOnEnding } from './sso-sign-on-ending.js';
import { SsoSignOnFailure } from './sso-sign-on-failure.error.js';

@Credentials('none')
@Controller('auth/saml/:orgId')
export class SamlSignOnController {
  constructor(
    private readonly saml: SamlSignOn,
    private readonly sessions: BrowserSessions,
    private readonly ending: SsoSignOnEnding,
    private readonly cookies: AuthCookies,
  ) {}

  @Get('metadata')
  @Operation({
    summary:
      "This organization's SAML service provider metadata: its URL is the entity id, and it names the assertion consumer service",
    answer: textAnswer('application/samlmetadata+xml'),
    responses: { 404: 'NOT_FOUND: not an organization id' },
  })
  async metadata(@Param('orgId') organizationId: string, @Res() response: Response): Promise<void> {
    if (!organizationIdSchema.safeParse(organizationId).success)
      throw new ProblemError(404, 'NOT_FOUND', 'Not found', 'No such organization.');
    const metadata = await this.saml.serviceProviderMetadata(organizationId);
    response.setHeader('Cache-Control', 'public, max-age=300');
    response.type('application/samlmetadata+xml').send(metadata);
  }

  @Post('acs')
  @Operation({
    summary:
      "The assertion consumer service (HTTP-POST binding): checks the identity provider's response and signs the person in",
    description:
      'A form with `SAMLResponse` (and `RelayState`). Signed Response or signed Assertion; audience, recipient, destination, times (60 s skew), the request answered once and the assertion accepted once, on every node.',
    body: z.object({ SAMLResponse: z.string().describe('The base64 Response'), RelayState: z.string().optional() }),
    bodyMediaType: 'application/x-www-form-urlencoded',
    responses: {
      303: 'The redirect the sign-on was started with (or /app when the provider started it); /login?error=sso on any failure',
    },
  })
  async acs(@Param('orgId') organizationId: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    // Once: whatever happens next, this browser's request is spent.
    const binding = this.cookies.read(request, this.cookies.samlRequest);
    this.cookies.clearSamlRequest(response);
    try {
      if (!organizationIdSchema.safeParse(organizationId).success)
        throw new SsoSignOnFailure('not-configured', 'Not an organization id');
      const body = (request.body ?? {}) as Record<string, unknown>;
      const { opened, redirect } = await this.saml.finish(
        organizationId,
        body.SAMLResponse,
        binding,
        commandContextOf(request, 'anonymous'),
      );
      await this.sessions.endCurrent(request);
      await this.sessions.begin(request, response, opened);
      response.redirect(303, this.ending.target(opened, redirect));
    } catch (error) {
      await this.ending.fail(organizationId, error, request, response, 303);
    }
  }
}
