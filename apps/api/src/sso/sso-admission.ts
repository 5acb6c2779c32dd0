// After a provider's word is verified, whatever the protocol (OpenID Connect or SAML): who may come in, and as whom.
// An existing account signs in only when this organization's SSO created it or its owner linked it: a provider's word
// alone never opens someone else's account.
import { Inject, Injectable } from '@nestjs/common';
import { DirectoryUsers } from '../directory/directory-users.service.js';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import { automaticJoinRole, DomainError, emailDomain, memberWithAddress, ssoDomainOf, userStream } from '#domain';
import { type CommandContext } from '#application';
import { EVENT_STORE, type EventStore } from '#event-store';
import type { Identity, OpenedSession } from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import { TwoStepPolicy } from '../auth/two-step-policy.js';
import { AddMemberCommand } from '../organizations/add-member.command.js';
import { Organizations } from '../organizations/organizations.service.js';
import { JoinRefusals } from './join-refusals.js';
import { SsoDomainClaims } from './sso-domain-claims.js';
import { SsoSignOnFailure } from './sso-sign-on-failure.error.js';

/** What a provider asserted, verified: its issuer (an OIDC issuer, a SAML entity id), the subject and the address. */
export type AssertedPerson = { issuer: string; subject: string; email: string };

@Injectable()
export class SsoAdmission {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly organizations: Organizations,
    private readonly claims: SsoDomainClaims,
    private readonly commands: MeteredCommandBus,
    private readonly twoStepPolicy: TwoStepPolicy,
    private readonly refusals: JoinRefusals,
    private readonly directory: DirectoryUsers,
  ) {}

  /**
   * Whatever the protocol, once the provider's word is verified: the address must be of a verified domain of this
   * organization, an existing account must be this organization's or linked (a link: the very account asked for),
   * then the membership (just in time) and the second step.
   */
  async admit(
    organizationId: string,
    asserted: AssertedPerson,
    linkUserId: string | undefined,
    context: CommandContext,
  ): Promise<OpenedSession> {
    const { issuer, subject, email } = asserted;
    const who = { subject, email };
    const { state } = await this.organizations.load(organizationId);
    const domain = state.exists ? ssoDomainOf(state, email) : null;
    if (domain === null || (await this.claims.organizationOf(domain)) !== organizationId) {
      throw new SsoSignOnFailure(
        'foreign-domain',
        `${email} is not in one of the organization's verified SSO domains`,
        who,
      );
    }
    const asSso: CommandContext = {
      ...context,
      actor: `sso:${organizationId}`,
      origin: { ...context.origin, ssoIssuer: issuer, ssoSubject: subject },
    };
    const existing = await this.identity.directory.findUserIdByEmail(email);
    if (linkUserId !== undefined) {
      if (existing !== linkUserId)
        throw new SsoSignOnFailure(
          'link-refused',
          'A link needs the signed-in account, and the provider must assert its very address',
          who,
        );
      const link = { type: 'LinkSsoAccount', data: { organizationId, issuer, subject, email } } as const;
      await this.identity.users.handle(existing, link, { ...asSso, actor: `user:${existing}` });
    } else if (existing !== undefined && !(await this.linked(existing, organizationId))) {
      const detail = `${email} has an account that this organization's single sign-on did not create and its owner has not linked`;
      throw new SsoSignOnFailure('account-not-linked', detail, who);
    }
    const userId = await this.member(organizationId, email, asSso, who);
    // A link's browser passed its second step already; others are asked as a password sign-in, unless the provider's
    // MFA is trusted.
    const signingInto = {
      organizationId,
      requiresTwoStep: state.exists && state.twoStepSignInRequired === true,
      trusted: state.exists && state.sso?.trustProviderMfa === true,
    };
    const awaiting = linkUserId === undefined ? await this.twoStepPolicy.awaitedAfter(userId, signingInto) : undefined;
    const signedIn = {
      ...asSso,
      actor: `user:${userId}`,
      origin: { ...asSso.origin, ssoOrganizationId: organizationId },
    };
    return this.identity.sessions.open(userId, 'sso', signedIn, awaiting);
  }

  /** Registered by this organization's SSO (actor of its first event) covers accounts made just in time. */
  private async linked(userId: string, organizationId: string): Promise<boolean> {
    const { state } = await this.identity.users.load(userId);
    if (state.status === 'registered' && state.ssoOrganizationIds.includes(organizationId)) return true;
    const first = await this.store.readStream(userStream(userId), { maxCount: 1 });
    return first.found && first.events[0]?.metadata.actor === `sso:${organizationId}`;
  }

  private async member(
    organizationId: string,
    email: string,
    context: CommandContext,
    who: SsoSignOnFailure['who'],
  ): Promise<string> {
    const registered = await this.identity.directory.findUserIdByEmail(email);
    const { state } = await this.organizations.load(organizationId);
    const isMember =
      state.exists &&
      (memberWithAddress(state, email) !== undefined || (registered !== undefined && state.members.has(registered)));
    if (!isMember) {
      // The provider's sign-on does not undo its own directory's deprovisioning; someone with no account yet is known
      // to the directory by the id their address holds (reserved when it provisioned them).
      const heldId = registered ?? (await this.identity.directory.idOfEmail(email));
      if (await this.directory.keepsOut(organizationId, { userId: heldId, email })) {
        throw new SsoSignOnFailure(
          'deprovisioned',
          `${email} was deactivated or deleted by the organization's directory (SCIM)`,
          who,
        );
      }
      // Just-in-time provisioning: the organization's own decision, limits and audit, as any MemberAdded; with the
      // role of joining by the domain when the owner chose one (docs/directory.md).
      const domain = emailDomain(email);
      try {
        const role = (state.exists && domain !== null ? automaticJoinRole(state, domain) : undefined) ?? 'member';
        const member = registered === undefined ? { email, role } : { email, role, userId: registered };
        await this.commands.execute(new AddMemberCommand(organizationId, member, context));
      } catch (error) {
        if (error instanceof DomainError && (error.code === 'LIMIT_EXCEEDED' || error.code === 'NO_PLAN')) {
          // Kept out by the limit, as a person joining by the domain would be: the owners and the person hear of it.
          if (error.code === 'LIMIT_EXCEEDED' && domain !== null)
            await this.refusals.record(organizationId, domain, { userId: registered, email }, context);
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
