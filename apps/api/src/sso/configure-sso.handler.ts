import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import {
  parseIssuer,
  parseSsoDomain,
  refuseUnlessAllowed,
  type OrganizationCommandOf,
  type SamlIdentityProvider,
  type SsoChecks,
} from '#domain';
import { OidcProviderError, readSamlMetadata, SamlMetadataError, type Identity } from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import { AppClock } from '../config/app-clock.js';
import { ProblemError } from '../http/problem-error.js';
import { PINO } from '../logging/pino.js';
import type { CommandResult } from '../organizations/command-result.js';
import { Organizations, requesterOf } from '../organizations/organizations.service.js';
import { ConfigureSsoCommand } from './configure-sso.command.js';
import { SsoDomainClaims } from './sso-domain-claims.js';
import { isPublicMailDomain } from './public-mail-domains.js';
import type { ConfigureOidcSsoRequest } from './sso-requests.js';

/**
 * Gathers what only the outside can know (SsoChecks) so the domain decides once; nothing is claimed until DNS proves
 * control.
 */
@CommandHandler(ConfigureSsoCommand)
export class ConfigureSsoHandler implements ICommandHandler<ConfigureSsoCommand> {
  constructor(
    private readonly organizations: Organizations,
    private readonly claims: SsoDomainClaims,
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly clock: AppClock,
    @Inject(PINO) private readonly logger: Logger,
  ) {}

  async execute({ organizationId, settings, context }: ConfigureSsoCommand): Promise<CommandResult> {
    const listed = settings.domains
      .map((domain) => parseSsoDomain(domain)?.ascii)
      .filter((domain) => domain !== undefined);
    const verificationTokens = Object.fromEntries(
      listed.map((domain) => [domain, randomBytes(24).toString('base64url')]),
    );
    const at = this.clock.now().toISOString();
    const { state } = await this.organizations.load(organizationId);
    if (state.exists)
      refuseUnlessAllowed(
        { type: settings.protocol === 'saml' ? 'ConfigureSamlSso' : 'ConfigureSso' },
        state,
        requesterOf(context),
      );
    const domainChecks = await this.checkDomains(organizationId, listed);
    if (settings.protocol === 'saml') {
      const { protocol: _saml, metadataXml, metadataUrl, ...rest } = settings;
      const idp = await this.samlProvider(metadataXml, metadataUrl);
      const data = {
        ...rest,
        ...(idp === undefined ? {} : { idp, metadataUrl: metadataUrl ?? null }),
        verificationTokens,
        at,
        checks: domainChecks,
      };
      return this.organizations.handle(organizationId, { type: 'ConfigureSamlSso', data }, context);
    }
    const { clientSecret, protocol: _oidc, ...rest } = settings;
    const sealed =
      clientSecret === undefined
        ? {}
        : { clientSecret: this.identity.ssoClientSecrets.seal(clientSecret, organizationId) };
    const saved = state.exists && state.sso?.protocol === 'oidc' ? state.sso.clientSecret : undefined;
    const checks = { ...domainChecks, ...(await this.checkIssuer(organizationId, settings, domainChecks, saved)) };
    const command: OrganizationCommandOf<'ConfigureSso'> = {
      type: 'ConfigureSso',
      data: { ...rest, verificationTokens, at, ...sealed, checks },
    };
    return this.organizations.handle(organizationId, command, context);
  }

  /** The metadata as pasted, or fetched as OpenID Connect discovery is; neither: the saved provider is kept. */
  private async samlProvider(
    xml: string | undefined,
    url: string | undefined,
  ): Promise<SamlIdentityProvider | undefined> {
    try {
      if (xml !== undefined) return readSamlMetadata(xml);
      return url === undefined ? undefined : await this.identity.samlProviders.metadataAt(url);
    } catch (error) {
      if (!(error instanceof SamlMetadataError)) throw error;
      throw new ProblemError(
        422,
        'SSO_METADATA_INVALID',
        "The identity provider's metadata cannot be used",
        error.message,
      );
    }
  }

  private async checkDomains(
    organizationId: string,
    domains: readonly string[],
  ): Promise<Pick<SsoChecks, 'publicDomains' | 'domainsHeldElsewhere'>> {
    const publicDomains = domains.filter(isPublicMailDomain);
    const domainsHeldElsewhere: string[] = [];
    for (const domain of domains) {
      const holder = await this.claims.organizationOf(domain);
      if (holder !== undefined && holder !== organizationId) domainsHeldElsewhere.push(domain);
    }
    return { publicDomains, domainsHeldElsewhere };
  }

  private async checkIssuer(
    organizationId: string,
    settings: ConfigureOidcSsoRequest,
    { publicDomains, domainsHeldElsewhere }: Pick<SsoChecks, 'publicDomains' | 'domainsHeldElsewhere'>,
    sealedSecret: string | undefined,
  ): Promise<Pick<SsoChecks, 'issuerAllowed' | 'discovery'>> {
    const issuer = parseIssuer(settings.issuer);
    const issuerAllowed = issuer === null || this.identity.oidcProviders.allows(issuer);
    const worthAsking =
      issuer !== null && issuerAllowed && publicDomains.length === 0 && domainsHeldElsewhere.length === 0;
    const discovery = worthAsking
      ? await this.discover(organizationId, issuer, settings.clientId, settings.clientSecret, sealedSecret)
      : 'not-asked';
    return { issuerAllowed, discovery };
  }

  /** The configured secret is opened here, never leaving this process. */
  private async discover(
    organizationId: string,
    issuer: string,
    clientId: string,
    given: string | undefined,
    sealed: string | undefined,
  ): Promise<SsoChecks['discovery']> {
    const clientSecret =
      given ?? (sealed === undefined ? undefined : this.identity.ssoClientSecrets.open(sealed, organizationId));
    if (clientSecret === undefined && sealed !== undefined) {
      throw new ProblemError(
        422,
        'SSO_SECRET_UNREADABLE',
        'The configured client secret cannot be opened',
        'Give the client secret again: the key it was sealed with is not in SSO_SECRET_KEYS.',
      );
    }
    if (clientSecret === undefined) return 'not-asked';
    try {
      await this.identity.oidcProviders.discover(
        organizationId,
        { issuer, clientId, clientSecret },
        { retryFailed: true },
      );
      return 'ok';
    } catch (error) {
      if (!(error instanceof OidcProviderError)) throw error;
      this.logger.warn(
        { organizationId, issuer, detail: error.message },
        'SSO settings refused: OpenID Connect discovery failed',
      );
      return 'failed';
    }
  }
}
