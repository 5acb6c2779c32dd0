import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { parseIssuer, parseSsoDomain, type OrganizationCommandOf } from '#domain';
import { OidcProviderError, type Identity } from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import { ProblemError } from '../http/problem-error.js';
import { PINO } from '../logging/pino.js';
import type { CommandResult } from '../organizations/command-result.js';
import { Organizations } from '../organizations/organizations.js';
import { ConfigureSsoCommand } from './configure-sso.command.js';
import { SsoDomainClaims } from './sso-domain-claims.js';

/** One answer whatever went wrong (port closed, private address, TLS, a bad document): the issuer field is no probe. */
const discoveryFailed = 'The issuer could not be used: it must serve an OpenID Connect discovery document over https from a public address.';

/**
 * Seals the secret, lets the domain judge the settings (a refusal ends here having asked nobody), checks
 * the issuer by OIDC discovery with the very client id and secret (422 SSO_DISCOVERY_FAILED), claims the
 * domains for the organization (409 SSO_DOMAIN_TAKEN), then records SsoConfigured.
 */

@CommandHandler(ConfigureSsoCommand)
export class ConfigureSsoHandler implements ICommandHandler<ConfigureSsoCommand> {
  constructor(
    private readonly organizations: Organizations,
    private readonly claims: SsoDomainClaims,
    @Inject(IDENTITY) private readonly identity: Identity,
    @Inject(PINO) private readonly logger: Logger,
  ) {}

  async execute({ organizationId, settings, context }: ConfigureSsoCommand): Promise<CommandResult> {
    const { clientSecret, ...rest } = settings;
    const command: OrganizationCommandOf<'ConfigureSso'> = {
      type: 'ConfigureSso',
      data: clientSecret === undefined ? rest : { ...rest, clientSecret: this.identity.ssoClientSecrets.seal(clientSecret, organizationId) },
    };
    await this.organizations.check(organizationId, command, context);
    const issuer = parseIssuer(settings.issuer) as string;
    if (!this.identity.oidcProviders.allows(issuer)) {
      throw new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', 'issuer: must be an https:// URL in production.', {
        errors: [{ pointer: '#/issuer', detail: 'must be an https:// URL in production' }],
      });
    }
    await this.discover(organizationId, issuer, settings.clientId, clientSecret);
    const domains = settings.domains.map((domain) => parseSsoDomain(domain)?.ascii as string);
    await this.claims.claim(organizationId, domains, context);
    return this.organizations.handle(organizationId, command, context);
  }

  /** OIDC discovery with the secret given, or the one configured (opened here, never leaving this process). */
  private async discover(organizationId: string, issuer: string, clientId: string, given: string | undefined): Promise<void> {
    let clientSecret = given;
    if (clientSecret === undefined) {
      const { state } = await this.organizations.load(organizationId);
      const sealed = state.exists ? state.sso?.clientSecret : undefined;
      clientSecret = sealed === undefined ? undefined : this.identity.ssoClientSecrets.open(sealed, organizationId);
      if (clientSecret === undefined) {
        throw new ProblemError(422, 'SSO_SECRET_UNREADABLE', 'The configured client secret cannot be opened', 'Give the client secret again: the key it was sealed with is not in SSO_SECRET_KEYS.');
      }
    }
    try {
      await this.identity.oidcProviders.discover(organizationId, { issuer, clientId, clientSecret }, { retryFailed: true });
    } catch (error) {
      if (!(error instanceof OidcProviderError)) throw error;
      this.logger.warn({ organizationId, issuer, detail: error.message }, 'SSO settings refused: OpenID Connect discovery failed');
      throw new ProblemError(422, 'SSO_DISCOVERY_FAILED', 'The issuer could not be discovered', discoveryFailed, { issuer });
    }
  }
}
