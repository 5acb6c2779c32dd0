// Joining by verified domain (docs/directory.md): a person fully signed in with an address of a domain an organization
// has verified and set to `automatic` becomes its member with the domain's role, recorded as `join:<domain>`. Within
// the users limit: a refusal leaves the sign-in as it is, and the owners and the person hear of it at most once a day.
// An organization that enforces its single sign-on takes its domain's people in through its provider only (its MFA,
// its deprovisioning): a password, Google or an invitation joins nothing there, and the sign-on's own provisioning
// does.
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { CommandContext } from '#application';
import { automaticJoinRole, DomainError, emailDomain, memberWithAddress, type MemberRole } from '#domain';
import type { Identity } from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import type { JoinTarget, SignInJoins } from '../auth/sign-in-joins.js';
import { PINO } from '../logging/pino.js';
import { DirectoryUsers } from '../directory/directory-users.service.js';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import { AddMemberCommand } from '../organizations/add-member.command.js';
import { Organizations } from '../organizations/organizations.service.js';
import { JoinRefusals } from './join-refusals.js';
import { SsoDomainClaims } from './sso-domain-claims.js';

type Candidate = JoinTarget & { domain: string; email: string; role: MemberRole; enforcesSignOn: boolean };

@Injectable()
export class DomainJoins implements SignInJoins {
  private readonly logger: Logger;

  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly claims: SsoDomainClaims,
    private readonly organizations: Organizations,
    private readonly commands: MeteredCommandBus,
    private readonly refusals: JoinRefusals,
    private readonly directory: DirectoryUsers,
    @Inject(PINO) pino: Logger,
  ) {
    this.logger = pino.child({ component: 'domain-joins' });
  }

  async afterSignIn(userId: string, context: CommandContext): Promise<void> {
    try {
      await this.join(userId, context);
    } catch (error) {
      this.logger.error({ err: error, userId }, 'Joining by verified domain failed; the sign-in stands');
    }
  }

  async wouldJoin(userId: string): Promise<JoinTarget | undefined> {
    const joinable = await this.joinable(userId);
    return joinable === undefined
      ? undefined
      : { organizationId: joinable.organizationId, name: joinable.name, requiresTwoStep: joinable.requiresTwoStep };
  }

  async joinsThroughSignOnOnly(userId: string): Promise<string | undefined> {
    const candidate = await this.candidate(userId);
    return candidate?.enforcesSignOn === true ? candidate.organizationId : undefined;
  }

  private async joinable(userId: string): Promise<Candidate | undefined> {
    const candidate = await this.candidate(userId);
    return candidate?.enforcesSignOn === false ? candidate : undefined;
  }

  /** Where the person's address lets them join, as whom; undefined when nowhere, or a member there already. */
  private async candidate(userId: string): Promise<Candidate | undefined> {
    const email = (await this.identity.directory.profile(userId))?.email;
    const domain = email === undefined ? null : emailDomain(email);
    if (email === undefined || domain === null) return undefined;
    // At most one organization holds a domain's claim, so one read finds where its people may join.
    const organizationId = await this.claims.organizationOf(domain);
    if (organizationId === undefined) return undefined;
    const { state } = await this.organizations.load(organizationId);
    const role = state.exists ? automaticJoinRole(state, domain) : undefined;
    if (!state.exists || role === undefined) return undefined;
    if (memberWithAddress(state, email) !== undefined || state.members.has(userId)) return undefined;
    // A person the company's directory deactivated or deleted does not come back by signing in.
    if (await this.directory.keepsOut(organizationId, { userId, email })) return undefined;
    const enforcesSignOn = state.sso?.enforce === true;
    return {
      organizationId,
      name: state.name,
      requiresTwoStep: state.twoStepSignInRequired === true,
      domain,
      email,
      role,
      enforcesSignOn,
    };
  }

  private async join(userId: string, context: CommandContext): Promise<void> {
    const joinable = await this.joinable(userId);
    if (joinable === undefined) return;
    const { organizationId, domain, email, role } = joinable;
    const asJoin: CommandContext = { ...context, actor: `join:${domain}` };
    try {
      await this.commands.execute(new AddMemberCommand(organizationId, { email, role, userId }, asJoin));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.code === 'LIMIT_EXCEEDED') {
        await this.refusals.record(organizationId, domain, { userId, email }, asJoin);
      } else if (error.code !== 'DUPLICATE') {
        throw error;
      }
    }
  }
}
