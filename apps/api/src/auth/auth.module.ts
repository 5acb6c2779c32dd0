import { Global, Module } from '@nestjs/common';
import { UserDirectory, type Identity } from '#identity';
import { ErrorAnswers } from '../http/error-answers.js';
import { signInRefusals } from './sign-in-refusal-answers.js';
import { INVITATION_RESEND, MEMBER_INVITATIONS } from '../organizations/member-invitations.js';
import { EntitlementsModule } from '../entitlements/entitlements.module.js';
import { OrganizationStreamsModule } from '../organizations/organization-streams.module.js';
import { AccountController } from './account.controller.js';
import { AccountTwoStepController } from './account-two-step.controller.js';
import { SecondStepController } from './second-step.controller.js';
import { OrganizationTwoStepController } from './organization-two-step.controller.js';
import { PAGE_VISITORS } from '../web/page-visitors.js';
import { ConsoleGate } from './console-gate.js';
import { TwoStepPolicy } from './two-step-policy.js';
import { TwoStepResetController } from './two-step-reset.controller.js';
import { AuthCookies } from './auth-cookies.js';
import { BrowserSessions } from './browser-sessions.service.js';
import { GoogleSignInController } from './google/google-sign-in.controller.js';
import { googleStrategyProvider } from './google/google-strategy.provider.js';
import { IDENTITY, identityProvider } from './identity.provider.js';
import { InvitationsController } from './invitations.controller.js';
import { MemberInvitationReaction } from './member-invitation-reaction.js';
import { MemberInvitationResend } from './invitation-resend.js';
import { Memberships } from './memberships.service.js';
import { SessionPrincipalResolver } from './session-principal.resolver.js';
import { SessionController } from './session.controller.js';
import { SessionEndsFollower } from './session-ends-follower.js';
import { SignInController } from './sign-in.controller.js';
import { XsrfMiddleware } from './xsrf.middleware.js';

/**
 * Sign-in (docs/api.md, Sign-in): password and Google sign-in, sessions, forgot/reset, the XSRF check
 * (mounted by createApp through web.module.ts, after the security headers), the session principal
 * for the access guard, and the identity's UserDirectory for the organization commands.
 */
@Global()
@Module({
  imports: [OrganizationStreamsModule, EntitlementsModule],
  controllers: [
    SignInController,
    SessionController,
    GoogleSignInController,
    AccountController,
    AccountTwoStepController,
    SecondStepController,
    OrganizationTwoStepController,
    TwoStepResetController,
    InvitationsController,
  ],
  providers: [
    SessionEndsFollower,
    identityProvider,
    {
      provide: UserDirectory,
      inject: [IDENTITY],
      useFactory: (identity: Identity): UserDirectory => identity.directory,
    },
    MemberInvitationReaction,
    { provide: MEMBER_INVITATIONS, useExisting: MemberInvitationReaction },
    { provide: INVITATION_RESEND, useClass: MemberInvitationResend },
    googleStrategyProvider,
    AuthCookies,
    BrowserSessions,
    Memberships,
    SessionPrincipalResolver,
    XsrfMiddleware,
    TwoStepPolicy,
    ConsoleGate,
    // The page server asks it about the browser loading a page, without depending on this module.
    { provide: PAGE_VISITORS, useExisting: ConsoleGate },
  ],
  exports: [
    TwoStepPolicy,
    IDENTITY,
    UserDirectory,
    MEMBER_INVITATIONS,
    INVITATION_RESEND,
    AuthCookies,
    BrowserSessions,
    Memberships,
    XsrfMiddleware,
    PAGE_VISITORS,
  ],
})
export class AuthModule {
  constructor(answers: ErrorAnswers) {
    answers.registerRefusals(signInRefusals);
  }
}
