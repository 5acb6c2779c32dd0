// SSO sign-on: OpenID Connect's code flow with PKCE, id_token verified by openid-client; a SAML organization's start
// goes
// to saml-sign-on.ts. Who may then come in is sso-admission.ts's, the same for both protocols.
import { Inject, Injectable } from '@nestjs/common';
import type { Configuration } from 'openid-client';
import { CONFIG, type Config } from '#config';
import { hasSsoPlan, type OrganizationState, type PlanCatalogue } from '#domain';
import { type CommandContext } from '#application';
import { OidcProviderError, type Identity, type OpenedSession, type SsoSignOnChecks } from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import { Organizations } from '../organizations/organizations.service.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { SsoSignOnFailureLog } from './sso-sign-on-failure-log.js';
import { SsoSignOnFailure } from './sso-sign-on-failure.error.js';
import { SamlSignOn } from './saml-sign-on.service.js';
import { SsoAdmission } from './sso-admission.js';

export const ssoCallbackPath = '/auth/sso/callback';

@Injectable()
export class SsoSignOn {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(IDENTITY) private readonly identity: Identity,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
    private readonly organizations: Organizations,
    private readonly failureLog: SsoSignOnFailureLog,
    private readonly admission: SsoAdmission,
    private readonly saml: SamlSignOn,
  ) {}

  get redirectUri(): string {
    return `${this.config.publicUrl}${ssoCallbackPath}`;
  }

  /** A SAML organization's request is kept in the store and needs no cookie (saml-sign-on.ts). */
  /** samlBinding: the value of the SAML request's cookie (only when bindToBrowser, over https). */
  async start(
    organizationId: string,
    redirect: string,
    linkUserId: string | undefined,
    bindToBrowser: boolean,
  ): Promise<{ url: URL; cookieValue?: string; samlBinding?: string }> {
    const { state } = await this.organizations.load(organizationId);
    if (state.exists && state.sso?.protocol === 'saml') {
      const { url, binding } = await this.saml.start(organizationId, redirect, linkUserId, bindToBrowser);
      return { url, ...(binding === undefined ? {} : { samlBinding: binding }) };
    }
    const configuration = await this.provider(organizationId, state);
    const { checks, cookieValue } = this.identity.ssoState.seal({
      organizationId,
      redirect,
      ...(linkUserId === undefined ? {} : { linkUserId }),
    });
    return {
      url: await this.identity.oidcProviders.authorizationUrl(configuration, {
        redirectUri: this.redirectUri,
        ...checks,
      }),
      cookieValue,
    };
  }

  /** signedInUserId: the user of the browser's live session, which a link sign-on must still have. */
  async finish(
    checks: SsoSignOnChecks,
    callbackQuery: string,
    context: CommandContext,
    signedInUserId?: string,
  ): Promise<OpenedSession> {
    const { organizationId } = checks;
    const configuration = await this.provider(organizationId, (await this.organizations.load(organizationId)).state);
    let token;
    try {
      token = await this.identity.oidcProviders.verifyCallback(
        configuration,
        new URL(`${this.redirectUri}${callbackQuery}`),
        checks,
      );
    } catch (error) {
      if (error instanceof OidcProviderError)
        throw new SsoSignOnFailure(
          error.reason === 'provider-error' ? 'provider-error' : 'token-refused',
          error.message,
        );
      throw error;
    }
    const who = { subject: token.subject, ...(token.email === undefined ? {} : { email: token.email }) };
    if (token.email === undefined || !token.emailVerified)
      throw new SsoSignOnFailure(
        'email-unverified',
        'The id_token has no e-mail address marked email_verified: true',
        who,
      );
    if (checks.linkUserId !== undefined && signedInUserId !== checks.linkUserId) {
      throw new SsoSignOnFailure(
        'link-refused',
        'A link needs the signed-in account, and the provider must assert its very address',
        who,
      );
    }
    return this.admission.admit(
      organizationId,
      { issuer: token.issuer, subject: token.subject, email: token.email },
      checks.linkUserId,
      context,
    );
  }

  /** The first failure of each hour in full, the rest counted (sso-sign-on-failure-log.ts). */
  async recordFailure(organizationId: string, failure: SsoSignOnFailure, context: CommandContext): Promise<boolean> {
    const { state } = await this.organizations.load(organizationId);
    return state.exists && this.failureLog.record(organizationId, failure, context);
  }

  /** The organization's OpenID provider, discovered (kept by oidc-providers.ts), from the state the caller loaded. */
  private async provider(organizationId: string, state: OrganizationState): Promise<Configuration> {
    if (!state.exists || state.sso?.protocol !== 'oidc')
      throw new SsoSignOnFailure('not-configured', 'The organization has no OpenID Connect single sign-on configured');
    if (!hasSsoPlan(state, this.catalogue))
      throw new SsoSignOnFailure('plan', "The organization's plan does not include single sign-on");
    const { issuer, clientId } = state.sso;
    const clientSecret = this.identity.ssoClientSecrets.open(state.sso.clientSecret, organizationId);
    if (clientSecret === undefined)
      throw new SsoSignOnFailure('secret-unreadable', `The client secret was sealed with a key not in SSO_SECRET_KEYS`);
    try {
      return await this.identity.oidcProviders.discover(organizationId, { issuer, clientId, clientSecret });
    } catch (error) {
      if (error instanceof OidcProviderError) throw new SsoSignOnFailure('discovery-failed', error.message);
      throw error;
    }
  }
}
