// Proof of control of SSO domains (TXT `_chorus-verification.<domain>`). A found record takes the domain's claim (one
// organization per domain) before it is recorded verified; gone past SSO_DOMAIN_GRACE_HOURS, it is unverified.
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '#config';
import {
  DomainError,
  organizationStream,
  refuseUnlessAllowed,
  type SsoDomainVerification as Verification,
} from '#domain';
import { handleDecision, newCommandContext, type CommandContext } from '#application';
import { EVENT_STORE, type EventStore } from '#event-store';
import { READ_MODELS, type ReadModels } from '#read-models';
import { AppClock } from '../config/app-clock.js';
import { PINO } from '../logging/pino.js';
import { Organizations, requesterOf } from '../organizations/organizations.service.js';
import { SsoDomainDns, type RecordLookup } from './sso-domain-dns.js';
import { SsoDomainClaims } from './sso-domain-claims.js';

export type DomainCheck = { domain: string; lookup: RecordLookup; status: Verification['status'] };

const organizationsPerTick = 200;
const checksPerTick = 20;

@Injectable()
export class SsoDomainVerification implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private cursor = 0;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(PINO) private readonly logger: Logger,
    private readonly organizations: Organizations,
    private readonly claims: SsoDomainClaims,
    private readonly dns: SsoDomainDns,
    private readonly clock: AppClock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.ssoDomains.checkEveryMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** The requester's right to record a check is asked before DNS is. */
  async check(organizationId: string, domain: string, context: CommandContext): Promise<DomainCheck> {
    const command = (found: boolean) =>
      ({
        type: 'RecordSsoDomainCheck',
        data: { domain, found, at: this.clock.now().toISOString(), graceMs: this.config.ssoDomains.graceMs },
      }) as const;
    const { state } = await this.organizations.load(organizationId);
    if (state.exists) refuseUnlessAllowed(command(false), state, requesterOf(context));
    const verification = state.exists ? state.sso?.verification[domain] : undefined;
    if (verification === undefined) {
      throw new DomainError('NOT_FOUND', `${domain} is not one of the organization's single sign-on domains.`, {
        entity: 'ssoDomain',
      });
    }
    const lookup = await this.dns.lookUp(domain, verification.token);
    if (lookup === 'unknown') return { domain, lookup, status: verification.status };
    // A found record takes the domain's claim in the same append as the check that records it verified.
    await handleDecision(
      this.store,
      context,
      { serializedOn: organizationStream(organizationId), commandType: 'RecordSsoDomainCheck' },
      async (reads) => {
        const organization = await this.organizations.readFor(reads, organizationId, context);
        const claim = lookup === 'found' ? await this.claims.claimIn(reads, organizationId, domain) : undefined;
        return { changes: [claim, organization.decide(command(lookup === 'found'))], result: undefined };
      },
    );
    const { state: after } = await this.organizations.load(organizationId);
    return {
      domain,
      lookup,
      status: (after.exists ? after.sso?.verification[domain]?.status : undefined) ?? verification.status,
    };
  }

  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const ids = this.readModels.organizations.list().map((organization) => organization.id);
      let checks = 0;
      for (let looked = 0; looked < Math.min(ids.length, organizationsPerTick) && checks < checksPerTick; looked += 1) {
        const organizationId = ids[this.cursor % ids.length] as string;
        this.cursor = (this.cursor + 1) % ids.length;
        const { state } = await this.organizations.load(organizationId);
        if (!state.exists || state.sso === null) continue;
        for (const domain of Object.keys(state.sso.verification)) {
          if (checks >= checksPerTick) break;
          checks += 1;
          await this.checkQuietly(organizationId, domain);
        }
      }
    } catch (error) {
      this.logger.error({ err: error }, 'SSO domain checks failed');
    } finally {
      this.ticking = false;
    }
  }

  private async checkQuietly(organizationId: string, domain: string): Promise<void> {
    try {
      const { lookup, status } = await this.check(organizationId, domain, newCommandContext('system:sso-domain-check'));
      if (lookup === 'unknown') this.logger.warn({ organizationId, domain }, 'SSO domain check: DNS did not answer');
      else this.logger.debug({ organizationId, domain, lookup, status }, 'SSO domain checked');
    } catch (error) {
      this.logger.warn({ err: error, organizationId, domain }, 'SSO domain check refused');
    }
  }
}
