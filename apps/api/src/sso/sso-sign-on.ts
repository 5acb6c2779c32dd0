// SSO sign-on (issue 19): the code flow with PKCE, state and nonce sealed in the browser's cookie, the
// id_token verified by openid-client, then the person: a member signs in; someone of a verified domain who
// is not a member yet is added as `member` through the organization's own command path (AddMember, so the
// users limit applies and the add is audited), and registered without a password when they have no account.
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Configuration } from 'openid-client';
import { CONFIG, type Config } from '#config';
import { DomainError, hasSsoPlan, ssoDomainOf, type ExistingOrganization, type PlanCatalogue } from '#domain';
import { eventMetadata, EVENT_STORE, FoldedStateCache, handleCommand, type CommandContext, type EventStore } from '#event-store';
import { IdentityError, OidcProviderError, type Identity, type OpenedSession, type SsoSignOnChecks } from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import { AddMemberCommand } from '../organizations/commands/add-member.command.js';
import { Organizations } from '../organizations/organizations.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { SsoDomainClaims } from './sso-domain-claims.js';
import { SsoSignOnFailure, ssoSignOnStream, type SsoSignOnFailed } from './sso-sign-on-failures.js';

export const ssoCallbackPath = '/auth/sso/callback';

/** A fixed window per organization, bounded in keys: what one node records of failed sign-ons. */
class FailureBudget {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly maxKeys = 10_000,
  ) {}

  take(key: string, now: number): boolean {
    let window = this.windows.get(key);
    if (window === undefined || now - window.start >= 60_000) {
      if (this.windows.size >= this.maxKeys) this.windows.clear();
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count <= this.perMinute;
  }
}

@Injectable()
export class SsoSignOn {
  private readonly failureBudget = new FailureBudget(30);
  /**
   * Where each organization's sign-on failure stream stands on this node (nothing is folded: a failure is
   * recorded whatever came before), so recording one reads only the events after it.
   */
  private readonly failureHeads = new FoldedStateCache<null>(10_000);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(IDENTITY) private readonly identity: Identity,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
    private readonly organizations: Organizations,
    private readonly claims: SsoDomainClaims,
    private readonly commands: CommandBus,
  ) {}

  get redirectUri(): string {
    return `${this.config.publicUrl}${ssoCallbackPath}`;
  }

  /** The provider's authorization URL and the cookie value that binds the sign-on to this browser. */
  async start(organizationId: string, redirect: string): Promise<{ url: URL; cookieValue: string }> {
    const { configuration } = await this.provider(organizationId);
    const { checks, cookieValue } = this.identity.ssoState.seal({ organizationId, redirect });
    return { url: await this.identity.oidcProviders.authorizationUrl(configuration, { redirectUri: this.redirectUri, ...checks }), cookieValue };
  }

  /** Verifies the provider's answer and opens a session for the person it names; SsoSignOnFailure otherwise. */
  async finish(checks: SsoSignOnChecks, callbackQuery: string, context: CommandContext): Promise<OpenedSession> {
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
    const userId = await this.member(organizationId, token.email, asSso, who);
    return this.identity.sessions.open(userId, 'sso', { ...asSso, actor: `user:${userId}`, origin: { ...asSso.origin, ssoOrganizationId: organizationId } });
  }

  /**
   * Records why a sign-on failed, in the organization's sign-on stream: for an organization that exists,
   * at most 30 a minute from this node (anyone can make a sign-on fail; the log has every one).
   */
  async recordFailure(organizationId: string, failure: SsoSignOnFailure, context: CommandContext): Promise<boolean> {
    const { state } = await this.organizations.load(organizationId);
    if (!state.exists || !this.failureBudget.take(organizationId, Date.now())) return false;
    const event: SsoSignOnFailed = { type: 'SsoSignOnFailed', data: { reason: failure.reason, detail: failure.detail.slice(0, 500), ...failure.who } };
    await handleCommand(this.store, ssoSignOnStream(organizationId), () => [event], {
      initialState: null,
      evolve: () => null,
      cache: this.failureHeads,
      metadata: eventMetadata(context, 'SignOnWithSso'),
    });
    return true;
  }

  /** The organization's provider, when it may sign people in now. */
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

  /** The user id of the member with this address, adding them (and registering them) when they are not one yet. */
  private async member(organizationId: string, email: string, context: CommandContext, who: SsoSignOnFailure['who']): Promise<string> {
    const registered = await this.identity.directory.findUserIdByEmail(email);
    const { state } = await this.organizations.load(organizationId);
    const isMember = state.exists && state.members.some((member) => member.userId === registered || member.email.toLowerCase() === email.toLowerCase());
    if (!isMember) {
      try {
        // Just-in-time provisioning: the organization's own decision, limits and audit, as any MemberAdded.
        await this.commands.execute(new AddMemberCommand(organizationId, registered === undefined ? { email, role: 'member' } : { email, role: 'member', userId: registered }, context));
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
      if (!(error instanceof IdentityError && error.code === 'DUPLICATE')) throw error;
      const userId = await this.identity.directory.findUserIdByEmail(email);
      if (userId === undefined) throw error;
      return userId;
    }
  }
}
