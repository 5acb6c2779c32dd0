import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { parseIssuer, parseSsoDomain, refuseUnlessAllowed, type OrganizationCommandOf, type SsoChecks } from '#domain';
import { OidcProviderError, type Identity } from '#identity';
import { IDENTITY, IdentityClock } from '../auth/identity.provider.js';
import { ProblemError } from '../http/problem-error.js';
import { PINO } from '../logging/pino.js';
import type { CommandResult } from '../organizations/command-result.js';
import { Organizations, requesterOf } from '../organizations/organizations.js';
import { ConfigureSsoCommand } from './configure-sso.command.js';
import { SsoDomainClaims } from './sso-domain-claims.js';
import { isPublicMailDomain } from './public-mail-domains.js';
import type { ConfigureSsoRequest } from './sso-requests.js';

/** Gathers what only the outside can know (SsoChecks) so the domain decides once; nothing is claimed until DNS proves control. */
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
    const { state } = await this.organizations.load(organizationId);
    if (state.exists) refuseUnlessAllowed({ type: 'ConfigureSso' }, state, requesterOf(context));
    const checks = await this.check(organizationId, settings, listed, state.exists ? state.sso?.clientSecret : undefined);
    const command: OrganizationCommandOf<'ConfigureSso'> = {
      type: 'ConfigureSso',
      data: { ...rest, verificationTokens, at: this.clock.now().toISOString(), ...sealed, checks },
    };
    return this.organizations.handle(organizationId, command, context);
  }

  private async check(organizationId: string, settings: ConfigureSsoRequest, domains: readonly string[], sealedSecret: string | undefined): Promise<SsoChecks> {
    const publicDomains = domains.filter(isPublicMailDomain);
    const domainsHeldElsewhere: string[] = [];
    for (const domain of domains) {
      const holder = await this.claims.organizationOf(domain);
      if (holder !== undefined && holder !== organizationId) domainsHeldElsewhere.push(domain);
    }
    const issuer = parseIssuer(settings.issuer);
    const issuerAllowed = issuer === null || this.identity.oidcProviders.allows(issuer);
    const worthAsking = issuer !== null && issuerAllowed && publicDomains.length === 0 && domainsHeldElsewhere.length === 0;
    const discovery = worthAsking ? await this.discover(organizationId, issuer, settings.clientId, settings.clientSecret, sealedSecret) : 'not-asked';
    return { publicDomains, domainsHeldElsewhere, issuerAllowed, discovery };
  }

  /** The configured secret is opened here, never leaving this process. */
  private async discover(
    organizationId: string,
    issuer: string,
    clientId: string,
    given: string | undefined,
    sealed: string | undefined,
  ): Promise<SsoChecks['discovery']> {
    const clientSecret = given ?? (sealed === undefined ? undefined : this.identity.ssoClientSecrets.open(sealed, organizationId));
    if (clientSecret === undefined && sealed !== undefined) {
      throw new ProblemError(422, 'SSO_SECRET_UNREADABLE', 'The configured client secret cannot be opened', 'Give the client secret again: the key it was sealed with is not in SSO_SECRET_KEYS.');
    }
    if (clientSecret === undefined) return 'not-asked';
    try {
      await this.identity.oidcProviders.discover(organizationId, { issuer, clientId, clientSecret }, { retryFailed: true });
      return 'ok';
    } catch (error) {
      if (!(error instanceof OidcProviderError)) throw error;
      this.logger.warn({ organizationId, issuer, detail: error.message }, 'SSO settings refused: OpenID Connect discovery failed');
      return 'failed';
    }
  }
}
