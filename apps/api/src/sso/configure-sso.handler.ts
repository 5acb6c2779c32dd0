import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { parseIssuer, parseSsoDomain, ssoDomainTaken, type OrganizationCommandOf } from '#domain';
import { OidcProviderError, type Identity } from '#identity';
import { IDENTITY, IdentityClock } from '../auth/identity.provider.js';
import { ProblemError } from '../http/problem-error.js';
import { PINO } from '../logging/pino.js';
import type { CommandResult } from '../organizations/command-result.js';
import { Organizations } from '../organizations/organizations.js';
import { ConfigureSsoCommand } from './configure-sso.command.js';
import { SsoDomainClaims } from './sso-domain-claims.js';
import { isPublicMailDomain } from './public-mail-domains.js';

/** One answer whatever went wrong (port closed, private address, TLS, a bad document): the issuer field is no probe. */
const discoveryFailed = 'The issuer could not be used: it must serve an OpenID Connect discovery document over https from a public address.';

/**
 * Seals the secret, gives each domain a verification token, lets the domain judge the settings (a refusal
 * ends here having asked nobody), refuses public mail domains (400 SSO_DOMAIN_PUBLIC) and domains another
 * organization has verified (409 SSO_DOMAIN_TAKEN), checks the issuer by OIDC discovery with the very
 * client id and secret (422 SSO_DISCOVERY_FAILED), then records SsoConfigured and SsoDomainPending for
 * each new domain. Nothing is claimed here: a domain is claimed when its DNS record proves control.
 */

@CommandHandler(ConfigureSsoCommand)
export class ConfigureSsoHandler implements ICommandHandler<ConfigureSsoCommand> {
  constructor(
    private readonly organizations: Organizations,
    private readonly claims: SsoDomainClaims,
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly clock: IdentityClock,
    @Inject(PINO) private readonly logger: Logger,
  ) {}

  async execute({ organizationId, settings, context }: ConfigureSsoCommand): Promise<CommandResult> {
    const { clientSecret, ...rest } = settings;
    const listed = settings.domains.map((domain) => parseSsoDomain(domain)?.ascii).filter((domain) => domain !== undefined);
    const verificationTokens = Object.fromEntries(listed.map((domain) => [domain, randomBytes(24).toString('base64url')]));
    const sealed = clientSecret === undefined ? {} : { clientSecret: this.identity.ssoClientSecrets.seal(clientSecret, organizationId) };
    const command: OrganizationCommandOf<'ConfigureSso'> = {
      type: 'ConfigureSso',
      data: { ...rest, verificationTokens, at: this.clock.now().toISOString(), ...sealed },
    };
    await this.organizations.loadIfAccepted(organizationId, command, context);
    const domains = settings.domains.map((domain) => parseSsoDomain(domain)?.ascii as string);
    for (const domain of domains) {
      if (isPublicMailDomain(domain)) {
        const detail = `Anyone can have an address at ${domain}: it cannot sign in through one organization.`;
        throw new ProblemError(400, 'SSO_DOMAIN_PUBLIC', 'A public mail domain cannot use single sign-on', detail, {
          domain,
          errors: [{ pointer: '#/domains', detail: `${domain} is a public mail domain` }],
        });
      }
      const holder = await this.claims.organizationOf(domain);
      if (holder !== undefined && holder !== organizationId) throw ssoDomainTaken(domain);
    }
    const issuer = parseIssuer(settings.issuer) as string;
    if (!this.identity.oidcProviders.allows(issuer)) {
      throw new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', 'issuer: must be an https:// URL in production.', {
        errors: [{ pointer: '#/issuer', detail: 'must be an https:// URL in production' }],
      });
    }
    await this.discover(organizationId, issuer, settings.clientId, clientSecret);
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
