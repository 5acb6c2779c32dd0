// SSO sign-on: code flow with PKCE, id_token verified by openid-client. An existing account signs in only when this
// organization's SSO created it or its owner linked it: a provider's word alone never opens someone else's account.
import { Inject, Injectable } from '@nestjs/common';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import type { Configuration } from 'openid-client';
import { CONFIG, type Config } from '#config';
import { automaticJoinRole, DomainError, emailDomain, hasSsoPlan, ssoDomainOf, type ExistingOrganization, type PlanCatalogue, userStream } from '#domain';
import { type CommandContext } from '#application';
import { EVENT_STORE, type EventStore } from '#event-store';
import { OidcProviderError, type Identity, type OpenedSession, type SsoSignOnChecks } from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import { TwoStepPolicy } from '../auth/two-step-policy.js';
import { AddMemberCommand, Organizations } from '../organizations/organizations.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { SsoDomainClaims } from './sso-domain-claims.js';
import { SsoSignOnFailureLog } from './sso-sign-on-failure-log.js';
import { SsoSignOnFailure } from './sso-sign-on-failures.js';

export const ssoCallbackPath = '/auth/sso/callback';

@Injectable()
export class SsoSignOn {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(IDENTITY) private readonly identity: Identity,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
    private readonly organizations: Organizations,
    private readonly claims: SsoDomainClaims,
    private readonly commands: MeteredCommandBus,
    private readonly failureLog: SsoSignOnFailureLog,
    private readonly twoStepPolicy: TwoStepPolicy,
  ) {}

  get redirectUri(): string {
    return `${this.config.publicUrl}${ssoCallbackPath}`;
  }

  async start(organizationId: string, redirect: string, linkUserId?: string): Promise<{ url: URL; cookieValue: string }> {
    const { configuration } = await this.provider(organizationId);
    const { checks, cookieValue } = this.identity.ssoState.seal({ organizationId, redirect, ...(linkUserId === undefined ? {} : { linkUserId }) });
    return { url: await this.identity.oidcProviders.authorizationUrl(configuration, { redirectUri: this.redirectUri, ...checks }), cookieValue };
  }

  /** signedInUserId: the user of the browser's live session, which a link sign-on must still have. */
  async finish(checks: SsoSignOnChecks, callbackQuery: string, context: CommandContext, signedInUserId?: string): Promise<OpenedSession> {
    const { organizationId } = checks;
    const { configuration } = await this.provider(organizationId);
    let token;
    try {
      token = await this.identity.oidcProviders.verifyCallback(configuration, new URL(`${this.redirectUri}${callbackQuery}`), checks);
    } catch (error) {
      if (error instanceof OidcProviderError) throw new SsoSignOnFailure(error.reason === 'provider-error' ? 'provider-error' : 'token-refused', error.message);
      throw error;
    }
    const who = { subject: token.subject, ...(token.email === undefined ? {} : { email: token.email }) };
    if (token.email === undefined || !token.emailVerified) throw new SsoSignOnFailure('email-unverified', 'The id_token has no e-mail address marked email_verified: true', who);
    const { state } = await this.organizations.load(organizationId);
    const domain = state.exists ? ssoDomainOf(state, token.email) : null;
    if (domain === null || (await this.claims.organizationOf(domain)) !== organizationId) {
      throw new SsoSignOnFailure('foreign-domain', `${token.email} is not in one of the organization's verified SSO domains`, who);
    }
    const asSso: CommandContext = { ...context, actor: `sso:${organizationId}`, origin: { ...context.origin, ssoIssuer: token.issuer, ssoSubject: token.subject } };
    const existing = await this.identity.directory.findUserIdByEmail(token.email);
    if (checks.linkUserId !== undefined) {
      if (signedInUserId !== checks.linkUserId || existing !== checks.linkUserId) {
        throw new SsoSignOnFailure('link-refused', 'A link needs the signed-in account, and the provider must assert its very address', who);
      }
      const link = { type: 'LinkSsoAccount', data: { organizationId, issuer: token.issuer, subject: token.subject, email: token.email } } as const;
      await this.identity.users.handle(existing, link, { ...asSso, actor: `user:${existing}` });
    } else if (existing !== undefined && !(await this.linked(existing, organizationId))) {
      const detail = `${token.email} has an account that this organization's single sign-on did not create and its owner has not linked`;
      throw new SsoSignOnFailure('account-not-linked', detail, who);
    }
    const userId = await this.member(organizationId, token.email, asSso, who);
    // A link's browser passed its second step already; others are asked as a password sign-in, unless the provider's MFA is trusted.
    const signingInto = {
      organizationId,
      requiresTwoStep: state.exists && state.twoStepSignInRequired === true,
      trusted: state.exists && state.sso?.trustProviderMfa === true,
    };
    const awaiting = checks.linkUserId === undefined ? await this.twoStepPolicy.awaitedAfter(userId, signingInto) : undefined;
    const signedIn = { ...asSso, actor: `user:${userId}`, origin: { ...asSso.origin, ssoOrganizationId: organizationId } };
    return this.identity.sessions.open(userId, 'sso', signedIn, awaiting);
  }

  /** The first failure of each hour in full, the rest counted (sso-sign-on-failure-log.ts). */
  async recordFailure(organizationId: string, failure: SsoSignOnFailure, context: CommandContext): Promise<boolean> {
    const { state } = await this.organizations.load(organizationId);
    return state.exists && this.failureLog.record(organizationId, failure, context);
  }

  private async provider(organizationId: string): Promise<{ state: ExistingOrganization; configuration: Configuration }> {
    const { state } = await this.organizations.load(organizationId);
    if (!state.exists || state.sso === null) throw new SsoSignOnFailure('not-configured', 'The organization has no single sign-on configured');
    if (!hasSsoPlan(state, this.catalogue)) throw new SsoSignOnFailure('plan', "The organization's plan does not include single sign-on");
    const { issuer, clientId } = state.sso;
    const clientSecret = this.identity.ssoClientSecrets.open(state.sso.clientSecret, organizationId);
    if (clientSecret === undefined) throw new SsoSignOnFailure('secret-unreadable', `The client secret was sealed with a key not in SSO_SECRET_KEYS`);
    try {
      return { state, configuration: await this.identity.oidcProviders.discover(organizationId, { issuer, clientId, clientSecret }) };
    } catch (error) {
      if (error instanceof OidcProviderError) throw new SsoSignOnFailure('discovery-failed', error.message);
      throw error;
    }
  }

  /** Registered by this organization's SSO (actor of its first event) covers accounts made just in time. */
  private async linked(userId: string, organizationId: string): Promise<boolean> {
    const { state } = await this.identity.users.load(userId);
    if (state.status === 'registered' && state.ssoOrganizationIds.includes(organizationId)) return true;
    const first = await this.store.readStream(userStream(userId), { maxCount: 1 });
    return first.found && first.events[0]?.metadata.actor === `sso:${organizationId}`;
  }

  private async member(organizationId: string, email: string, context: CommandContext, who: SsoSignOnFailure['who']): Promise<string> {
    const registered = await this.identity.directory.findUserIdByEmail(email);
    const { state } = await this.organizations.load(organizationId);
    const isMember = state.exists && state.members.some((member) => member.userId === registered || member.email.toLowerCase() === email.toLowerCase());
    if (!isMember) {
      try {
        // Just-in-time provisioning: the organization's own decision, limits and audit, as any MemberAdded; with the
        // role of joining by the domain when the owner chose one (docs/directory.md).
        const domain = emailDomain(email);
        const role = (state.exists && domain !== null ? automaticJoinRole(state, domain) : undefined) ?? 'member';
        const member = registered === undefined ? { email, role } : { email, role, userId: registered };
        await this.commands.execute(new AddMemberCommand(organizationId, member, context));
      } catch (error) {
        if (error instanceof DomainError && (error.code === 'LIMIT_EXCEEDED' || error.code === 'NO_PLAN')) {
          throw new SsoSignOnFailure('users-limit', `${email} could not be added: ${error.message}`, who);
        }
        // A concurrent sign-on of the same person added them first.
        if (!(error instanceof DomainError && error.code === 'DUPLICATE')) throw error;
      }
    }
    if (registered !== undefined) return registered;
    try {
      return (await this.identity.registration.register({ email }, context)).userId;
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'DUPLICATE')) throw error;
      const userId = await this.identity.directory.findUserIdByEmail(email);
      if (userId === undefined) throw error;
      return userId;
    }
  }
}
